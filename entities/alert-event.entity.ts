import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { AlertEventKind, AlertSeverity, AlertState } from './alert-values';
import type { JsonMap } from './job.entity';

/** One change of an alert (or a notification about it): the append-only history. */
@Entity('alert_events')
@Index(['projectId', 'id'])
@Index(['alertId', 'id'])
export class AlertEvent {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column('uuid', { name: 'alert_id' })
  alertId: string;

  @Column('uuid', { name: 'project_id' })
  projectId: string;

  @Column('uuid', { name: 'rule_id' })
  ruleId: string;

  @Column('text')
  event: AlertEventKind;

  @Column('text', { name: 'from_state', nullable: true })
  fromState: AlertState | null;

  @Column('text', { name: 'to_state' })
  toState: AlertState;

  @Column('text')
  severity: AlertSeverity;

  @Column('double precision', { nullable: true })
  value: number | null;

  /** The user who acknowledged or resolved; null for the evaluator. */
  @Column('uuid', { name: 'actor_id', nullable: true })
  actorId: string | null;

  /** Event details: the suppression that silenced it, the channel notified, a comment. */
  @Column('jsonb', { default: () => "'{}'" })
  detail: JsonMap;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;
}
