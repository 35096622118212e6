import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { AlertMetric, AlertOperator, AlertSeverity, AlertState } from './alert-values';

/**
 * One alert per rule and label set (its fingerprint: the rule, the deployment and the labels), as Alertmanager keys
 * them: a rule that fires again after its alert resolved reopens the same record (the history keeps every turn).
 */
@Entity('alerts')
@Index(['projectId', 'state', 'lastSeenAt'])
export class Alert {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'project_id' })
  projectId: string;

  @Column('uuid', { name: 'rule_id' })
  ruleId: string;

  @Column('uuid', { name: 'deployment_id', nullable: true })
  deploymentId: string | null;

  @Column('text', { unique: true })
  fingerprint: string;

  @Column('jsonb', { default: () => "'{}'" })
  labels: Record<string, string>;

  @Column('text')
  metric: AlertMetric;

  @Column('text')
  operator: AlertOperator;

  @Column('double precision')
  threshold: number;

  @Column('text')
  state: AlertState;

  /** The rule's severity, or its escalation severity once escalated. */
  @Column('text')
  severity: AlertSeverity;

  /** The last observed value (null once it could not be computed). */
  @Column('double precision', { nullable: true })
  value: number | null;

  /** The value was estimated (accuracy from calibrated probabilities where no labels arrived). */
  @Column('boolean', { default: false })
  estimated: boolean;

  @Column('integer', { default: 0 })
  samples: number;

  /** When this turn of firing began (a reopened alert starts a new turn). */
  @Column('timestamptz', { name: 'first_seen_at' })
  firstSeenAt: Date;

  @Column('timestamptz', { name: 'last_seen_at' })
  lastSeenAt: Date;

  @Column('timestamptz', { name: 'last_notified_at', nullable: true })
  lastNotifiedAt: Date | null;

  @Column('integer', { name: 'notification_count', default: 0 })
  notificationCount: number;

  @Column('timestamptz', { name: 'escalated_at', nullable: true })
  escalatedAt: Date | null;

  /** A suppression matched at its last change: it changed state but notified nobody. */
  @Column('boolean', { default: false })
  silenced: boolean;

  @Column('uuid', { name: 'acknowledged_by', nullable: true })
  acknowledgedBy: string | null;

  @Column('timestamptz', { name: 'acknowledged_at', nullable: true })
  acknowledgedAt: Date | null;

  /** null with `resolved_at` set: resolved by the evaluator when the condition cleared. */
  @Column('uuid', { name: 'resolved_by', nullable: true })
  resolvedBy: string | null;

  @Column('timestamptz', { name: 'resolved_at', nullable: true })
  resolvedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
