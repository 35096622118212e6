import type { RetrainingJob, RetrainingPolicy, RetrainingTrigger } from '../../entities';
import { effectiveReason, effectiveState } from '../../services/retraining';
import type { Presented } from './common.schema';
import type { retrainingJobSchema, retrainingPolicySchema, retrainingTriggerSchema } from './retraining.schema';

/** Retraining policies, their jobs and the triggers they received, as the API shows them. */

export function presentRetrainingPolicy(p: RetrainingPolicy): Presented<typeof retrainingPolicySchema> {
  return {
    id: p.id,
    project_id: p.projectId,
    registered_model_id: p.registeredModelId,
    name: p.name,
    enabled: p.enabled,
    triggers: p.triggers,
    experiment: p.experiment,
    gate: p.gate,
    outcome: p.outcome,
    canary: p.canary,
    cooldown_secs: p.cooldownSecs,
    slice_dataset_id: p.sliceDatasetId,
    created_by: p.createdBy,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  };
}

/** A job with its effective state: a job whose workflow failed or was canceled while open reads `failed`, with the error. */
export function presentRetrainingJob(j: RetrainingJob): Presented<typeof retrainingJobSchema> {
  return {
    id: j.id,
    policy_id: j.policyId,
    project_id: j.projectId,
    registered_model_id: j.registeredModelId,
    trigger: j.trigger,
    state: effectiveState(j),
    experiment_id: j.experimentId,
    dataset_version_id: j.datasetVersionId,
    training_version_id: j.trainingVersionId,
    champion_version_id: j.championVersionId,
    challenger_version_id: j.challengerVersionId,
    rollout_id: j.rolloutId,
    transition_request_id: j.transitionRequestId,
    evaluation: j.evaluation,
    reason: effectiveReason(j),
    job_id: j.jobId,
    created_by: j.createdBy,
    created_at: j.createdAt,
    updated_at: j.updatedAt,
    finished_at: j.finishedAt,
  };
}

export function presentRetrainingTrigger(t: RetrainingTrigger): Presented<typeof retrainingTriggerSchema> {
  return { id: String(t.id), policy_id: t.policyId, kind: t.kind, detail: t.detail, outcome: t.outcome, reason: t.reason, retraining_job_id: t.retrainingJobId, created_at: t.createdAt };
}
