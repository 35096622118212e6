import type { EntityManager } from 'typeorm';
import { ApiKey, AuthSession, ProjectInvitation, Team, TeamMember, User, UserIdentity, type SsoProvider } from '../../entities';
import type { Logger } from '../../platform/logger';
import { hashPassword, randomToken } from '../../platform/secrets';
import type { AccountActivity, RequestMeta } from '../account-activity';
import { normalizeEmail } from '../accounts';
import { readSettings } from '../admin/settings';
import { SsoRefusal, type SsoProfile } from './protocol';

/**
 * Who a provider's profile is here: the user linked to its subject, else the user with its (verified) email, linked
 * now, else a new user made just in time. Then the provider's group mappings are applied. Runs in the sign-in's
 * transaction, so a refusal changes nothing.
 */
export class SsoProvisioning {
  constructor(
    private readonly activity: AccountActivity,
    private readonly log: Logger,
  ) {}

  async userFor(em: EntityManager, provider: SsoProvider, profile: SsoProfile, meta: RequestMeta): Promise<User> {
    if (!profile.email) throw new SsoRefusal(`${provider.displayName} did not share an email address`);
    // The organisation's own provider vouches for its addresses; another must say the address is verified.
    if (!profile.emailVerified && !provider.trusted) throw new SsoRefusal(`${provider.displayName} has not verified your email address`);
    const email = normalizeEmail(profile.email);
    const domain = email.slice(email.lastIndexOf('@') + 1);
    if (provider.allowedEmailDomains.length && !provider.allowedEmailDomains.includes(domain)) {
      throw new SsoRefusal(`Accounts of ${domain} may not sign in with ${provider.displayName}`);
    }
    const users = em.getRepository(User);
    const identities = em.getRepository(UserIdentity);
    const byEmail = await users.findOneBy({ email });
    const identity = await identities.findOneBy({ providerId: provider.id, subject: profile.subject });
    let user: User;
    if (identity) {
      // The subject is the stable key; an email that now names someone else is not settled by guessing.
      if (byEmail && byEmail.id !== identity.userId) throw new SsoRefusal(`This ${provider.displayName} account is linked to another user`);
      user = await users.findOneByOrFail({ id: identity.userId });
      await identities.update({ id: identity.id }, { email, lastLoginAt: new Date() });
    } else if (byEmail) {
      user = await this.link(em, provider, profile, byEmail, meta);
    } else {
      user = await this.create(em, provider, profile, email, domain, meta);
    }
    if (user.suspendedAt) throw new SsoRefusal('This account is suspended');
    await this.applyGroups(em, provider, profile.groups, user, meta);
    return users.findOneByOrFail({ id: user.id });
  }

  /**
   * Links an existing account with the same address. An account whose address was never verified may have been
   * registered by someone else waiting for its owner (pre-account takeover): the provider has now proven the mailbox,
   * so the address is verified and whatever that someone set up (password, sessions, API keys) stops working.
   */
  private async link(em: EntityManager, provider: SsoProvider, profile: SsoProfile, user: User, meta: RequestMeta): Promise<User> {
    const other = await em.getRepository(UserIdentity).findOneBy({ providerId: provider.id, userId: user.id });
    if (other) throw new SsoRefusal(`Your account is already linked to another ${provider.displayName} account`);
    await em
      .getRepository(UserIdentity)
      .insert(em.getRepository(UserIdentity).create({ userId: user.id, providerId: provider.id, subject: profile.subject, email: user.email, lastLoginAt: new Date() }));
    if (!user.emailVerifiedAt) {
      await em.getRepository(User).update({ id: user.id }, { emailVerifiedAt: new Date(), passwordHash: await hashPassword(randomToken()) });
      await em
        .getRepository(AuthSession)
        .createQueryBuilder()
        .update()
        .set({ revokedAt: () => 'now()' })
        .where('user_id = :u AND revoked_at IS NULL', { u: user.id })
        .execute();
      await em
        .getRepository(ApiKey)
        .createQueryBuilder()
        .update()
        .set({ revokedAt: () => 'now()' })
        .where('user_id = :u AND revoked_at IS NULL', { u: user.id })
        .execute();
      await this.activity.record(em, user.id, 'email_verified', meta, { via: 'sso', provider: provider.slug });
    }
    return user;
  }

  /** Just-in-time creation: the instance's registration setting and domains apply unless the provider is trusted. */
  private async create(em: EntityManager, provider: SsoProvider, profile: SsoProfile, email: string, domain: string, meta: RequestMeta): Promise<User> {
    if (!provider.trusted) {
      const settings = await readSettings(em);
      if (settings.registration === 'closed') throw new SsoRefusal('Registration is closed: ask an administrator for an account');
      if (settings.registration === 'invite_only') {
        const invited = await em.getRepository(ProjectInvitation).createQueryBuilder('i').where('i.email = :email AND i.expires_at > now()', { email }).getExists();
        if (!invited) throw new SsoRefusal('Registration is by invitation only: ask a project owner to invite you');
      }
      if (settings.allowed_email_domains.length && !settings.allowed_email_domains.includes(domain)) throw new SsoRefusal(`Registration is not open to ${domain} addresses`);
    }
    const users = em.getRepository(User);
    // No password: the account signs in through its provider, or sets one with a reset link.
    const user = users.create({
      email,
      name: (profile.name?.trim() || email.slice(0, email.indexOf('@'))).slice(0, 200),
      passwordHash: await hashPassword(randomToken()),
      emailVerifiedAt: new Date(),
    });
    await users.insert(user);
    await em.getRepository(UserIdentity).insert(em.getRepository(UserIdentity).create({ userId: user.id, providerId: provider.id, subject: profile.subject, email, lastLoginAt: new Date() }));
    await this.activity.record(em, user.id, 'registered', meta, { via: 'sso', provider: provider.slug });
    return user;
  }

  /**
   * The provider's groups decide the teams it maps: a mapped group the user is in makes them a member of its team
   * (maintainer when any of their groups says so), and a mapped team none of their groups names loses them. Teams
   * the provider does not map are left alone. A superuser mapping grants the flag (never revokes it: losing the
   * last superuser to a directory change would lock the instance).
   */
  private async applyGroups(em: EntityManager, provider: SsoProvider, groups: string[], user: User, meta: RequestMeta): Promise<void> {
    const mine = new Set(groups);
    const wanted = new Map<string, 'member' | 'maintainer' | null>();
    for (const m of provider.groupMappings) {
      if (!m.team) continue;
      const key = m.team.toLowerCase();
      const prev = wanted.get(key) ?? null;
      if (!mine.has(m.group)) wanted.set(key, prev);
      else wanted.set(key, prev === 'maintainer' || m.teamRole === 'maintainer' ? 'maintainer' : 'member');
    }
    for (const [name, role] of wanted) {
      const team = await em.getRepository(Team).createQueryBuilder('t').where('lower(t.name) = :name', { name }).getOne();
      if (!team) {
        this.log.warn({ provider: provider.slug, team: name }, 'SSO group mapping names a team that does not exist');
        continue;
      }
      if (role) {
        await em.query('INSERT INTO team_members (team_id, user_id, role, created_at) VALUES ($1, $2, $3, now()) ON CONFLICT (team_id, user_id) DO UPDATE SET role = EXCLUDED.role', [
          team.id,
          user.id,
          role,
        ]);
      } else {
        await em.getRepository(TeamMember).delete({ teamId: team.id, userId: user.id });
      }
    }
    const grant = provider.groupMappings.find((m) => m.superuser && mine.has(m.group));
    if (grant && !user.isSuperuser) {
      await em.getRepository(User).update({ id: user.id }, { isSuperuser: true });
      await this.activity.record(em, user.id, 'superuser_granted', meta, { via: 'sso', provider: provider.slug, group: grant.group });
    }
  }
}
