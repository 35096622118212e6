import { temporal } from '@temporalio/proto';
import { z } from 'zod';
import { DatasetVersion, Experiment, ExperimentLog, Job, Model } from '../../entities';
import { ALGOS, AutoMLConfig, compareByMetric, MAX_MODELS_CAP, metricKey, SORT_METRICS } from '../../engine/automl/driver';
import type { AppContext, AppDeps } from '../context';
import { notFound, unprocessable } from '../errors';
import { route, RouteDef } from '../route';
import { projectForUser } from '../services/access';
import { deleteModels, experimentForUser, validateExperimentRequest } from '../services/experiments';
import { JobService, presentJob } from '../services/jobs';
import { experimentNotebook } from '../services/notebook';
import { likePattern, listQuery, nonBlank, queryBool, uuidParam } from '../validation';
import { modelArtifactLinks } from './models';

const SORT = ['created_at', 'name', 'status'] as const;
const expParams = z.object({ experiment_id: uuidParam });

export function presentModelSummary(m: Model) {
  return { id: m.id, name: m.name, algo: m.algo, metrics: m.metrics, is_best: m.isBest, training_time_ms: m.trainingTimeMs, predict_time_per_row_ms: m.predictTimePerRowMs, created_at: m.createdAt };
}

/** AutoML experiments: creation (an `automl_train` job), progress, logs, leaderboard, explanations. */
export function experimentRoutes(deps: AppDeps): RouteDef[] {
  const { ds, store } = deps;
  const jobs = new JobService(ds, deps.temporal, deps.config, deps.log);
  const tag = 'experiments';
  const me = (ctx: AppContext) => ctx.state.principal!.user.id;

  const SELECT = `SELECT e.*, p.name AS project_name, d.name AS dataset_name, d.id AS dataset_id,
      (SELECT count(*)::int FROM models m WHERE m.experiment_id = e.id) AS model_count,
      (SELECT m.algo FROM models m WHERE m.id = e.best_model_id) AS best_model_algo
    FROM experiments e JOIN projects p ON p.id = e.project_id
    JOIN dataset_versions v ON v.id = e.dataset_version_id JOIN datasets d ON d.id = v.dataset_id
    WHERE e.project_id IN (SELECT pm.project_id FROM project_members pm WHERE pm.user_id = $1)`;

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- raw SQL rows
  const present = (r: any) => {
    const c = r.config as AutoMLConfig;
    return {
      id: r.id, name: r.name, project_id: r.project_id, dataset_version_id: r.dataset_version_id, dataset_id: r.dataset_id,
      target_column: r.target_column, problem_type: r.problem_type, problem_kind: r.problem_kind, status: r.status,
      max_runtime_secs: c.max_runtime_secs, max_models: c.max_models, sort_metric: c.sort_metric, config: c, use_gpu: r.use_gpu,
      project_name: r.project_name, dataset_name: r.dataset_name, model_count: Number(r.model_count), best_model_id: r.best_model_id,
      best_model_algo: r.best_model_algo, job_id: r.job_id, error: r.error, progress: r.progress,
      created_at: new Date(r.created_at).toISOString(), started_at: r.started_at, finished_at: r.finished_at,
    };
  };

  async function summary(userId: string, id: string) {
    const rows = await ds.query(`${SELECT} AND e.id = $2`, [userId, id]);
    if (!rows[0]) throw notFound('Experiment not found');
    return present(rows[0]);
  }

  async function leaderboard(exp: Experiment): Promise<Model[]> {
    const models = await ds.getRepository(Model).findBy({ experimentId: exp.id });
    const cmp = compareByMetric((exp.config as AutoMLConfig).sort_metric);
    return models.sort((a, b) => cmp(a.metrics, b.metrics) || a.sequence - b.sequence);
  }

  return [
    route({
      method: 'post', path: '/api/experiments', tag, auth: 'user', scope: 'write:experiments', rateLimit: 'train',
      summary: 'Start AutoML on a dataset version (an `automl_train` job); answers at once',
      body: z.object({
        project_id: uuidParam,
        dataset_version_id: uuidParam,
        name: nonBlank(200),
        target_column: z.string().min(1).max(500),
        problem_type: z.string().max(50),
        config: z.record(z.string(), z.unknown()).optional(),
        use_gpu: z.boolean().default(false),
      }),
      responses: { 201: { description: '{id, experiment_id, job_id, status: queued}' }, 422: { description: 'target_column not found in dataset, Invalid problem_type, or a config key' } },
      handler: async (ctx, { body }) => {
        const userId = me(ctx);
        await projectForUser(ds.manager, userId, body.project_id, 'editor');
        const v = await validateExperimentRequest(ds, store, body);
        const { exp, job } = await ds.transaction(async (em) => {
          const exp = em.getRepository(Experiment).create({
            projectId: body.project_id, datasetVersionId: v.version.id, name: body.name, targetColumn: body.target_column,
            problemType: v.problemType, problemKind: v.kind, status: 'queued', config: v.config, useGpu: body.use_gpu,
            jobId: null, bestModelId: null, error: null, progress: {}, createdBy: userId, startedAt: null, finishedAt: null,
          });
          await em.getRepository(Experiment).insert(exp);
          const job = await jobs.create(em, {
            kind: 'automl_train', projectId: body.project_id, entityId: exp.id, createdBy: userId,
            input: { experimentId: exp.id, useGpu: body.use_gpu, gpuScheduleToStartSecs: deps.config.temporal.gpuScheduleToStartSecs },
          });
          await em.getRepository(Experiment).update({ id: exp.id }, { jobId: job.id });
          await em.getRepository(ExperimentLog).insert({ experimentId: exp.id, source: 'service', level: 'info', message: `experiment queued: ${v.kind} on ${body.target_column}, sort metric ${v.config.sort_metric}, budget ${v.config.max_runtime_secs}s / ${v.config.max_models} models` });
          return { exp, job };
        });
        await jobs.start(job);
        ctx.status = 201;
        return { id: exp.id, experiment_id: exp.id, job_id: job.id, status: 'queued' };
      },
    }),
    route({
      method: 'get', path: '/api/experiments', tag, auth: 'user', scope: 'read:experiments',
      summary: 'Experiments, filtered by project, dataset or status; search on name and target column',
      query: listQuery(SORT).extend({ project_id: uuidParam.optional(), dataset_id: uuidParam.optional(), status: z.enum(['queued', 'running', 'succeeded', 'failed', 'canceled']).optional() }),
      responses: { 200: { description: 'List envelope of experiments' } },
      handler: async (ctx, { query }) => {
        const params: unknown[] = [me(ctx)];
        let where = '';
        const add = (sql: string, v: unknown) => {
          params.push(v);
          where += ` AND ${sql.replace('?', `$${params.length}`)}`;
        };
        if (query.project_id) add('e.project_id = ?', query.project_id);
        if (query.dataset_id) add('d.id = ?', query.dataset_id);
        if (query.status) add('e.status = ?', query.status);
        if (query.search) {
          params.push(likePattern(query.search));
          where += ` AND (e.name ILIKE $${params.length} OR e.target_column ILIKE $${params.length})`;
        }
        const order = { created_at: 'created_at', name: 'lower(name)', status: 'status' }[query.sort_field];
        const dir = query.sort_direction === 'asc' ? 'ASC' : 'DESC';
        const rows = await ds.query(`SELECT * FROM (${SELECT}${where}) x ORDER BY ${order} ${dir}, id ${dir} LIMIT ${query.limit} OFFSET ${query.offset}`, params);
        const [{ total }] = await ds.query(`SELECT count(*)::int AS total FROM (${SELECT}${where}) x`, params);
        return { items: rows.map(present), total, limit: query.limit, offset: query.offset };
      },
    }),
    route({
      method: 'get', path: '/api/experiments/automl-engines', tag, auth: 'user', scope: 'read:experiments',
      summary: 'The AutoML engines this service runs',
      responses: { 200: { description: '{engines}' } },
      handler: async () => ({
        engines: [{ id: 'native', name: 'Native TypeScript AutoML', default: true, algorithms: ALGOS, available_algorithms: ALGOS, serving: 'onnxruntime' }],
      }),
    }),
    route({
      method: 'get', path: '/api/experiments/capabilities', tag, auth: 'user', scope: 'read:experiments',
      summary: 'Problem types, metrics, algorithms and config keys with their defaults',
      responses: { 200: { description: 'capabilities' } },
      handler: async () => ({
        problem_types: ['classification', 'regression', 'binary', 'multiclass'],
        algorithms: ALGOS,
        sort_metrics: SORT_METRICS,
        stopping_metrics: ['AUTO', 'deviance', 'logloss', 'RMSE', 'AUC'],
        distributions: ['gaussian', 'poisson', 'gamma', 'tweedie', 'huber', 'quantile', 'laplace'],
        config_defaults: { max_runtime_secs: 3600, max_models: 20, sort_metric: 'AUTO', seed: 42, balance_classes: false, exclude_algos: [], nfolds: 5, stopping_rounds: 3, stopping_metric: 'AUTO', stopping_tolerance: 0.001, keep_cross_validation_predictions: true, keep_cross_validation_models: false, verbosity: 'info' },
        limits: { max_models_cap: MAX_MODELS_CAP, max_runtime_secs_max: 7 * 86_400, nfolds_max: 20 },
        gpu: { queue: deps.config.taskQueues.gpu, workers_polling: await gpuPollers(), fallback_after_secs: deps.config.temporal.gpuScheduleToStartSecs },
      }),
    }),
    route({
      method: 'get', path: '/api/experiments/:experiment_id', tag, auth: 'user', scope: 'read:experiments',
      summary: 'An experiment with its leaderboard', params: expParams,
      responses: { 200: { description: '{experiment, models, artifact_links, best_model_id}' }, 404: { description: 'Experiment not found' } },
      handler: async (ctx, { params }) => {
        const exp = await experimentForUser(ds, me(ctx), params.experiment_id);
        const experiment = await summary(me(ctx), exp.id);
        const models = await leaderboard(exp);
        return {
          experiment,
          models: models.map((m, i) => ({ ...presentModelSummary(m), rank: i + 1 })),
          artifact_links: models.flatMap(modelArtifactLinks),
          best_model_id: exp.bestModelId,
        };
      },
    }),
    route({
      method: 'get', path: '/api/experiments/:experiment_id/status', tag, auth: 'user', scope: 'read:experiments',
      summary: 'Status and live progress (models done, current algorithm, elapsed vs budget)', params: expParams,
      responses: { 200: { description: '{experiment_id, status, progress}' } },
      handler: async (ctx, { params }) => {
        const exp = await experimentForUser(ds, me(ctx), params.experiment_id);
        const job = exp.jobId ? await ds.getRepository(Job).findOneBy({ id: exp.jobId }) : null;
        const started = exp.startedAt?.getTime();
        const end = exp.finishedAt?.getTime() ?? Date.now();
        const progress = { ...exp.progress, elapsed_secs: started ? Math.round((end - started) / 1000) : 0, budget_secs: (exp.config as AutoMLConfig).max_runtime_secs, percent: job?.progress ?? 0 };
        return { experiment_id: exp.id, status: exp.status, progress, job_id: exp.jobId, error: exp.error };
      },
    }),
    route({
      method: 'get', path: '/api/experiments/:experiment_id/logs', tag, auth: 'user', scope: 'read:experiments',
      summary: 'Experiment log lines; include_h2o_logs toggles the detailed engine event log', params: expParams,
      query: z.object({ include_h2o_logs: queryBool.default(true) }),
      responses: { 200: { description: '{experiment_id, logs, count}' } },
      handler: async (ctx, { params, query }) => {
        const exp = await experimentForUser(ds, me(ctx), params.experiment_id);
        const logs = await experimentLog(exp.id, query.include_h2o_logs);
        return { experiment_id: exp.id, logs, count: logs.length };
      },
    }),
    route({
      method: 'get', path: '/api/experiments/:experiment_id/logs/download', tag, auth: 'user', scope: 'read:experiments',
      summary: 'The full log as a text file', params: expParams,
      responses: { 200: { description: 'text/plain', contentType: 'text/plain' } },
      handler: async (ctx, { params }) => {
        const exp = await experimentForUser(ds, me(ctx), params.experiment_id);
        ctx.type = 'text/plain; charset=utf-8';
        ctx.attachment(`experiment-${exp.id}.log`);
        return (await experimentLog(exp.id, true)).join('\n') + '\n';
      },
    }),
    route({
      method: 'get', path: '/api/experiments/:experiment_id/engine-runs', tag, auth: 'user', scope: 'read:experiments',
      summary: 'The training jobs (workflow runs) of an experiment', params: expParams,
      responses: { 200: { description: '{experiment_id, runs}' } },
      handler: async (ctx, { params }) => {
        const exp = await experimentForUser(ds, me(ctx), params.experiment_id);
        const runs = await ds.getRepository(Job).find({ where: { entityId: exp.id, kind: 'automl_train' }, order: { createdAt: 'ASC' } });
        return { experiment_id: exp.id, runs: runs.map((j) => presentJob(j, { temporal_ui_url: jobs.temporalUiUrl(j) })) };
      },
    }),
    route({
      method: 'get', path: '/api/experiments/:experiment_id/notebook', tag, auth: 'user', scope: 'read:experiments',
      summary: 'A Jupyter notebook that scores the best model with onnxruntime in Python (and through this API)', params: expParams,
      responses: { 200: { description: 'nbformat 4 JSON (an .ipynb attachment)' } },
      handler: async (ctx, { params }) => {
        const exp = await experimentForUser(ds, me(ctx), params.experiment_id);
        const version = await ds.getRepository(DatasetVersion).findOneBy({ id: exp.datasetVersionId });
        ctx.set('Content-Disposition', `attachment; filename="experiment-${exp.id}.ipynb"`);
        const best = exp.bestModelId ? await ds.getRepository(Model).findOneBy({ id: exp.bestModelId }) : null;
        return experimentNotebook(exp, deps.config.appBaseUrl, version?.columns ?? [], best);
      },
    }),
    route({
      method: 'get', path: '/api/experiments/:experiment_id/explain', tag, auth: 'user', scope: 'read:experiments',
      summary: 'Pareto front (metric vs training time) and the variable-importance heatmap across models', params: expParams,
      responses: { 200: { description: '{explain: {pareto_front, varimp_heatmap}}' } },
      handler: async (ctx, { params }) => {
        const exp = await experimentForUser(ds, me(ctx), params.experiment_id);
        const models = await leaderboard(exp);
        const sortMetric = (exp.config as AutoMLConfig).sort_metric;
        const key = metricKey(sortMetric);
        const cmp = compareByMetric(sortMetric);
        // A model is on the front when no faster-or-equal model has a better metric.
        const front = models.filter((m) => !models.some((o) => o !== m && o.trainingTimeMs <= m.trainingTimeMs && cmp(o.metrics, m.metrics) < 0));
        const features = [...new Set(models.flatMap((m) => ((m.explain.variable_importance ?? []) as { variable: string }[]).map((v) => v.variable)))];
        const matrix = models.map((m) => {
          const vi = new Map(((m.explain.variable_importance ?? []) as { variable: string; scaled_importance: number }[]).map((v) => [v.variable, v.scaled_importance]));
          return features.map((f) => vi.get(f) ?? 0);
        });
        return {
          explain: {
            sort_metric: sortMetric,
            pareto_front: { models: front.sort((a, b) => a.trainingTimeMs - b.trainingTimeMs).map((m) => ({ id: m.id, name: m.name, algo: m.algo, metric: m.metrics[key], training_time: m.trainingTimeMs / 1000 })) },
            varimp_heatmap: { models: models.map((m) => m.name), features, matrix },
          },
        };
      },
    }),
    route({
      method: 'post', path: '/api/experiments/:experiment_id/best-model', tag, auth: 'user', scope: 'write:experiments',
      summary: 'Choose the experiment\'s best model by hand', params: expParams, body: z.object({ model_id: uuidParam }),
      responses: { 200: { description: '{ok, experiment_id, best_model_id}' } },
      handler: async (ctx, { params, body }) => {
        const exp = await experimentForUser(ds, me(ctx), params.experiment_id, 'editor');
        const model = await ds.getRepository(Model).findOneBy({ id: body.model_id, experimentId: exp.id });
        if (!model) throw unprocessable([{ loc: ['body', 'model_id'], msg: 'model_id must belong to the experiment', type: 'value_error' }]);
        await ds.transaction(async (em) => {
          await em.getRepository(Model).update({ experimentId: exp.id }, { isBest: false });
          await em.getRepository(Model).update({ id: model.id }, { isBest: true });
          await em.getRepository(Experiment).update({ id: exp.id }, { bestModelId: model.id });
        });
        return { ok: true, experiment_id: exp.id, best_model_id: model.id };
      },
    }),
    route({
      method: 'delete', path: '/api/experiments/:experiment_id', tag, auth: 'user', scope: 'write:experiments',
      summary: 'Delete an experiment and its models (a running one is canceled first)', params: expParams,
      responses: { 200: { description: '{ok}' } },
      handler: async (ctx, { params }) => {
        const exp = await experimentForUser(ds, me(ctx), params.experiment_id, 'editor');
        const job = exp.jobId ? await ds.getRepository(Job).findOneBy({ id: exp.jobId }) : null;
        if (job && ['queued', 'running'].includes(job.status)) await jobs.cancel(job).catch(() => undefined);
        await deleteModels(ds, store, { experimentId: exp.id });
        await ds.getRepository(Experiment).delete({ id: exp.id });
        deps.serving?.forgetAccess();
        return { ok: true };
      },
    }),
  ];

  /** Workers polling the GPU queue right now (null when Temporal cannot be asked). */
  async function gpuPollers(): Promise<number | null> {
    try {
      const client = await deps.temporal.get();
      const r = await client.workflowService.describeTaskQueue({
        namespace: deps.config.temporal.namespace,
        taskQueue: { name: deps.config.taskQueues.gpu },
        taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
      });
      return r.pollers?.length ?? 0;
    } catch {
      return null;
    }
  }

  async function experimentLog(experimentId: string, includeEngine: boolean): Promise<string[]> {
    const qb = ds.getRepository(ExperimentLog).createQueryBuilder('l').where('l.experiment_id = :id', { id: experimentId });
    if (!includeEngine) qb.andWhere("l.source = 'service'");
    const rows = await qb.orderBy('l.id', 'ASC').getMany();
    return rows.map((r) => `${r.createdAt.toISOString()} ${r.level.toUpperCase()} [${r.source}] ${r.message}`);
  }
}
