import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** A member's role in a team: maintainers manage the team's members, members only belong. */
export const TEAM_ROLES = ['member', 'maintainer'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

@Entity('team_members')
export class TeamMember {
  @PrimaryColumn('uuid', { name: 'team_id' })
  teamId: string;

  @Index()
  @PrimaryColumn('uuid', { name: 'user_id' })
  userId: string;

  @Column('text')
  role: TeamRole;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;
}
