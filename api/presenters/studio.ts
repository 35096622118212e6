import type { StudioScenario, StudioSession } from '../../entities';
import type { DeploymentSchema } from '../../services/studio';
import type { Presented } from './common.schema';
import type { deploymentSchemaSchema, scenarioSchema, studioSessionSchema, studioSessionSummarySchema } from './studio.schema';

/** A session as lists show it. */
export function presentStudioSessionSummary(s: StudioSession): Presented<typeof studioSessionSummarySchema> {
  return { id: s.id, project_id: s.projectId, deployment_id: s.deploymentId, created_at: s.createdAt };
}

/** The spec's studio session, with its scenarios. */
export function presentStudioSession(s: StudioSession, scenarios: StudioScenario[]): Presented<typeof studioSessionSchema> {
  return {
    id: s.id,
    project_id: s.projectId,
    deployment_id: s.deploymentId,
    feature_schema: s.featureSchema,
    baseline_input: s.baselineInput,
    baseline_output: s.baselineOutput,
    baseline_contributions: s.baselineContributions,
    scenarios: scenarios.map(presentScenario),
    created_by: s.createdBy,
    created_at: s.createdAt,
  };
}

/** The spec's scenario; output and contributions are null until a run succeeds. */
export function presentScenario(s: StudioScenario): Presented<typeof scenarioSchema> {
  return {
    id: s.id,
    session_id: s.sessionId,
    name: s.name,
    description: s.description,
    changes: s.changes,
    status: s.status,
    scenario_input: s.scenarioInput,
    output: s.output,
    contributions: s.contributions,
    error: s.error,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
  };
}

/** `GET /api/studio/deployments/{id}/schema`. */
export function presentDeploymentSchema(s: DeploymentSchema): Presented<typeof deploymentSchemaSchema> {
  return {
    deployment_id: s.deployment.id,
    project_id: s.deployment.projectId,
    model_id: s.model.id,
    experiment_id: s.model.experimentId,
    dataset_version_id: s.datasetVersionId,
    target_column: s.targetColumn,
    feature_schema: s.featureSchema,
    example_input: s.exampleInput,
    example_source: s.exampleSource,
  };
}
