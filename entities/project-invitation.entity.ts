import { Column, Entity, Index } from 'typeorm';
import { BaseEntity } from './base.entity';
import type { ProjectRole } from './project-member.entity';

/**
 * An invitation of an email address into a project with a role (`POST /api/auth/invite`). It becomes
 * a membership when a logged-in user accepts it: the account with that (verified) email by the
 * invitation's id, or whoever holds the mailed link's token. Until then nobody learns whether the
 * address has an account.
 */
@Entity('project_invitations')
@Index(['projectId', 'email'], { unique: true })
export class ProjectInvitation extends BaseEntity {
  @Column('uuid', { name: 'project_id' })
  projectId: string;

  /** Normalized (trimmed, lower case), as users' emails are. */
  @Index()
  @Column('text')
  email: string;

  @Column('text')
  role: ProjectRole;

  @Column('uuid', { name: 'invited_by', nullable: true })
  invitedBy: string | null;

  @Column('timestamptz', { name: 'expires_at' })
  expiresAt: Date;

  /** SHA-256 of the mailed link's secret (the secret itself is never stored); null for invitations made before links. */
  @Column('text', { name: 'token_hash', nullable: true, unique: true, select: false })
  tokenHash: string | null;
}
