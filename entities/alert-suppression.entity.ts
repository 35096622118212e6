import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** What a suppression matches: every field given must match (labels: each given label equal). */
export interface SuppressionMatchers {
  rule_id?: string;
  deployment_id?: string;
  metric?: string;
  severity?: string;
  labels?: Record<string, string>;
}

/** A weekly window in a time zone: on these days (0 = Sunday), from `start_time` to `end_time` ("HH:MM"). */
export interface SuppressionRecurrence {
  days_of_week: number[];
  start_time: string;
  end_time: string;
  timezone: string;
}

/**
 * A silence: alerts it matches while active still change state, but notify nobody (the history says so). Its state
 * (`pending`, `active`, `expired`) follows from the time, `starts_at`/`ends_at` and the recurrence.
 */
@Entity('alert_suppressions')
@Index(['projectId', 'endsAt'])
export class AlertSuppression {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'project_id' })
  projectId: string;

  @Column('text', { default: '' })
  comment: string;

  @Column('jsonb')
  matchers: SuppressionMatchers;

  @Column('timestamptz', { name: 'starts_at' })
  startsAt: Date;

  /** null: until deleted. */
  @Column('timestamptz', { name: 'ends_at', nullable: true })
  endsAt: Date | null;

  @Column('jsonb', { nullable: true })
  recurrence: SuppressionRecurrence | null;

  @Column('uuid', { name: 'created_by', nullable: true })
  createdBy: string | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
