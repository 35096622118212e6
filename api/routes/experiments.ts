import { z } from 'zod';
import { ALGOS, CONFIG_DEFAULTS, CONFIG_LIMITS, DISTRIBUTIONS, SORT_METRICS, STOPPING_METRICS } from '../../engine/automl';
import { callerId, type RouteDeps } from '../context';
import { presentExperiment } from '../presenters/experiment';
import { capabilitiesSchema, experimentDetailSchema, experimentExplainSchema, experimentLogsSchema, experimentSchema, experimentStatusSchema } from '../presenters/experiment.schema';
import { pageOf } from '../presenters/page.schema';
import { presentJob } from '../presenters/job';
import { modelArtifactLinks, presentModelSummary } from '../presenters/model';
import { experimentNotebook } from '../presenters/notebook';
import { route, RouteDef } from '../route';
import { bestModelBody, createExperimentBody, experimentListQuery, experimentLogsQuery, experimentParams } from './experiments.schema';

/** AutoML experiments: creation (an `automl_train` job), progress, logs, leaderboard, explanations. */
export function experimentRoutes({ services, config }: RouteDeps): RouteDef[] {
  const { experiments, jobs } = services;
  const tag = 'experiments';

  return [
    route({
      method: 'post',
      path: '/api/experiments',
      tag,
      auth: 'user',
      scope: 'write:experiments',
      rateLimit: 'train',
      summary:
        'Start AutoML on a dataset version (an `automl_train` job); answers at once. `config.max_models` (default 20) is capped by the plan of the caller (`max_models` of `GET /api/auth/plan`; the built-in plan takes MAX_MODELS_PER_EXPERIMENT): a larger value is a 422 naming the cap, an omitted one defaults to min(20, cap). `max_models` counts the base models the run trains; the stacked ensembles (StackedEnsemble_AllModels, and StackedEnsemble_BestOfFamily when it differs) are trained on top of them, so a plan with `max_models: 3` gives at most 3 base models plus up to 2 ensembles. Starting it counts against the plan `max_concurrent_jobs` (429 past it)',
      body: createExperimentBody,
      responses: {
        201: { description: '{id, experiment_id, job_id, status: queued}', schema: z.object({ id: z.string(), experiment_id: z.string(), job_id: z.string(), status: z.string() }) },
        403: { description: 'Storage quota reached (max_storage_bytes, max_storage_bytes_per_project)' },
        429: { description: 'Too many open jobs (max_open_jobs, max_open_jobs_per_project of the plan); see Retry-After' },
        422: {
          description:
            'target_column not found in dataset, Invalid problem_type, or a config key (max_models above the account quota among them; config.ignored_columns naming an unknown column, a repeated one, the target, or every feature)',
        },
      },
      handler: async (ctx, { body }) => {
        const { experiment, jobId } = await experiments.create(callerId(ctx), body);
        ctx.status = 201;
        return { id: experiment.id, experiment_id: experiment.id, job_id: jobId, status: 'queued' };
      },
    }),
    route({
      method: 'get',
      path: '/api/experiments',
      tag,
      auth: 'user',
      scope: 'read:experiments',
      summary: 'Experiments, filtered by project, dataset or status; search on name and target column',
      query: experimentListQuery,
      responses: { 200: { description: 'List envelope of experiments', schema: pageOf(experimentSchema) } },
      handler: async (ctx, { query }) => {
        const page = await experiments.list(callerId(ctx), query);
        return { ...page, items: page.items.map(presentExperiment) };
      },
    }),
    route({
      method: 'get',
      path: '/api/experiments/automl-engines',
      tag,
      auth: 'user',
      scope: 'read:experiments',
      summary: 'The AutoML engines this service runs',
      responses: { 200: { description: '{engines}' } },
      handler: async () => ({
        engines: [{ id: 'native', name: 'Native TypeScript AutoML', default: true, algorithms: ALGOS, available_algorithms: ALGOS, serving: 'onnxruntime' }],
      }),
    }),
    route({
      method: 'get',
      path: '/api/experiments/capabilities',
      tag,
      auth: 'user',
      scope: 'read:experiments',
      summary: 'Problem types, metrics, algorithms and config keys with their defaults',
      responses: { 200: { description: 'capabilities', schema: capabilitiesSchema } },
      handler: async (ctx) => {
        // The caller's plan caps max_models and max_runtime_secs (services/plans.ts).
        const { max_models: maxModelsCap, max_runtime_secs: maxRuntimeSecsCap } = (await services.plans.of(callerId(ctx))).limits;
        // The keys a user sets; the rest are advanced (per-model budget, exploitation, distribution).
        const { max_runtime_secs_per_model: _perModel, exploitation_ratio: _exploitation, distribution: _distribution, ...configDefaults } = CONFIG_DEFAULTS;
        return {
          problem_types: ['classification', 'regression', 'binary', 'multiclass'],
          algorithms: ALGOS,
          sort_metrics: SORT_METRICS,
          stopping_metrics: STOPPING_METRICS,
          distributions: DISTRIBUTIONS,
          config_defaults: { ...configDefaults, max_models: Math.min(configDefaults.max_models, maxModelsCap), ignored_columns: [] },
          limits: { max_models_cap: maxModelsCap, max_runtime_secs_max: maxRuntimeSecsCap, nfolds_max: CONFIG_LIMITS.nfolds_max },
          gpu: { queue: config.taskQueues.gpu, workers_polling: await jobs.queuePollers('gpu'), fallback_after_secs: config.temporal.gpuScheduleToStartSecs },
        };
      },
    }),
    route({
      method: 'get',
      path: '/api/experiments/:experiment_id',
      tag,
      auth: 'user',
      scope: 'read:experiments',
      summary: 'An experiment with its leaderboard',
      params: experimentParams,
      responses: { 200: { description: '{experiment, models, artifact_links, best_model_id}', schema: experimentDetailSchema }, 404: { description: 'Experiment not found' } },
      handler: async (ctx, { params }) => {
        const { experiment, summary, leaderboard } = await experiments.detail(callerId(ctx), params.experiment_id);
        return {
          experiment: presentExperiment(summary),
          models: leaderboard.map((m, i) => ({ ...presentModelSummary(m), rank: i + 1 })),
          artifact_links: leaderboard.flatMap(modelArtifactLinks),
          best_model_id: experiment.bestModelId,
        };
      },
    }),
    route({
      method: 'get',
      path: '/api/experiments/:experiment_id/status',
      tag,
      auth: 'user',
      scope: 'read:experiments',
      summary: 'Status and live progress (models done, current algorithm, elapsed vs budget)',
      params: experimentParams,
      responses: { 200: { description: '{experiment_id, status, progress}', schema: experimentStatusSchema } },
      handler: async (ctx, { params }) => {
        const { experiment, progress } = await experiments.status(callerId(ctx), params.experiment_id);
        return { experiment_id: experiment.id, status: experiment.status, progress, job_id: experiment.jobId, error: experiment.error };
      },
    }),
    route({
      method: 'get',
      path: '/api/experiments/:experiment_id/logs',
      tag,
      auth: 'user',
      scope: 'read:experiments',
      summary: 'Experiment log lines; include_h2o_logs toggles the detailed engine event log',
      params: experimentParams,
      query: experimentLogsQuery,
      responses: { 200: { description: '{experiment_id, logs, count}', schema: experimentLogsSchema } },
      handler: async (ctx, { params, query }) => {
        const { experiment, lines } = await experiments.logs(callerId(ctx), params.experiment_id, query.include_h2o_logs);
        return { experiment_id: experiment.id, logs: lines, count: lines.length };
      },
    }),
    route({
      method: 'get',
      path: '/api/experiments/:experiment_id/logs/download',
      tag,
      auth: 'user',
      scope: 'read:experiments',
      summary: 'The full log as a text file',
      params: experimentParams,
      responses: { 200: { description: 'text/plain', contentType: 'text/plain' } },
      handler: async (ctx, { params }) => {
        const { experiment, lines } = await experiments.logs(callerId(ctx), params.experiment_id, true);
        ctx.type = 'text/plain; charset=utf-8';
        ctx.attachment(`experiment-${experiment.id}.log`);
        return lines.join('\n') + '\n';
      },
    }),
    route({
      method: 'get',
      path: '/api/experiments/:experiment_id/engine-runs',
      tag,
      auth: 'user',
      scope: 'read:experiments',
      summary: 'The training jobs (workflow runs) of an experiment',
      params: experimentParams,
      responses: { 200: { description: '{experiment_id, runs}' } },
      handler: async (ctx, { params }) => {
        const runs = await experiments.runs(callerId(ctx), params.experiment_id);
        return { experiment_id: runs.experiment.id, runs: runs.jobs.map((j) => presentJob(j, { temporal_ui_url: jobs.temporalUiUrl(j) })) };
      },
    }),
    route({
      method: 'get',
      path: '/api/experiments/:experiment_id/notebook',
      tag,
      auth: 'user',
      scope: 'read:experiments',
      summary: 'A Jupyter notebook that scores the best model with onnxruntime in Python (and through this API)',
      params: experimentParams,
      responses: { 200: { description: 'nbformat 4 JSON (an .ipynb attachment)' } },
      handler: async (ctx, { params }) => {
        const { experiment, columns, best } = await experiments.notebookInputs(callerId(ctx), params.experiment_id);
        ctx.set('Content-Disposition', `attachment; filename="experiment-${experiment.id}.ipynb"`);
        return experimentNotebook(experiment, config.appBaseUrl, columns, best);
      },
    }),
    route({
      method: 'get',
      path: '/api/experiments/:experiment_id/explain',
      tag,
      auth: 'user',
      scope: 'read:experiments',
      summary: 'Pareto front (metric vs training time) and the variable-importance heatmap across models',
      params: experimentParams,
      responses: { 200: { description: '{explain: {pareto_front, varimp_heatmap}}', schema: experimentExplainSchema } },
      handler: async (ctx, { params }) => {
        const e = await experiments.explain(callerId(ctx), params.experiment_id);
        // A model's metrics are numbers as training stored them (JSON null where one was not finite).
        const front = e.pareto_front.map((m) => ({ ...m, metric: m.metric as number | null | undefined }));
        return { explain: { sort_metric: e.sort_metric, pareto_front: { models: front }, varimp_heatmap: e.varimp_heatmap } };
      },
    }),
    route({
      method: 'post',
      path: '/api/experiments/:experiment_id/best-model',
      tag,
      auth: 'user',
      scope: 'write:experiments',
      summary: "Choose the experiment's best model by hand",
      params: experimentParams,
      body: bestModelBody,
      responses: { 200: { description: '{ok, experiment_id, best_model_id}' } },
      handler: async (ctx, { params, body }) => {
        await experiments.setBestModel(callerId(ctx), params.experiment_id, body.model_id);
        return { ok: true, experiment_id: params.experiment_id, best_model_id: body.model_id };
      },
    }),
    route({
      method: 'delete',
      path: '/api/experiments/:experiment_id',
      tag,
      auth: 'user',
      scope: 'write:experiments',
      summary: 'Delete an experiment and its models (a running one is canceled first)',
      params: experimentParams,
      responses: { 200: { description: '{ok}' } },
      handler: async (ctx, { params }) => {
        await experiments.delete(callerId(ctx), params.experiment_id);
        services.serving.forgetAccess();
        return { ok: true };
      },
    }),
  ];
}
