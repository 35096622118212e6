import type { Rollout } from '../../entities';
import type { Logger } from '../../platform/logger';

/** What a rollout tells the model registry (services/registry/), structurally: the registry is built beside it. */
export interface RolloutRegistry {
  getVersion(versionId: string): Promise<RegistryVersionLike | null>;
  versionOfModel(modelId: string): Promise<RegistryVersionLike | null>;
  markProduction(actor: string | null, versionId: string, deploymentId: string): Promise<unknown>;
  recordEvent(projectId: string, registeredModelId: string | null, kind: string, details: Record<string, unknown>, actor?: string | null): Promise<unknown>;
}

interface RegistryVersionLike {
  id: string;
  registeredModelId: string;
  version: number;
  stage: string;
}

/**
 * A rollout of a registered version (named by `version_id`, or the newest version of the candidate model) is told to
 * the registry: a `rollout_<event>` event on the registered model (sent to the project's channels), and when the
 * version's model goes into production (a promote, a blue-green switch) the registry's stages follow it
 * (`markProduction`), as when a blue-green rollback puts the previous version's model back. Best effort: the
 * deployment moves are already made and recorded, so a registry that fails is logged, never fails the rollout.
 */
export class RegistryNotes {
  constructor(
    private readonly registry: RolloutRegistry | undefined,
    private readonly log: Logger,
  ) {}

  async tell(r: Rollout, event: string, p: { actor: string | null; detail: string; production?: { modelId: string; deploymentId: string; versionId?: string | null } }): Promise<void> {
    if (!this.registry) return;
    try {
      const version = r.versionId ? await this.registry.getVersion(r.versionId) : await this.registry.versionOfModel(r.candidateModelId);
      if (p.production) {
        const serving = p.production.versionId ? await this.registry.getVersion(p.production.versionId) : await this.registry.versionOfModel(p.production.modelId);
        if (serving && serving.stage !== 'production') await this.registry.markProduction(p.actor, serving.id, p.production.deploymentId);
      }
      if (!version) return;
      await this.registry.recordEvent(
        r.projectId,
        version.registeredModelId,
        `rollout_${event}`,
        { rollout_id: r.id, kind: r.kind, version: version.version, version_id: version.id, deployment_id: r.deploymentId, candidate_deployment_id: r.candidateDeploymentId, detail: p.detail },
        p.actor,
      );
    } catch (err) {
      this.log.warn({ err: (err as Error).message, rollout: r.id, event }, 'the registry was not told of a rollout event');
    }
  }
}
