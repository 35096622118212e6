import type { DataSource } from 'typeorm';
import { Deployment, Model } from '../entities';
import { TtlCache } from '../platform/ttl-cache';
import { Access, DEPLOYMENT_NOT_FOUND } from './access';
import { NotFoundError } from './errors';

/** How long a resolved serving target is reused before the database is asked again. */
const TARGET_CACHE_MS = 5_000;

/**
 * What serves a predict request addressed to a deployment: the deployment and its model, and,
 * for a production deployment, the staging deployment of the project that takes a share of its
 * traffic (if any).
 */
export interface ServingTarget {
  deployment: Deployment;
  model: Model;
  canary: { deployment: Deployment; model: Model } | null;
  /** A shadow candidate (services/rollouts.ts): `samplePercent` of the requests are mirrored to it after the answer. */
  shadow: { deployment: Deployment; model: Model; samplePercent: number } | null;
}

/** What a rollout's candidate deployment carries in its `config` (written by activities/rollout/). */
export interface RolloutMark {
  rollout_id: string;
  role: 'canary' | 'blue_green' | 'shadow';
  /** The stable deployment. */
  of: string;
  sample_percent?: number;
}

/**
 * The serving cache: (user, deployment) → what serves it, for TARGET_CACHE_MS, so predict pays no
 * database round trip. Every transition made through this process forgets all entries at once
 * ({@link forget}); other API processes notice within TARGET_CACHE_MS.
 */
export class ServingTargets {
  private readonly cache = new TtlCache<string, ServingTarget>(TARGET_CACHE_MS);

  constructor(
    private readonly ds: DataSource,
    private readonly access: Access,
  ) {}

  /** An active deployment the user may use, from the cache. 404 `Deployment not found or inactive` otherwise. */
  get(userId: string, id: string): Promise<ServingTarget> {
    return this.cache.getOrLoad(`${userId}:${id}`, () => this.load(userId, id));
  }

  forget(): void {
    this.cache.clear();
  }

  private async load(userId: string, id: string): Promise<ServingTarget> {
    let deployment: Deployment;
    try {
      deployment = await this.access.deployment(userId, id);
    } catch (err) {
      if (err instanceof NotFoundError) throw new NotFoundError(DEPLOYMENT_NOT_FOUND);
      throw err;
    }
    if (!deployment.isActive) throw new NotFoundError(DEPLOYMENT_NOT_FOUND);
    const model = await this.ds.getRepository(Model).findOneByOrFail({ id: deployment.modelId });
    let canary: ServingTarget['canary'] = null;
    let shadow: ServingTarget['shadow'] = null;
    if (deployment.stage === 'production') {
      // The newest active staging deployment asking for a share (under 100%, or a canary rollout's candidate at any
      // share) takes it.
      const c = await this.ds
        .getRepository(Deployment)
        .createQueryBuilder('d')
        .where("d.project_id = :p AND d.stage = 'staging' AND d.is_active AND (d.traffic_percent < 100 OR d.config->'rollout'->>'role' = 'canary')", { p: deployment.projectId })
        .orderBy('d.created_at', 'DESC')
        .getOne();
      if (c) canary = { deployment: c, model: await this.ds.getRepository(Model).findOneByOrFail({ id: c.modelId }) };
      const s = await this.ds
        .getRepository(Deployment)
        .createQueryBuilder('d')
        .where("d.project_id = :p AND d.stage = 'staging' AND d.is_active AND d.config->'rollout'->>'role' = 'shadow' AND d.config->'rollout'->>'of' = :of", {
          p: deployment.projectId,
          of: deployment.id,
        })
        .orderBy('d.created_at', 'DESC')
        .getOne();
      if (s) {
        const mark = (s.config as { rollout?: RolloutMark }).rollout;
        shadow = { deployment: s, model: await this.ds.getRepository(Model).findOneByOrFail({ id: s.modelId }), samplePercent: mark?.sample_percent ?? 100 };
      }
    }
    return { deployment, model, canary, shadow };
  }
}
