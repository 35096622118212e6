import type { RegistryEvent, RegistryTransition } from '../../entities';
import type { RegisteredModelView } from '../../services/registry/models';
import type { VersionView } from '../../services/registry/versions';
import type { Presented } from './common.schema';
import type { registeredModelSchema, registryEventSchema, registryTransitionSchema, registryVersionSchema } from './registry.schema';

/** The model registry as the API shows it. */

export function presentRegisteredModel({ model: m, aliases }: RegisteredModelView): Presented<typeof registeredModelSchema> {
  return {
    id: m.id,
    project_id: m.projectId,
    name: m.name,
    description: m.description,
    tags: m.tags,
    latest_version: m.latestVersion,
    aliases,
    auto_deploy_aliases: m.autoDeployAliases,
    created_by: m.createdBy,
    created_at: m.createdAt,
    updated_at: m.updatedAt,
  };
}

export function presentRegistryVersion({ version: v, aliases }: VersionView): Presented<typeof registryVersionSchema> {
  return {
    id: v.id,
    registered_model_id: v.registeredModelId,
    project_id: v.projectId,
    version: v.version,
    model_id: v.modelId,
    experiment_id: v.experimentId,
    dataset_version_id: v.datasetVersionId,
    metrics: v.metrics,
    stage: v.stage,
    aliases,
    tags: v.tags,
    description: v.description,
    deployment_id: v.deploymentId,
    created_by: v.createdBy,
    created_at: v.createdAt,
  };
}

export function presentRegistryTransition(t: RegistryTransition): Presented<typeof registryTransitionSchema> {
  return {
    id: t.id,
    version_id: t.versionId,
    registered_model_id: t.registeredModelId,
    project_id: t.projectId,
    to_stage: t.toStage,
    status: t.status,
    requested_by: t.requestedBy,
    comment: t.comment,
    created_at: t.createdAt,
    decided_by: t.decidedBy,
    decided_at: t.decidedAt,
    decision_comment: t.decisionComment,
    deployment_id: t.deploymentId,
  };
}

export function presentRegistryEvent(e: RegistryEvent): Presented<typeof registryEventSchema> {
  return {
    id: String(e.id),
    project_id: e.projectId,
    registered_model_id: e.registeredModelId,
    version_id: e.versionId,
    kind: e.kind,
    actor_id: e.actorId,
    details: e.details,
    created_at: e.createdAt,
  };
}
