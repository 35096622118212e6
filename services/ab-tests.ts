import { In, type DataSource } from 'typeorm';
import { AbConclusion, AbMetric, AbTest, AbTestState, AbVariant, Deployment } from '../entities';
import type { Access } from './access';
import { assignVariant } from './ab-assignment';
import { AbStats, readAbStats } from './ab-test-stats';
import type { DeploymentPrediction } from './deployment-predictions';
import type { RoutedRequest } from './deployment-routing';
import type { DeploymentService } from './deployments';
import { ConflictError, FieldIssue, NotFoundError, ValidationError } from './errors';
import type { Page, PageQuery } from './lists';

export interface AbTestFields {
  name: string;
  description: string;
  variants: AbVariant[];
  primary_metric: AbMetric;
  alpha: number;
  min_samples: number;
}

export type NewAbTest = AbTestFields & { project_id: string };

export interface AbOutcomeItem {
  request_id: string;
  value: number;
}

export interface AbOutcomeResult {
  accepted: number;
  updated: number;
  unknown_request_ids: string[];
}

/** A predict request routed by a test: the variant its key falls on and what serves it. */
export interface AbRouted {
  test: AbTest;
  variant: AbVariant;
  routed: RoutedRequest;
}

const NOT_RUNNING = 'A/B test is not running';

/**
 * A/B tests: variants (deployments of one project) with weights, sticky assignment of predict requests by a key,
 * outcomes by request id, and a sequential test read on demand ({@link readAbStats}). States: draft → running →
 * concluded. A running test concludes on the first read or outcome after a boundary is crossed with min_samples met
 * (or when stopped); its conclusion is then fixed, while the statistics keep counting what still arrives.
 */
export class AbTestService {
  constructor(
    private readonly ds: DataSource,
    private readonly access: Access,
    private readonly deployments: DeploymentService,
  ) {}

  async create(userId: string, p: NewAbTest): Promise<AbTest> {
    await this.access.project(userId, p.project_id, 'editor');
    await this.checkVariants(p.project_id, p.variants, p.primary_metric);
    const test = this.ds.getRepository(AbTest).create({
      projectId: p.project_id,
      name: p.name,
      description: p.description,
      state: 'draft',
      variants: p.variants,
      primaryMetric: p.primary_metric,
      alpha: p.alpha,
      minSamples: p.min_samples,
      conclusion: null,
      createdBy: userId,
      startedAt: null,
      concludedAt: null,
      promotedAt: null,
      promotedDeploymentId: null,
    });
    await this.ds.getRepository(AbTest).insert(test);
    return this.ds.getRepository(AbTest).findOneByOrFail({ id: test.id });
  }

  async list(userId: string, projectId: string, q: PageQuery & { state?: AbTestState }): Promise<Page<AbTest>> {
    await this.access.project(userId, projectId);
    const [items, total] = await this.ds.getRepository(AbTest).findAndCount({
      where: { projectId, ...(q.state ? { state: q.state } : {}) },
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: q.offset,
      take: q.limit,
    });
    return { items, total, limit: q.limit, offset: q.offset };
  }

  /** The test with its statistics as of now (a running test that has crossed its boundary concludes here). */
  async get(userId: string, id: string): Promise<{ test: AbTest; stats: AbStats }> {
    return this.withStats(await this.access.abTest(userId, id));
  }

  /** Changes a draft; what is not sent is kept. */
  async update(userId: string, id: string, p: Partial<AbTestFields>): Promise<{ test: AbTest; stats: AbStats }> {
    const test = await this.access.abTest(userId, id, 'editor');
    if (test.state !== 'draft') throw new ConflictError('Only a draft A/B test can be changed');
    const variants = p.variants ?? test.variants;
    const metric = p.primary_metric ?? test.primaryMetric;
    if (p.variants || p.primary_metric) await this.checkVariants(test.projectId, variants, metric);
    const changes = {
      ...(p.name !== undefined ? { name: p.name } : {}),
      ...(p.description !== undefined ? { description: p.description } : {}),
      ...(p.alpha !== undefined ? { alpha: p.alpha } : {}),
      ...(p.min_samples !== undefined ? { minSamples: p.min_samples } : {}),
      variants,
      primaryMetric: metric,
    };
    const r = await this.ds.getRepository(AbTest).update({ id, state: 'draft' }, changes);
    if (!r.affected) throw new ConflictError('Only a draft A/B test can be changed');
    return this.withStats(await this.ds.getRepository(AbTest).findOneByOrFail({ id }));
  }

  /** Drafts and concluded tests only: a running test is stopped first. */
  async remove(userId: string, id: string): Promise<void> {
    await this.access.abTest(userId, id, 'editor');
    const r = await this.ds.getRepository(AbTest).delete({ id, state: In(['draft', 'concluded']) });
    if (!r.affected) throw new ConflictError('A running A/B test cannot be deleted; stop it first');
  }

  /** draft → running, while every variant's deployment still serves. */
  async start(userId: string, id: string): Promise<{ test: AbTest; stats: AbStats }> {
    const test = await this.access.abTest(userId, id, 'editor');
    if (test.state !== 'draft') throw new ConflictError('A/B test is not a draft');
    const inactive = await this.inactiveVariants(test);
    if (inactive.length) throw new ConflictError(`The deployment of variant ${inactive.join(', ')} no longer serves`);
    const r = await this.ds.getRepository(AbTest).update({ id, state: 'draft' }, { state: 'running', startedAt: new Date() });
    if (!r.affected) throw new ConflictError('A/B test is not a draft');
    return this.withStats(await this.ds.getRepository(AbTest).findOneByOrFail({ id }));
  }

  /** running → concluded now: the winner if a boundary has been crossed, else none. */
  async stop(userId: string, id: string): Promise<{ test: AbTest; stats: AbStats }> {
    const test = await this.access.abTest(userId, id, 'editor');
    if (test.state !== 'running') throw new ConflictError(NOT_RUNNING);
    const { stats, result } = await readAbStats(this.ds, test);
    const decided = result.decision ? conclusionOf(test, result.decision) : null;
    const conclusion: AbConclusion = decided ?? { winner: null, against: null, effect: null, ci: null, p_value: null, reason: 'stopped', decided_at: new Date().toISOString() };
    if (!(await this.conclude(test, conclusion))) throw new ConflictError(NOT_RUNNING);
    return { test: await this.ds.getRepository(AbTest).findOneByOrFail({ id }), stats };
  }

  /** The winner's deployment becomes production through the stage machine (the previous production is archived). */
  async promote(userId: string, id: string): Promise<{ test: AbTest; stats: AbStats }> {
    const test = await this.access.abTest(userId, id, 'editor');
    if (test.state !== 'concluded') throw new ConflictError('A/B test is not concluded');
    const winner = test.variants.find((v) => v.name === test.conclusion?.winner);
    if (!winner) throw new ConflictError('A/B test has no winner to promote');
    if (test.promotedAt) throw new ConflictError("A/B test's winner is already promoted");
    const d = await this.ds.getRepository(Deployment).findOneBy({ id: winner.deployment_id });
    if (!d) throw new ConflictError(`The deployment of variant ${winner.name} no longer exists`);
    // A winner already serving production stays as it is; anything else moves (archived: the stage machine's 409).
    if (!(d.stage === 'production' && d.isActive)) await this.deployments.promote(userId, d.id, 'production', `A/B test ${test.name}: variant ${winner.name} won`);
    const r = await this.ds
      .createQueryBuilder()
      .update(AbTest)
      .set({ promotedAt: () => 'now()', promotedDeploymentId: d.id })
      .where('id = :id AND promoted_at IS NULL', { id })
      .execute();
    if (!r.affected) throw new ConflictError("A/B test's winner is already promoted");
    return this.withStats(await this.ds.getRepository(AbTest).findOneByOrFail({ id }));
  }

  /**
   * Which variant serves a predict request: the key (X-AB-Key, else the request id) hashed with the test's id over
   * the weights. The variant's deployment serves it itself (not its canary share), so its inference log and feedback
   * name the variant's model.
   */
  async route(userId: string, id: string, key: string): Promise<AbRouted> {
    const test = await this.access.abTest(userId, id);
    if (test.state !== 'running') throw new ConflictError(NOT_RUNNING);
    const variant = assignVariant(test.id, key, test.variants);
    let target;
    try {
      target = await this.deployments.target(userId, variant.deployment_id);
    } catch (err) {
      if (err instanceof NotFoundError) throw new ConflictError(`The deployment of variant ${variant.name} no longer serves`);
      throw err;
    }
    return { test, variant, routed: { requested: target.deployment, deployment: target.deployment, model: target.model } };
  }

  /**
   * Records an answered request as an exposure of its variant (a repeated request id keeps its first assignment).
   * Accuracy and log-loss tests keep the answer: labels, and class probabilities for log loss.
   */
  async recordAssignment(a: AbRouted, requestId: string, predictions: readonly DeploymentPrediction[]): Promise<void> {
    const labelled = a.test.primaryMetric === 'accuracy' || a.test.primaryMetric === 'log_loss';
    const probabilities = a.test.primaryMetric === 'log_loss' ? predictions.map((p) => p.probabilities ?? null) : null;
    await this.ds.query(
      `INSERT INTO ab_assignments (test_id, request_id, variant, deployment_id, predictions, probabilities) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (test_id, request_id) DO NOTHING`,
      [a.test.id, requestId, a.variant.name, a.variant.deployment_id, labelled ? JSON.stringify(predictions.map((p) => p.prediction)) : null, probabilities && JSON.stringify(probabilities)],
    );
  }

  /**
   * Business outcomes (conversion 0/1, revenue) of assigned requests, by request id; sending one again replaces it.
   * Ids the test never assigned are refused and listed. A running test past its boundary concludes here.
   */
  async recordOutcomes(userId: string, id: string, items: AbOutcomeItem[]): Promise<AbOutcomeResult> {
    const test = await this.access.abTest(userId, id);
    if (test.primaryMetric !== 'conversion' && test.primaryMetric !== 'revenue') {
      throw new ConflictError(`A ${test.primaryMetric} test is measured on the deployments' feedback (POST /api/mlops/deployments/{id}/feedback), not on outcomes`);
    }
    if (test.primaryMetric === 'conversion') {
      const issues: FieldIssue[] = items.flatMap((o, i) => (o.value === 0 || o.value === 1 ? [] : [{ loc: ['body', 'outcomes', i, 'value'], msg: 'A conversion is 0 or 1', type: 'value_error' }]));
      if (issues.length) throw new ValidationError(issues.slice(0, 20));
    }
    const byId = new Map<string, number>();
    for (const o of items) byId.set(o.request_id, o.value);
    const ids = [...byId.keys()];
    const rows: { request_id: string; updated: boolean }[] = await this.ds.query(
      `INSERT INTO ab_outcomes (test_id, request_id, value, received_at)
       SELECT $1, a.request_id, t.v, now() FROM unnest($2::text[], $3::float8[]) AS t(r, v)
         JOIN ab_assignments a ON a.test_id = $1 AND a.request_id = t.r
       ON CONFLICT (test_id, request_id) DO UPDATE SET value = EXCLUDED.value, received_at = EXCLUDED.received_at
       RETURNING request_id, (xmax <> 0) AS updated`,
      [test.id, ids, ids.map((k) => byId.get(k))],
    );
    const known = new Set(rows.map((r) => r.request_id));
    if (test.state === 'running') await this.withStats(test);
    return { accepted: rows.length, updated: rows.filter((r) => r.updated).length, unknown_request_ids: ids.filter((k) => !known.has(k)) };
  }

  /** The statistics now; a running test whose boundary is crossed concludes (once: the first writer wins). */
  private async withStats(test: AbTest): Promise<{ test: AbTest; stats: AbStats }> {
    const { stats, result } = await readAbStats(this.ds, test);
    if (test.state === 'running' && result.decision && (await this.conclude(test, conclusionOf(test, result.decision)))) {
      test = await this.ds.getRepository(AbTest).findOneByOrFail({ id: test.id });
    }
    return { test, stats };
  }

  private async conclude(test: AbTest, conclusion: AbConclusion): Promise<boolean> {
    const r = await this.ds.getRepository(AbTest).update({ id: test.id, state: 'running' }, { state: 'concluded', conclusion, concludedAt: new Date(conclusion.decided_at) });
    return !!r.affected;
  }

  /** Variants must name active deployments of the project; accuracy and log loss need classifiers. */
  private async checkVariants(projectId: string, variants: AbVariant[], metric: AbMetric): Promise<void> {
    const ids = [...new Set(variants.map((v) => v.deployment_id))];
    const rows: { id: string; project_id: string; is_active: boolean; problem_type: string | null }[] = await this.ds.query(
      `SELECT d.id, d.project_id, d.is_active, e.problem_type FROM deployments d
         LEFT JOIN models m ON m.id = d.model_id LEFT JOIN experiments e ON e.id = m.experiment_id
        WHERE d.id = ANY($1::uuid[])`,
      [ids],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    const issues: FieldIssue[] = [];
    variants.forEach((v, i) => {
      const d = byId.get(v.deployment_id);
      const loc = ['body', 'variants', i, 'deployment_id'];
      if (!d || d.project_id !== projectId || !d.is_active) issues.push({ loc, msg: 'deployment_id must be an active deployment of the project', type: 'value_error' });
      else if ((metric === 'accuracy' || metric === 'log_loss') && d.problem_type === 'regression') {
        issues.push({ loc, msg: `primary_metric ${metric} needs a classifier; this deployment serves a regression model`, type: 'value_error' });
      }
    });
    if (issues.length) throw new ValidationError(issues);
  }

  private async inactiveVariants(test: AbTest): Promise<string[]> {
    const active: { id: string }[] = await this.ds.query('SELECT id FROM deployments WHERE id = ANY($1::uuid[]) AND is_active', [test.variants.map((v) => v.deployment_id)]);
    const ids = new Set(active.map((r) => r.id));
    return test.variants.filter((v) => !ids.has(v.deployment_id)).map((v) => v.name);
  }
}

function conclusionOf(test: AbTest, d: { winner: number; against: number; effect: number; ciLow: number; ciHigh: number; pValue: number }): AbConclusion {
  return {
    winner: test.variants[d.winner].name,
    against: test.variants[d.against].name,
    effect: d.effect,
    ci: [d.ciLow, d.ciHigh],
    p_value: d.pValue,
    reason: 'significant',
    decided_at: new Date().toISOString(),
  };
}
