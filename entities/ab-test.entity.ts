import { Column, Entity, Index, UpdateDateColumn } from 'typeorm';
import { BaseEntity } from './base.entity';

export const AB_TEST_STATES = ['draft', 'running', 'concluded'] as const;
export type AbTestState = (typeof AB_TEST_STATES)[number];

/**
 * What an A/B test measures per request: `accuracy` and `log_loss` from the deployments' ground truth (feedback by
 * request id), `conversion` (0/1) and `revenue` (a number) from outcomes posted to the test.
 */
export const AB_METRICS = ['accuracy', 'log_loss', 'conversion', 'revenue'] as const;
export type AbMetric = (typeof AB_METRICS)[number];

/** One arm of a test: the first variant is the control every other one is compared with. */
export interface AbVariant {
  name: string;
  deployment_id: string;
  weight: number;
}

/** How a test ended: `winner` null when it was stopped before a boundary was crossed. */
export interface AbConclusion {
  winner: string | null;
  /** The variant the winner's effect is measured against (the control, or for a winning control the closest variant). */
  against: string | null;
  /** winner − against, in the metric's units (for log_loss a winner's effect is negative). */
  effect: number | null;
  ci: [number, number] | null;
  p_value: number | null;
  reason: 'significant' | 'stopped';
  decided_at: string;
}

/** An experiment splitting requests between deployments of one project, concluded by a sequential test. */
@Entity('ab_tests')
@Index(['projectId', 'createdAt'])
export class AbTest extends BaseEntity {
  @Column('uuid', { name: 'project_id' })
  projectId: string;

  @Column('text')
  name: string;

  @Column('text', { default: '' })
  description: string;

  @Column('text')
  state: AbTestState;

  @Column('jsonb')
  variants: AbVariant[];

  @Column('text', { name: 'primary_metric' })
  primaryMetric: AbMetric;

  @Column('double precision')
  alpha: number;

  @Column('integer', { name: 'min_samples' })
  minSamples: number;

  @Column('jsonb', { nullable: true })
  conclusion: AbConclusion | null;

  @Column('uuid', { name: 'created_by', nullable: true })
  createdBy: string | null;

  @Column('timestamptz', { name: 'started_at', nullable: true })
  startedAt: Date | null;

  @Column('timestamptz', { name: 'concluded_at', nullable: true })
  concludedAt: Date | null;

  @Column('timestamptz', { name: 'promoted_at', nullable: true })
  promotedAt: Date | null;

  @Column('uuid', { name: 'promoted_deployment_id', nullable: true })
  promotedDeploymentId: string | null;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
