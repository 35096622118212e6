import type { DataSource, EntityManager } from 'typeorm';
import { Project, ProjectInvitation, ProjectMember, ProjectRole, User } from '../entities';
import type { Config } from '../platform/config';
import { escapeHtml } from '../platform/html';
import type { Logger } from '../platform/logger';
import type { Mailer } from '../platform/mail';
import { randomToken, sha256 } from '../platform/secrets';
import { Access, assertCanGrantRole } from './access';
import { ForbiddenError, NotFoundError, RejectedError } from './errors';
import type { Page, PageQuery } from './lists';

/** How long an invitation (and its link) waits to be accepted. */
export const INVITATION_TTL_DAYS = 14;

/** The answer to a link whose token matches no pending invitation (never made, withdrawn, renewed or already used). */
export const INVALID_INVITATION_LINK = 'Invalid invitation link: it was withdrawn, replaced by a newer one, or already used';
/** The answer to a link whose invitation has expired. */
export const EXPIRED_INVITATION_LINK = 'Invitation link has expired; ask the project owner for a new one';

/** What the inviting owner sees: the address and the role, nothing about an account behind it. */
export interface InvitationRow {
  id: string;
  email: string;
  role: ProjectRole;
  created_at: Date;
  expires_at: Date;
}

/** What the invited user sees in their own list. */
export interface ReceivedInvitation {
  id: string;
  project_id: string;
  project_name: string;
  role: ProjectRole;
  invited_by_name: string | null;
  created_at: Date;
  expires_at: Date;
}

/**
 * Invitations into projects (`POST /api/auth/invite`), for people who may not have an account yet. The owner's
 * answer, the invitation list and the time taken are the same whether or not an account has the address: the
 * request writes the invitation and nothing else, and the mail (to every invited address, with the link) goes
 * out after the answer. The link carries a random secret stored as its SHA-256 only; re-inviting the address
 * replaces it (the older link stops working). After registering, the person accepts while logged in: by the
 * link's token (whatever address the account has: the token proves the mailbox got the invitation), or by the
 * invitation's id when the account's verified email is the invited address. Accepting spends the invitation.
 */
export class InvitationService {
  constructor(
    private readonly ds: DataSource,
    private readonly access: Access,
    private readonly mailer: Mailer,
    private readonly config: Config,
    private readonly log: Logger,
  ) {}

  /**
   * Invites `email` into a project with `role` (owner only, never above the caller's own role), or renews its
   * pending invitation with the new role, a new link and a new expiry. Returns the invitation; the mail with
   * the link goes out after the answer.
   */
  async invite(userId: string, p: { projectId: string; email: string; role: ProjectRole }): Promise<ProjectInvitation> {
    const { role: callerRole } = await this.access.project(userId, p.projectId);
    assertCanGrantRole(callerRole, p.role);
    const email = p.email.trim().toLowerCase();
    const token = randomToken();
    const invitation = await this.ds.transaction(async (em) => {
      const repo = em.getRepository(ProjectInvitation);
      await repo
        .createQueryBuilder()
        .insert()
        .values(repo.create({ projectId: p.projectId, email, role: p.role, invitedBy: userId, expiresAt: new Date(Date.now() + INVITATION_TTL_DAYS * 86_400_000), tokenHash: sha256(token) }))
        .orUpdate(['role', 'invited_by', 'expires_at', 'token_hash'], ['project_id', 'email'])
        .execute();
      return repo.findOneByOrFail({ projectId: p.projectId, email });
    });
    void this.mailLink(invitation, token).catch((err: unknown) => this.log.warn({ err }, 'invitation mail failed'));
    return invitation;
  }

  /** The link mailed to the invited address: a page of the web application that accepts it once logged in. */
  linkFor(token: string): string {
    return `${this.config.appBaseUrl}/app/invitations/accept?token=${encodeURIComponent(token)}`;
  }

  private async mailLink(invitation: ProjectInvitation, token: string): Promise<void> {
    const project = await this.ds.getRepository(Project).findOneBy({ id: invitation.projectId });
    if (!project) return;
    const inviter = invitation.invitedBy ? await this.ds.getRepository(User).findOneBy({ id: invitation.invitedBy }) : null;
    const hasAccount = await this.ds.getRepository(User).existsBy({ email: invitation.email });
    const link = this.linkFor(token);
    const who = inviter?.name ?? 'A project owner';
    const how = hasAccount ? 'Log in and open this link to join:' : `Register an account (any address will do) at ${this.config.appBaseUrl}/register, then open this link while logged in to join:`;
    await this.mailer.send({
      to: invitation.email,
      subject: 'You are invited to a project',
      text:
        `Hello,\n\n${who} invited you to the project "${project.name}" as ${invitation.role}.\n\n${how}\n${link}\n\n` +
        `The link expires in ${INVITATION_TTL_DAYS} days and works once. API clients accept it with POST /api/auth/invite/accept and the link's token. If you do not know this project, ignore this mail.`,
      html:
        `<p>Hello,</p><p>${escapeHtml(who)} invited you to the project “${escapeHtml(project.name)}” as ${escapeHtml(invitation.role)}.</p>` +
        `<p>${escapeHtml(how)}</p><p><a href="${escapeHtml(link)}">Accept the invitation</a></p><p>The link expires in ${INVITATION_TTL_DAYS} days and works once.</p>`,
    });
  }

  /** Pending invitations of a project (owner only: the addresses are the owner's business). */
  async forProject(userId: string, projectId: string, q: PageQuery): Promise<Page<InvitationRow>> {
    const { role } = await this.access.project(userId, projectId);
    if (role !== 'owner') throw new ForbiddenError('Only the project owner can manage members');
    const [rows, total] = await this.ds
      .getRepository(ProjectInvitation)
      .createQueryBuilder('i')
      .where('i.project_id = :projectId AND i.expires_at > now()', { projectId })
      .orderBy('i.created_at', 'ASC')
      .addOrderBy('i.id', 'ASC')
      .skip(q.offset)
      .take(q.limit)
      .getManyAndCount();
    return { items: rows.map((i) => ({ id: i.id, email: i.email, role: i.role, created_at: i.createdAt, expires_at: i.expiresAt })), total, limit: q.limit, offset: q.offset };
  }

  /** Withdraws a pending invitation (owner only); its link stops working. */
  async withdraw(userId: string, projectId: string, invitationId: string): Promise<void> {
    const { role } = await this.access.project(userId, projectId);
    if (role !== 'owner') throw new ForbiddenError('Only the project owner can manage members');
    const r = await this.ds.getRepository(ProjectInvitation).delete({ id: invitationId, projectId });
    if (!r.affected) throw new NotFoundError('Invitation not found');
  }

  /** The user's pending invitations (by their verified email), newest first. */
  async received(user: User): Promise<ReceivedInvitation[]> {
    return this.ds.query(
      `SELECT i.id, i.project_id, p.name AS project_name, i.role, u.name AS invited_by_name, i.created_at, i.expires_at
         FROM project_invitations i JOIN projects p ON p.id = i.project_id LEFT JOIN users u ON u.id = i.invited_by
        WHERE i.email = $1 AND i.expires_at > now() ORDER BY i.created_at DESC, i.id`,
      [user.email],
    );
  }

  /**
   * Accepts one of the user's invitations (addressed to their email): the user joins with the invited role (a
   * member already keeps their role) and the invitation is spent.
   */
  async accept(user: User, invitationId: string): Promise<{ projectId: string; role: ProjectRole }> {
    return this.ds.transaction(async (em) => this.join(em, user, await this.pending(em, user, invitationId)));
  }

  /**
   * Accepts the invitation a mailed link's token proves, for the logged-in user whatever their address: 400 with
   * {@link INVALID_INVITATION_LINK} for a token of no pending invitation, {@link EXPIRED_INVITATION_LINK} once
   * it has expired. The user joins with the invited role (a member already keeps their role); the invitation is
   * spent, so the link works once.
   */
  async acceptByToken(user: User, token: string): Promise<{ projectId: string; role: ProjectRole }> {
    return this.ds.transaction(async (em) => {
      const invitation = await em
        .getRepository(ProjectInvitation)
        .createQueryBuilder('i')
        .setLock('pessimistic_write')
        .where('i.token_hash = :h', { h: sha256(token) })
        .getOne();
      if (!invitation) throw new RejectedError(INVALID_INVITATION_LINK);
      if (invitation.expiresAt.getTime() <= Date.now()) throw new RejectedError(EXPIRED_INVITATION_LINK);
      return this.join(em, user, invitation);
    });
  }

  /** Declines one of the user's invitations. */
  async decline(user: User, invitationId: string): Promise<void> {
    await this.ds.transaction(async (em) => {
      const invitation = await this.pending(em, user, invitationId);
      await em.getRepository(ProjectInvitation).delete({ id: invitation.id });
    });
  }

  private async join(em: EntityManager, user: User, invitation: ProjectInvitation): Promise<{ projectId: string; role: ProjectRole }> {
    await em.createQueryBuilder().insert().into(ProjectMember).values({ projectId: invitation.projectId, userId: user.id, role: invitation.role }).orIgnore().execute();
    await em.getRepository(ProjectInvitation).delete({ id: invitation.id });
    const member = await em.getRepository(ProjectMember).findOneByOrFail({ projectId: invitation.projectId, userId: user.id });
    return { projectId: invitation.projectId, role: member.role };
  }

  /** An unexpired invitation addressed to the user, locked; 404 for anyone else's. */
  private async pending(em: EntityManager, user: User, invitationId: string): Promise<ProjectInvitation> {
    const invitation = await em
      .getRepository(ProjectInvitation)
      .createQueryBuilder('i')
      .setLock('pessimistic_write')
      .where('i.id = :invitationId AND i.email = :email AND i.expires_at > now()', { invitationId, email: user.email })
      .getOne();
    if (!invitation) throw new NotFoundError('Invitation not found');
    return invitation;
  }
}
