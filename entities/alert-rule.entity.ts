import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { AlertMetric, AlertOperator, AlertSeverity } from './alert-values';

/** A condition on one metric of a project (or of one of its deployments), evaluated every cycle. */
@Entity('alert_rules')
@Index(['projectId', 'createdAt'])
export class AlertRule {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'project_id' })
  projectId: string;

  /** null: every active deployment of the project (one alert per deployment). */
  @Column('uuid', { name: 'deployment_id', nullable: true })
  deploymentId: string | null;

  @Column('text')
  name: string;

  @Column('text', { default: '' })
  description: string;

  @Column('text')
  metric: AlertMetric;

  @Column('text')
  operator: AlertOperator;

  @Column('double precision')
  threshold: number;

  @Column('integer', { name: 'window_minutes' })
  windowMinutes: number;

  /** Fewer observations in the window than this: no value, the rule neither fires nor resolves. */
  @Column('integer', { name: 'min_samples' })
  minSamples: number;

  @Column('text')
  severity: AlertSeverity;

  @Column('uuid', { name: 'channel_ids', array: true, default: () => "'{}'" })
  channelIds: string[];

  @Column('integer', { name: 'cooldown_minutes' })
  cooldownMinutes: number;

  @Column('integer', { name: 'escalation_minutes', nullable: true })
  escalationMinutes: number | null;

  @Column('text', { name: 'escalation_severity', nullable: true })
  escalationSeverity: 'warning' | 'critical' | null;

  @Column('jsonb', { default: () => "'{}'" })
  labels: Record<string, string>;

  @Column('boolean', { name: 'is_enabled', default: true })
  isEnabled: boolean;

  @Column('timestamptz', { name: 'last_evaluated_at', nullable: true })
  lastEvaluatedAt: Date | null;

  @Column('uuid', { name: 'created_by', nullable: true })
  createdBy: string | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
