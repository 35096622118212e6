import { Column, Entity, Index } from 'typeorm';
import { BaseEntity } from './base.entity';
import type { ProjectRole } from './project-member.entity';

/**
 * An invitation of an email address into a project with a role. It becomes a membership when
 * the account with that (verified) email accepts it; until then nobody learns whether the
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
}
