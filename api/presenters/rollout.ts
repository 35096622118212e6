import type { Rollout } from '../../entities';
import type { Presented } from './common.schema';
import type { rolloutSchema } from './rollout.schema';

/** A rollout as the API shows it. */
export function presentRollout(r: Rollout): Presented<typeof rolloutSchema> {
  return {
    id: r.id,
    project_id: r.projectId,
    deployment_id: r.deploymentId,
    candidate_deployment_id: r.candidateDeploymentId,
    candidate_model_id: r.candidateModelId,
    version_id: r.versionId,
    kind: r.kind,
    state: r.state,
    step_index: r.stepIndex,
    steps: r.steps,
    current_traffic_percent: r.currentTrafficPercent,
    gates_last: r.gatesLast,
    options: r.options,
    history: r.history,
    reason: r.reason,
    created_by: r.createdBy,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
    finished_at: r.finishedAt,
  };
}
