/**
 * The model registry (issue 31, part R): registered models per project, their numbered versions (a model with its
 * metrics snapshot), aliases, transition requests with approvals, and the append-only registry events that are sent
 * to the project's alert channels.
 *
 * Service API for other parts (retraining, rollouts), on `services.registry`. These methods check no roles: the
 * caller is trusted code acting for a user it already checked, or for the system. `actor` is a user id, or null for
 * the system (stored as null `created_by` / `decided_by`, shown as the system in events).
 *
 *   registerVersion(actor: string | null, registeredModelId: string, modelId: string,
 *                   opts?: { description?: string; tags?: Record<string, string>; aliases?: string[] }): Promise<RegistryVersion>
 *     A new version (number = previous + 1) of the registered model pointing at `modelId` (a model of the same project,
 *     else ValidationError), with the model's metrics snapshot; `aliases` are moved onto it (each move an event).
 *     Writes a `version_created` event.
 *   moveAlias(actor: string | null, registeredModelId: string, alias: string, versionId: string): Promise<RegistryAliasMove>
 *     ({alias, from_version, to_version, version_id, deployment_id})
 *     Points `alias` at the version (a version of that registered model); an `alias_moved` event {alias, from_version,
 *     to_version}. With the alias in the model's `auto_deploy_aliases`, the version is deployed to production as an
 *     approved transition would (returns `deployment_id` then).
 *   requestTransition(actor: string | null, versionId: string, toStage: 'staging' | 'production' | 'archived',
 *                     comment?: string): Promise<RegistryTransition>
 *   approveTransition(actor: string | null, requestId: string, comment?: string): Promise<RegistryTransition>
 *   rejectTransition(actor: string | null, requestId: string, comment?: string): Promise<RegistryTransition>
 *     Decide a pending request (ConflictError when decided). Approve to production: a production deployment named
 *     `<registered name> v<version>` through services/deployment-stages.ts (the previous one archived), the version's
 *     stage `production`, the previous production version `archived`; its `deployment_id` is set.
 *   markProduction(actor: string | null, versionId: string, deploymentId: string): Promise<RegistryVersion>
 *     For a rollout that already put the version's model into production (its own promote): the registry's stages follow
 *     (the version `production`, the previous production version `archived`), a `stage_changed` event.
 *   recordEvent(projectId: string, registeredModelId: string | null, kind: string, details: Record<string, unknown>,
 *               actor?: string | null): Promise<RegistryEvent>
 *     Appends an event (kinds beyond the registry's own are welcome: rollout_started, rollout_promoted,
 *     rollout_rolled_back, retraining_started, ...) and sends it to every enabled channel of the project, after commit.
 *   versionOfModel(modelId: string, registeredModelId?: string): Promise<RegistryVersion | null>
 *     The newest registry version that points at the model (of that registered model when given), or null.
 *   versionByAlias(registeredModelId: string, alias: string): Promise<RegistryVersion | null>
 *   getVersion(versionId: string): Promise<RegistryVersion | null>   (no access check)
 *
 * Entities (entities/registered-model.entity.ts, registry-version, registry-alias, registry-transition,
 * registry-event): RegisteredModel, RegistryVersion, RegistryAlias, RegistryTransition, RegistryEvent.
 */
export { RegistryService } from './service';
export type { RegistryAliasMove, RegistryActor } from './service';
