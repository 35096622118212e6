/**
 * What retraining needs of the registry (services/registry/) and of rollouts (services/rollouts.ts), named here so the
 * retraining code reads as its own story and its tests could stand in for either. The real services satisfy these
 * structurally (services/index.ts hands them in).
 */

import type { GateMetric, GateOp } from '../../entities';

/** A registry version as retraining reads it. */
export interface RegistryVersionRef {
  id: string;
  registeredModelId: string;
  projectId: string;
  version: number;
  modelId: string;
  experimentId: string;
  stage: string;
  deploymentId: string | null;
}

export interface RetrainingRegistry {
  registerVersion(actor: string | null, registeredModelId: string, modelId: string, opts?: { description?: string; tags?: Record<string, string>; aliases?: string[] }): Promise<RegistryVersionRef>;
  moveAlias(actor: string | null, registeredModelId: string, alias: string, versionId: string): Promise<unknown>;
  requestTransition(actor: string | null, versionId: string, toStage: 'staging' | 'production' | 'archived', comment?: string): Promise<{ id: string; status: string }>;
  approveTransition(actor: string | null, requestId: string, comment?: string): Promise<{ id: string; status: string; deploymentId: string | null }>;
  rejectTransition(actor: string | null, requestId: string, comment?: string): Promise<{ id: string; status: string }>;
  markProduction(actor: string | null, versionId: string, deploymentId: string): Promise<unknown>;
  recordEvent(projectId: string, registeredModelId: string | null, kind: string, details: Record<string, unknown>, actor?: string | null): Promise<unknown>;
  versionByAlias(registeredModelId: string, alias: string): Promise<RegistryVersionRef | null>;
  getVersion(versionId: string): Promise<RegistryVersionRef | null>;
}

/** A rollout as retraining follows it. */
export interface RolloutRef {
  id: string;
  state: string;
  reason: string | null;
  candidateDeploymentId: string | null;
}

export interface CanarySpec {
  steps: { traffic_percent: number; pause_secs: number; gates?: { metric: GateMetric; op: GateOp; threshold: number; min_samples?: number }[] }[];
  gate_interval_secs?: number;
}

export interface RetrainingRollouts {
  startCanary(actor: string, deploymentId: string, input: CanarySpec & { version_id: string; on_success?: 'promote' | 'hold' }): Promise<RolloutRef>;
  startShadow(actor: string, deploymentId: string, input: { version_id: string; sample_percent?: number; duration_secs?: number }): Promise<RolloutRef>;
  get(rolloutId: string): Promise<RolloutRef>;
}

/** A rollout's final states; `promoted` (and a shadow's `completed`) are the good ends. */
export const ROLLOUT_FINAL_STATES = ['promoted', 'rolled_back', 'aborted', 'completed', 'failed'];
