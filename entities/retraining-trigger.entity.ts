import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { JsonMap } from './job.entity';
import type { RetrainingTriggerKind } from './retraining-values';

/** Every trigger a policy received, append-only: the job it started, or why it was skipped (cooldown, a job open). */
@Entity('retraining_triggers')
@Index(['policyId', 'createdAt'])
export class RetrainingTrigger {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column('uuid', { name: 'policy_id' })
  policyId: string;

  @Column('uuid', { name: 'project_id' })
  projectId: string;

  @Column('text')
  kind: RetrainingTriggerKind;

  @Column('jsonb', { default: () => "'{}'" })
  detail: JsonMap;

  @Column('text')
  outcome: 'started' | 'skipped';

  @Column('text', { nullable: true })
  reason: string | null;

  @Column('uuid', { name: 'retraining_job_id', nullable: true })
  retrainingJobId: string | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;
}
