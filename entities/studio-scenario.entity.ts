import { Column, Entity, Index, UpdateDateColumn } from 'typeorm';
import { BaseEntity } from './base.entity';
import type { JsonMap } from './job.entity';
import type { Contribution } from './studio-session.entity';

/** pending → running → succeeded | failed (the spec's states); a run may start again from any of them. */
export const SCENARIO_STATUSES = ['pending', 'running', 'succeeded', 'failed'] as const;
export type ScenarioStatus = (typeof SCENARIO_STATUSES)[number];

/**
 * A set of feature changes to a studio session's baseline. Its input (the baseline with the
 * changes applied) is fixed at creation; a run scores it and keeps the output or the error.
 */
@Entity('studio_scenarios')
@Index(['sessionId', 'createdAt'])
export class StudioScenario extends BaseEntity {
  @Column('uuid', { name: 'session_id' })
  sessionId: string;

  /** The session's project, so access is decided like any project-owned row. */
  @Column('uuid', { name: 'project_id' })
  projectId: string;

  @Column('text')
  name: string;

  @Column('text', { nullable: true })
  description: string | null;

  /** Feature → new value; every key is a feature of the session's schema. */
  @Column('jsonb')
  changes: JsonMap;

  @Column('text', { default: 'pending' })
  status: ScenarioStatus;

  @Column('jsonb', { name: 'scenario_input' })
  scenarioInput: JsonMap;

  @Column('jsonb', { nullable: true })
  output: JsonMap | null;

  @Column('jsonb', { nullable: true })
  contributions: Contribution[] | null;

  @Column('text', { nullable: true })
  error: string | null;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
