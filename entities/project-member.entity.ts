import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

export const PROJECT_ROLES = ['viewer', 'editor', 'admin', 'owner'] as const;
export type ProjectRole = (typeof PROJECT_ROLES)[number];

/** Membership is the only way to reach a project; the owner has a row with role `owner`. */
@Entity('project_members')
export class ProjectMember {
  @PrimaryColumn('uuid', { name: 'project_id' })
  projectId: string;

  @Index()
  @PrimaryColumn('uuid', { name: 'user_id' })
  userId: string;

  @Column('text')
  role: ProjectRole;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;
}
