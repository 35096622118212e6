import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import type { ProjectRole } from './project-member.entity';

/** The roles a team can hold in a project: every project role but `owner`, which stays with people. */
export const PROJECT_TEAM_ROLES = ['viewer', 'editor', 'admin'] as const satisfies readonly ProjectRole[];
export type ProjectTeamRole = (typeof PROJECT_TEAM_ROLES)[number];

/** A team's grant in a project: each of its members has at least this role there. */
@Entity('project_teams')
export class ProjectTeam {
  @PrimaryColumn('uuid', { name: 'project_id' })
  projectId: string;

  @Index()
  @PrimaryColumn('uuid', { name: 'team_id' })
  teamId: string;

  @Column('text')
  role: ProjectTeamRole;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;
}
