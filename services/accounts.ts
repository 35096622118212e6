import { IsNull, type DataSource, type EntityManager } from 'typeorm';
import { ApiKey, AuthSession, EmailToken, EmailTokenPurpose, Project, ProjectMember, User } from '../entities';
import type { Config } from '../platform/config';
import type { Logger } from '../platform/logger';
import type { Mailer } from '../platform/mail';
import { escapeHtml } from '../platform/html';
import { hashPassword, randomToken, sha256, verifyPassword } from '../platform/secrets';
import type { ArtifactStore } from '../platform/artifact-store';
import type { AccountActivity, RequestMeta } from './account-activity';
import type { PageQuery, Page } from './lists';
import { deleteProjectsData } from './projects';
import { ConflictError, ForbiddenError, NotFoundError, RejectedError, UnauthenticatedError, ValidationError } from './errors';
import { assertMayRegister } from './admin/registration';
import { readSettings } from './admin/settings';
import type { Superusers } from './admin/superusers';

export const PASSWORD_TOO_SHORT = 'Password must be at least 8 characters';
export const EMAIL_NOT_VERIFIED = 'Email not verified. Please check your inbox for the activation link.';
/** The answer to a suspended user's login, session or API key. */
export const ACCOUNT_SUSPENDED = 'This account is suspended; ask an administrator of this instance to reactivate it';

export function assertPasswordStrength(password: string): void {
  if (password.length < 8) throw new ValidationError(PASSWORD_TOO_SHORT);
  if (password.length > 1024) throw new ValidationError('Password must be at most 1024 characters');
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * The account: registration, login and sessions, mailed tokens, passwords, the user's own data.
 *
 * Answers never tell whether an email is registered (beyond register's spec-bound 409): login
 * runs argon2 for unknown emails too, against a dummy hash, and the mailing endpoints do their
 * lookup and sending off the request path, so known and unknown emails cost the caller the same.
 *
 * Every change of the account is recorded in its activity log ({@link AccountActivity}) in the change's own
 * transaction; a failed login, which writes nothing else, is logged off the request path.
 */
export class Accounts {
  /** argon2 hash of a random password, made on first need: unknown emails are verified against it. */
  private dummyHash?: Promise<string>;

  constructor(
    private readonly ds: DataSource,
    private readonly config: Config,
    private readonly mailer: Mailer,
    private readonly store: ArtifactStore,
    private readonly log: Logger,
    private readonly activity: AccountActivity,
    private readonly superusers?: Superusers,
  ) {}

  /**
   * Registers an account, as the instance settings allow (closed, invite-only with `invitationToken`, allowed
   * domains: 403 with the reason otherwise). The ADMIN_EMAIL account becomes a superuser while there is none.
   */
  async register(input: { email: string; name: string; password: string; invitation_token?: string }, meta: RequestMeta = {}): Promise<User> {
    assertPasswordStrength(input.password);
    const email = normalizeEmail(input.email);
    await assertMayRegister(this.ds.manager, email, input.invitation_token);
    const repo = this.ds.getRepository(User);
    if (await repo.existsBy({ email })) throw new ConflictError('User already exists');
    const user = repo.create({ email, name: input.name.trim(), passwordHash: await hashPassword(input.password), emailVerifiedAt: null, suspendedAt: null });
    try {
      await this.ds.transaction(async (em) => {
        await em.getRepository(User).insert(user);
        await this.activity.record(em, user.id, 'registered', meta);
        if (await this.superusers?.bootstrap(em)) user.isSuperuser = true;
      });
    } catch (err) {
      if ((err as { code?: string }).code === '23505') throw new ConflictError('User already exists');
      throw err;
    }
    // Awaited: registering an existing email answers 409 anyway (the spec's text), so there is no timing to hide.
    await this.sendVerification(user);
    return user;
  }

  /**
   * Checks the password first, so the "not verified" answer reveals nothing to a guesser. An
   * unknown email is verified against the dummy hash: the answer takes as long as a wrong password.
   */
  async checkLogin(emailRaw: string, password: string, meta: RequestMeta = {}): Promise<User> {
    const user = await this.ds
      .getRepository(User)
      .createQueryBuilder('u')
      .addSelect('u.passwordHash')
      .where('u.email = :email', { email: normalizeEmail(emailRaw) })
      .getOne();
    const ok = await verifyPassword(user ? user.passwordHash : await this.dummyPasswordHash(), password);
    // The account's owner sees failed logins in their activity; written after the answer, so a known email's
    // failure takes as long as an unknown one's.
    if (user && !ok) this.activity.recordLater(user.id, 'login_failed', meta, { reason: 'wrong_password' });
    if (!user || !ok) throw new UnauthenticatedError('Invalid email or password');
    if (!user.emailVerifiedAt) {
      this.activity.recordLater(user.id, 'login_failed', meta, { reason: 'email_not_verified' });
      throw new ForbiddenError(EMAIL_NOT_VERIFIED);
    }
    if (user.suspendedAt) {
      this.activity.recordLater(user.id, 'login_failed', meta, { reason: 'suspended' });
      throw new UnauthenticatedError(ACCOUNT_SUSPENDED);
    }
    return user;
  }

  private dummyPasswordHash(): Promise<string> {
    // A failed hash is not kept: the next login tries again rather than failing for good.
    this.dummyHash ??= hashPassword(randomToken()).catch((err: unknown) => {
      this.dummyHash = undefined;
      throw err;
    });
    return this.dummyHash;
  }

  /**
   * Runs mail work after the answer has gone: its duration (a lookup, a token, an SMTP round
   * trip for known emails only) must not show in the response time. Failures are logged.
   */
  private inBackground(what: string, task: () => Promise<void>): void {
    void task().catch((err: unknown) => this.log.warn({ err }, `${what} failed`));
  }

  async createSession(user: User, opts: { remember: boolean; userAgent?: string; ip?: string }) {
    const token = randomToken();
    const csrfToken = randomToken(24);
    // Without `remember`, the lifetime is the instance setting (SESSION_TTL_HOURS until an admin sets one).
    const ttlMs = opts.remember ? this.config.auth.rememberTtlDays * 86_400_000 : (await readSettings(this.ds.manager)).session_lifetime_hours * 3_600_000;
    const session = this.ds.getRepository(AuthSession).create({
      userId: user.id,
      tokenHash: sha256(token),
      csrfToken,
      remember: opts.remember,
      userAgent: opts.userAgent?.slice(0, 500) ?? null,
      ip: opts.ip ?? null,
      expiresAt: new Date(Date.now() + ttlMs),
      lastSeenAt: new Date(),
      revokedAt: null,
    });
    await this.ds.transaction(async (em) => {
      await em.getRepository(AuthSession).insert(session);
      await this.activity.record(em, user.id, 'login', { ip: opts.ip, userAgent: opts.userAgent }, { session_id: session.id, remember: opts.remember });
    });
    return { session, token, csrfToken };
  }

  /** Ends every session of the account (logout-all). */
  async revokeSessions(userId: string, meta: RequestMeta = {}): Promise<void> {
    await this.ds.transaction(async (em) => {
      const r = await em
        .getRepository(AuthSession)
        .createQueryBuilder()
        .update()
        .set({ revokedAt: () => 'now()' })
        .where('user_id = :userId AND revoked_at IS NULL', { userId })
        .execute();
      await this.activity.record(em, userId, 'logout_all', meta, { sessions_revoked: r.affected ?? 0 });
    });
  }

  async sendVerification(user: User): Promise<void> {
    const token = await this.issueToken(user.id, 'verify_email', this.config.auth.emailVerifyTtlHours * 3_600_000);
    const link = `${this.config.appBaseUrl}/api/auth/verify-email?token=${encodeURIComponent(token)}`;
    await this.mailer.send({
      to: user.email,
      subject: 'Activate your account',
      text: `Hello ${user.name},\n\nOpen this link to activate your account:\n${link}\n\nThe link expires in ${this.config.auth.emailVerifyTtlHours} hours.`,
      html: `<p>Hello ${escapeHtml(user.name)},</p><p><a href="${link}">Activate your account</a></p><p>The link expires in ${this.config.auth.emailVerifyTtlHours} hours.</p>`,
    });
  }

  /** Mails a new activation link to an unverified account, off the request path (see {@link inBackground}). */
  resendVerification(emailRaw: string): void {
    this.inBackground('activation mail', async () => {
      const user = await this.ds.getRepository(User).findOneBy({ email: normalizeEmail(emailRaw) });
      if (user && !user.emailVerifiedAt) await this.sendVerification(user);
    });
  }

  /** Marks the email verified. A link opened twice still answers "verified". */
  async verifyEmail(token: string, meta: RequestMeta = {}): Promise<User> {
    const row = await this.findToken(token, 'verify_email', true);
    const users = this.ds.getRepository(User);
    const user = await users.findOneByOrFail({ id: row.userId });
    if (row.usedAt) {
      if (user.emailVerifiedAt) return user;
      throw new RejectedError('Invalid or expired verification link');
    }
    await this.ds.transaction(async (em) => {
      await em.getRepository(EmailToken).update({ id: row.id }, { usedAt: new Date() });
      if (!user.emailVerifiedAt) {
        await em.getRepository(User).update({ id: user.id }, { emailVerifiedAt: new Date() });
        await this.activity.record(em, user.id, 'email_verified', meta);
      }
    });
    return users.findOneByOrFail({ id: user.id });
  }

  /** Mails a reset link to a registered email, off the request path (see {@link inBackground}). */
  forgotPassword(emailRaw: string, meta: RequestMeta = {}): void {
    this.inBackground('password reset mail', () => this.sendReset(emailRaw, meta));
  }

  private async sendReset(emailRaw: string, meta: RequestMeta): Promise<void> {
    const user = await this.ds.getRepository(User).findOneBy({ email: normalizeEmail(emailRaw) });
    if (!user) return;
    const minutes = this.config.auth.passwordResetTtlMinutes;
    const token = await this.ds.transaction(async (em) => {
      const t = await this.issueToken(user.id, 'reset_password', minutes * 60_000, em);
      await this.activity.record(em, user.id, 'password_reset_requested', meta);
      return t;
    });
    const link = `${this.config.appBaseUrl}/auth/reset-password?token=${encodeURIComponent(token)}`;
    await this.mailer.send({
      to: user.email,
      subject: 'Reset your password',
      text: `Hello ${user.name},\n\nOpen this link to choose a new password:\n${link}\n\nThe link expires in ${minutes} minutes and works once. If you did not ask for it, ignore this mail.`,
      html: `<p>Hello ${escapeHtml(user.name)},</p><p><a href="${link}">Choose a new password</a></p><p>The link expires in ${minutes} minutes and works once.</p>`,
    });
  }

  /**
   * Account recovery with a mailed token: whoever else held the account loses it. The token
   * and every other outstanding reset link are spent, every session ends and every API key is
   * revoked; a reset also proves the mailbox, so it verifies the email. The owner is told by
   * mail. Returns the user id, for the API-key cache to forget its keys.
   */
  async resetPassword(token: string, password: string, meta: RequestMeta = {}): Promise<string> {
    assertPasswordStrength(password);
    const row = await this.findToken(token, 'reset_password', false);
    const passwordHash = await hashPassword(password);
    const user = await this.ds.transaction(async (em) => {
      const used = await em
        .getRepository(EmailToken)
        .createQueryBuilder()
        .update()
        .set({ usedAt: () => 'now()' })
        .where('id = :id AND used_at IS NULL', { id: row.id })
        .execute();
      if (!used.affected) throw new RejectedError('Invalid or expired reset token');
      await em
        .getRepository(User)
        .createQueryBuilder()
        .update()
        .set({ passwordHash, emailVerifiedAt: () => 'COALESCE(email_verified_at, now())' })
        .where('id = :id', { id: row.userId })
        .execute();
      await spendResetTokens(em, row.userId);
      const sessions = await em
        .getRepository(AuthSession)
        .createQueryBuilder()
        .update()
        .set({ revokedAt: () => 'now()' })
        .where('user_id = :u AND revoked_at IS NULL', { u: row.userId })
        .execute();
      const keys = await em
        .getRepository(ApiKey)
        .createQueryBuilder()
        .update()
        .set({ revokedAt: () => 'now()' })
        .where('user_id = :u AND revoked_at IS NULL', { u: row.userId })
        .execute();
      await this.activity.record(em, row.userId, 'password_reset', meta, { sessions_revoked: sessions.affected ?? 0, api_keys_revoked: keys.affected ?? 0 });
      return em.getRepository(User).findOneByOrFail({ id: row.userId });
    });
    this.inBackground('password notice', () =>
      this.mailer.send({
        to: user.email,
        subject: 'Your password was reset',
        text: `Hello ${user.name},\n\nThe password of your account was reset with a mailed link. Every session was ended and every API key was revoked; create new keys after logging in.\n\nIf you did not ask for this, reset your password again at once.`,
      }),
    );
    return user.id;
  }

  /**
   * Changes the password of a logged-in user who knows the current one: outstanding reset links
   * are spent and the other sessions end. API keys are kept (they are credentials of their own,
   * listed and revoked under /api/auth/api-keys); the mailed notice names them.
   */
  async changePassword(userId: string, current: string, next: string, keepSessionId?: string, meta: RequestMeta = {}): Promise<void> {
    const user = await this.ds.getRepository(User).createQueryBuilder('u').addSelect('u.passwordHash').where('u.id = :userId', { userId }).getOneOrFail();
    if (!(await verifyPassword(user.passwordHash, current))) throw new RejectedError('Current password is incorrect');
    assertPasswordStrength(next);
    const passwordHash = await hashPassword(next);
    await this.ds.transaction(async (em) => {
      await em.getRepository(User).update({ id: userId }, { passwordHash });
      await spendResetTokens(em, userId);
      const sessions = em
        .getRepository(AuthSession)
        .createQueryBuilder()
        .update()
        .set({ revokedAt: () => 'now()' })
        .where('user_id = :userId AND revoked_at IS NULL', { userId });
      if (keepSessionId) sessions.andWhere('id <> :keepSessionId', { keepSessionId });
      const ended = await sessions.execute();
      await this.activity.record(em, userId, 'password_changed', meta, { sessions_revoked: ended.affected ?? 0 });
    });
    this.inBackground('password notice', async () => {
      const keys = await this.ds.getRepository(ApiKey).find({ where: { userId, revokedAt: IsNull() }, order: { createdAt: 'ASC' } });
      const keyLines = keys.length ? `These API keys stay valid: ${keys.map((k) => `${k.name} (${k.prefix})`).join(', ')}. Revoke any you do not recognise.` : 'The account has no API keys.';
      await this.mailer.send({
        to: user.email,
        subject: 'Your password was changed',
        text: `Hello ${user.name},\n\nThe password of your account was changed and your other sessions were ended. ${keyLines}\n\nIf you did not do this, reset your password at once: a reset also revokes every API key.`,
      });
    });
  }

  async checkPassword(userId: string, password: string): Promise<boolean> {
    const user = await this.ds.getRepository(User).createQueryBuilder('u').addSelect('u.passwordHash').where('u.id = :userId', { userId }).getOneOrFail();
    return verifyPassword(user.passwordHash, password);
  }

  /** Ends one session of the user (logout). */
  async endSession(userId: string, sessionId: string, meta: RequestMeta = {}): Promise<void> {
    await this.ds.transaction(async (em) => {
      await em.getRepository(AuthSession).update({ id: sessionId, userId }, { revokedAt: new Date() });
      await this.activity.record(em, userId, 'logout', meta, { session_id: sessionId });
    });
  }

  /** Revokes one of the user's live sessions; 404 when it is not theirs or already ended. */
  async revokeSession(userId: string, sessionId: string, meta: RequestMeta = {}): Promise<void> {
    await this.ds.transaction(async (em) => {
      const r = await em
        .getRepository(AuthSession)
        .createQueryBuilder()
        .update()
        .set({ revokedAt: () => 'now()' })
        .where('id = :id AND user_id = :u AND revoked_at IS NULL', { id: sessionId, u: userId })
        .execute();
      if (!r.affected) throw new NotFoundError('Session not found');
      await this.activity.record(em, userId, 'session_revoked', meta, { session_id: sessionId });
    });
  }

  /** The user's live sessions, newest first. */
  async liveSessions(userId: string, q: PageQuery): Promise<Page<AuthSession>> {
    const [items, total] = await this.ds
      .getRepository(AuthSession)
      .createQueryBuilder('s')
      .where('s.user_id = :u AND s.revoked_at IS NULL AND s.expires_at > now()', { u: userId })
      .orderBy('s.created_at', 'DESC')
      .skip(q.offset)
      .take(q.limit)
      .getManyAndCount();
    return { items, total, limit: q.limit, offset: q.offset };
  }

  async rename(user: User, name: string, meta: RequestMeta = {}): Promise<User> {
    await this.ds.transaction(async (em) => {
      await em.getRepository(User).update({ id: user.id }, { name });
      await this.activity.record(em, user.id, 'profile_updated', meta, { changes: { name: { from: user.name, to: name } } });
    });
    return Object.assign(user, { name });
  }

  /** Everything the service holds about the user: account, memberships, sessions and keys (never secrets). */
  async exportData(userId: string) {
    const user = await this.ds.getRepository(User).findOneByOrFail({ id: userId });
    const memberships = await this.ds
      .getRepository(ProjectMember)
      .createQueryBuilder('m')
      .innerJoin(Project, 'p', 'p.id = m.project_id')
      .select(['p.id AS project_id', 'p.name AS project_name', 'p.description AS description', 'm.role AS role', 'm.created_at AS joined_at'])
      .where('m.user_id = :userId', { userId })
      .getRawMany();
    const sessions = await this.ds.getRepository(AuthSession).find({ where: { userId }, order: { createdAt: 'DESC' } });
    const apiKeys = await this.ds.getRepository(ApiKey).find({ where: { userId }, order: { createdAt: 'DESC' } });
    return { user, memberships, sessions, apiKeys };
  }

  /**
   * Deletes the account (its password confirms it). Projects where the user is the only owner
   * go with it, their artifact files too; in shared projects only the membership goes, and
   * ownership passes to the remaining owners.
   */
  async deleteAccount(userId: string, password: string): Promise<void> {
    if (!(await this.checkPassword(userId, password))) throw new RejectedError('Password is incorrect');
    await this.deleteUser(userId);
  }

  /**
   * The one way a user is deleted (their own `delete-account`, an admin's `DELETE /api/admin/users/{id}`): the
   * projects where they are the only owner are deleted with their data and artifact files; the projects they own
   * with other owners pass to the longest-standing other owner; their memberships, sessions, API keys, tokens and
   * account events go with the account. Returns what happened to their projects.
   */
  async deleteUser(userId: string): Promise<{ projectsDeleted: string[]; projectsTransferred: string[] }> {
    const doomed: { id: string }[] = await this.ds.query(
      `SELECT p.id FROM projects p
        JOIN project_members m ON m.project_id = p.id AND m.user_id = $1 AND m.role = 'owner'
       WHERE NOT EXISTS (SELECT 1 FROM project_members o WHERE o.project_id = p.id AND o.role = 'owner' AND o.user_id <> $1)`,
      [userId],
    );
    const { files, transferred } = await this.ds.transaction(async (em) => {
      const keys = await deleteProjectsData(
        em,
        doomed.map((d) => d.id),
      );
      // What is still theirs after the deletion has another owner: it passes to them.
      const moved: { id: string }[] = await em.query('SELECT id FROM projects WHERE owner_id = $1', [userId]);
      await em.query(
        `UPDATE projects p SET owner_id = (SELECT o.user_id FROM project_members o WHERE o.project_id = p.id AND o.role = 'owner' AND o.user_id <> $1 ORDER BY o.created_at LIMIT 1)
          WHERE p.owner_id = $1`,
        [userId],
      );
      await em.getRepository(User).delete({ id: userId });
      return { files: keys, transferred: moved };
    });
    await Promise.all(files.map((key) => this.store.remove(key)));
    return { projectsDeleted: doomed.map((d) => d.id), projectsTransferred: transferred.map((t) => t.id) };
  }

  /** Issues a single-use token; only its SHA-256 is stored. */
  private async issueToken(userId: string, purpose: EmailTokenPurpose, ttlMs: number, em: EntityManager = this.ds.manager): Promise<string> {
    const token = randomToken();
    await em.getRepository(EmailToken).insert(em.getRepository(EmailToken).create({ userId, purpose, tokenHash: sha256(token), expiresAt: new Date(Date.now() + ttlMs), usedAt: null }));
    return token;
  }

  private async findToken(token: string, purpose: EmailTokenPurpose, allowUsed: boolean): Promise<EmailToken> {
    const invalid = purpose === 'verify_email' ? 'Invalid or expired verification link' : 'Invalid or expired reset token';
    const row = await this.ds.getRepository(EmailToken).findOneBy({ tokenHash: sha256(token), purpose });
    if (!row || row.expiresAt.getTime() < Date.now() || (!allowUsed && row.usedAt)) throw new RejectedError(invalid);
    return row;
  }
}

/** Spends every outstanding reset link of a user: after a reset or a change, an older link must not work. */
async function spendResetTokens(em: EntityManager, userId: string): Promise<void> {
  await em
    .getRepository(EmailToken)
    .createQueryBuilder()
    .update()
    .set({ usedAt: () => 'now()' })
    .where("user_id = :userId AND purpose = 'reset_password' AND used_at IS NULL", { userId })
    .execute();
}
