import { Column, Entity, Index, UpdateDateColumn } from 'typeorm';
import { BaseEntity } from './base.entity';
import type { JsonMap } from './job.entity';

export const ROLLOUT_KINDS = ['canary', 'blue_green', 'shadow'] as const;
export type RolloutKind = (typeof ROLLOUT_KINDS)[number];

export const ROLLOUT_STATES = ['running', 'paused', 'promoted', 'rolled_back', 'aborted', 'completed', 'failed'] as const;
export type RolloutState = (typeof ROLLOUT_STATES)[number];

/** States in which a rollout still acts on its deployment: one such rollout per deployment (a partial unique index). */
export const OPEN_ROLLOUT_STATES: readonly RolloutState[] = ['running', 'paused'];

export const GATE_METRICS = ['error_rate', 'latency_p99', 'latency_p95', 'prediction_anomaly', 'accuracy'] as const;
export type GateMetric = (typeof GATE_METRICS)[number];
export const GATE_OPS = ['gt', 'lt', 'gte', 'lte'] as const;
export type GateOp = (typeof GATE_OPS)[number];

/** A gate fails the step when `metric op threshold` holds on the candidate's requests of the step (with `min_samples` met). */
export interface RolloutGate {
  metric: GateMetric;
  op: GateOp;
  threshold: number;
  min_samples: number;
}

export interface RolloutStep {
  traffic_percent: number;
  pause_secs: number;
  gates: RolloutGate[];
}

/** The last evaluation of one gate. */
export interface GateResult {
  metric: GateMetric;
  op: GateOp;
  observed: number | null;
  threshold: number;
  passed: boolean;
  samples: number;
}

export interface RolloutEvent {
  at: string;
  event: string;
  detail: string;
}

/** The kind's options as the request gave them (defaults filled in). */
export interface RolloutOptions {
  gate_interval_secs?: number;
  on_success?: 'promote' | 'hold';
  keep_previous_secs?: number;
  warmup_requests?: number;
  sample_percent?: number;
  duration_secs?: number | null;
}

/**
 * A progressive delivery of a candidate model against a production deployment (the stable): a canary (a growing
 * share of the stable's traffic, gated on the candidate's own inference logs), a blue-green switch (kept reversible for
 * a while) or a shadow (mirrored requests, answers compared). The workflow `rollout-<id>` drives it; every move of a
 * deployment it makes is a `deployment_transitions` row.
 */
@Entity('rollouts')
@Index(['deploymentId', 'createdAt'])
export class Rollout extends BaseEntity {
  @Column('uuid', { name: 'project_id' })
  projectId: string;

  /** The stable: the production deployment the rollout was started on. */
  @Column('uuid', { name: 'deployment_id' })
  deploymentId: string;

  @Column('uuid', { name: 'candidate_model_id' })
  candidateModelId: string;

  /** The registry version the candidate was named by, if any. */
  @Column('uuid', { name: 'version_id', nullable: true })
  versionId: string | null;

  /** Created by the workflow's first step. */
  @Column('uuid', { name: 'candidate_deployment_id', nullable: true })
  candidateDeploymentId: string | null;

  @Column('text')
  kind: RolloutKind;

  @Column('text')
  state: RolloutState;

  @Column('integer', { name: 'step_index', default: 0 })
  stepIndex: number;

  @Column('jsonb', { default: () => "'[]'" })
  steps: RolloutStep[];

  @Column('jsonb', { default: () => "'{}'" })
  options: RolloutOptions & JsonMap;

  @Column('integer', { name: 'current_traffic_percent', default: 0 })
  currentTrafficPercent: number;

  @Column('jsonb', { name: 'gates_last', default: () => "'[]'" })
  gatesLast: GateResult[];

  @Column('jsonb', { default: () => "'[]'" })
  history: RolloutEvent[];

  @Column('text', { nullable: true })
  reason: string | null;

  @Column('text', { name: 'workflow_id' })
  workflowId: string;

  @Column('uuid', { name: 'created_by', nullable: true })
  createdBy: string | null;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;

  @Column('timestamptz', { name: 'finished_at', nullable: true })
  finishedAt: Date | null;
}
