import type { DataSource, EntityManager } from 'typeorm';
import { Project, ProjectInvitation, ProjectMember, ProjectRole, User } from '../entities';
import type { Config } from '../platform/config';
import type { Logger } from '../platform/logger';
import type { Mailer } from '../platform/mail';
import { Access } from './access';
import { ForbiddenError, NotFoundError } from './errors';
import type { Page, PageQuery } from './lists';

/** How long an invitation waits for its address to accept. */
export const INVITATION_TTL_DAYS = 14;

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
 * Invitations into projects. Adding someone by email invites the address: the owner's answer,
 * the invitation list and the time taken are the same whether or not an account has that email
 * (the notice mail to an existing account goes out after the answer). The account joins by
 * accepting; an address without an account can register and accept while it is valid.
 */
export class InvitationService {
  constructor(
    private readonly ds: DataSource,
    private readonly access: Access,
    private readonly mailer: Mailer,
    private readonly config: Config,
    private readonly log: Logger,
  ) {}

  /** Invites `email` (normalized) into a project, or renews its pending invitation with the new role. */
  async invite(em: EntityManager, p: { projectId: string; email: string; role: ProjectRole; invitedBy: string }): Promise<ProjectInvitation> {
    const repo = em.getRepository(ProjectInvitation);
    const expiresAt = new Date(Date.now() + INVITATION_TTL_DAYS * 86_400_000);
    await repo
      .createQueryBuilder()
      .insert()
      .values(repo.create({ projectId: p.projectId, email: p.email, role: p.role, invitedBy: p.invitedBy, expiresAt }))
      .orUpdate(['role', 'invited_by', 'expires_at'], ['project_id', 'email'])
      .execute();
    return repo.findOneByOrFail({ projectId: p.projectId, email: p.email });
  }

  /** Tells an existing account about its invitation, after the owner's answer has gone. */
  notifyLater(invitation: ProjectInvitation): void {
    void this.notify(invitation).catch((err: unknown) => this.log.warn({ err }, 'invitation mail failed'));
  }

  private async notify(invitation: ProjectInvitation): Promise<void> {
    const user = await this.ds.getRepository(User).findOneBy({ email: invitation.email });
    // Addresses without an account get no mail: the service does not send owners' text to strangers.
    if (!user) return;
    const project = await this.ds.getRepository(Project).findOneBy({ id: invitation.projectId });
    const inviter = invitation.invitedBy ? await this.ds.getRepository(User).findOneBy({ id: invitation.invitedBy }) : null;
    if (!project) return;
    await this.mailer.send({
      to: user.email,
      subject: 'You are invited to a project',
      text:
        `Hello ${user.name},\n\n${inviter?.name ?? 'A project owner'} invited you to the project "${project.name}" as ${invitation.role}. ` +
        `Log in to ${this.config.appBaseUrl} and accept it (POST /api/invitations/${invitation.id}/accept); it expires in ${INVITATION_TTL_DAYS} days. If you do not know this project, ignore this mail.`,
    });
  }

  /** Pending invitations of a project, for its members. */
  async forProject(userId: string, projectId: string, q: PageQuery): Promise<Page<InvitationRow>> {
    await this.access.project(userId, projectId);
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

  /** Withdraws a pending invitation (owner only). */
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
   * Accepts one of the user's invitations: the user joins with the invited role (a member
   * already keeps their role) and the invitation is spent.
   */
  async accept(user: User, invitationId: string): Promise<{ projectId: string; role: ProjectRole }> {
    return this.ds.transaction(async (em) => {
      const invitation = await this.pending(em, user, invitationId);
      await em.createQueryBuilder().insert().into(ProjectMember).values({ projectId: invitation.projectId, userId: user.id, role: invitation.role }).orIgnore().execute();
      await em.getRepository(ProjectInvitation).delete({ id: invitation.id });
      const member = await em.getRepository(ProjectMember).findOneByOrFail({ projectId: invitation.projectId, userId: user.id });
      return { projectId: invitation.projectId, role: member.role };
    });
  }

  /** Declines one of the user's invitations. */
  async decline(user: User, invitationId: string): Promise<void> {
    await this.ds.transaction(async (em) => {
      const invitation = await this.pending(em, user, invitationId);
      await em.getRepository(ProjectInvitation).delete({ id: invitation.id });
    });
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
