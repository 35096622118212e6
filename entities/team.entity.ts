import { Column, Entity, UpdateDateColumn } from 'typeorm';
import { BaseEntity } from './base.entity';

/**
 * A named group of users (issue 34), managed by superusers (`/api/admin/teams`) and the team's maintainers. A team is
 * granted a role in projects (`ProjectTeam`); its members reach those projects with it.
 */
@Entity('teams')
export class Team extends BaseEntity {
  /** Unique case-insensitively (index on lower(name)). */
  @Column('text')
  name: string;

  @Column('text', { default: '' })
  description: string;

  /** The team's plan: its members without a plan of their own get the most generous of their teams' plans; null: none. */
  @Column('uuid', { name: 'plan_id', nullable: true })
  planId: string | null;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
