import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { Model } from '../../entities';
import { ingestFile, preview, UnsupportedFileTypeError, DataValidationError } from '../../engine/data';
import { readParquetFrame } from '../../engine/automl/driver';
import type { AppContext, AppDeps } from '../context';
import { unprocessable } from '../errors';
import { route, RouteDef } from '../route';
import { deleteModels, modelForUser } from '../services/experiments';
import { ModelServing } from '../services/model-serving';
import { receiveUpload } from '../uploads';
import { intParam, likePattern, queryBool, uuidParam } from '../validation';

const modelParams = z.object({ model_id: uuidParam });
const SORT_METRICS = ['auc', 'rmse', 'mae', 'r2', 'logloss', 'accuracy', 'mse', 'mean_per_class_error'] as const;
const MAX_BATCH_BYTES = 100 * 1024 * 1024;
const MAX_INLINE_ROWS = 10_000;

export function presentModel(m: Model, extra: Record<string, unknown> = {}) {
  return {
    id: m.id, name: m.name, algo: m.algo, experiment_id: m.experimentId, project_id: m.projectId, artifact_id: m.artifactId, onnx_artifact_id: m.onnxArtifactId,
    is_best: m.isBest, is_production: m.isProduction, is_staging: m.isStaging, staging_deployment_id: m.stagingDeploymentId,
    metrics: m.metrics, training_time_ms: m.trainingTimeMs, predict_time_per_row_ms: m.predictTimePerRowMs, created_at: m.createdAt, ...extra,
  };
}

/** Where a model's native (JSON) artifact and ONNX file are downloaded. */
export function modelArtifactLinks(m: Model) {
  return [
    { artifact_id: m.artifactId, owner_type: 'model', owner_id: m.id, label: `${m.name} model (JSON)` },
    ...(m.onnxArtifactId ? [{ artifact_id: m.onnxArtifactId, owner_type: 'model', owner_id: m.id, label: `${m.name} ONNX` }] : []),
  ];
}

/** Models: leaderboard queries, explanations, predictions served by ONNX Runtime. */
export function modelRoutes(deps: AppDeps, serving: ModelServing): RouteDef[] {
  const { ds, store } = deps;
  const tag = 'models';
  const me = (ctx: AppContext) => ctx.state.principal!.user.id;
  const tmpRoot = path.join(deps.config.dataDir, 'tmp', 'predict');

  return [
    route({
      method: 'get', path: '/api/models', tag, auth: 'user', scope: 'read:models',
      summary: 'Models, filtered and sorted by a metric',
      query: z.object({
        project_id: uuidParam.optional(), experiment_id: uuidParam.optional(), model_type: z.string().max(50).optional(),
        is_best: queryBool.optional(), is_production: queryBool.optional(), is_staging: queryBool.optional(), search: z.string().max(200).optional(),
        limit: intParam(1, 500).default(50), offset: intParam(0).default(0),
        sort_metric: z.enum(SORT_METRICS).optional(), sort_dir: z.enum(['asc', 'desc']).default('desc'),
      }),
      responses: { 200: { description: 'List envelope of models' } },
      handler: async (ctx, { query }) => {
        const qb = ds
          .getRepository(Model)
          .createQueryBuilder('m')
          .innerJoin('experiments', 'e', 'e.id = m.experiment_id')
          .innerJoin('projects', 'p', 'p.id = m.project_id')
          .addSelect(['e.name AS experiment_name', 'p.name AS project_name'])
          .where('m.project_id IN (SELECT pm.project_id FROM project_members pm WHERE pm.user_id = :userId)', { userId: me(ctx) });
        if (query.project_id) qb.andWhere('m.project_id = :pid', { pid: query.project_id });
        if (query.experiment_id) qb.andWhere('m.experiment_id = :eid', { eid: query.experiment_id });
        if (query.model_type) qb.andWhere('lower(m.algo) = lower(:algo)', { algo: query.model_type });
        if (query.is_best !== undefined) qb.andWhere('m.is_best = :b', { b: query.is_best });
        if (query.is_production !== undefined) qb.andWhere('m.is_production = :pr', { pr: query.is_production });
        if (query.is_staging !== undefined) qb.andWhere('m.is_staging = :st', { st: query.is_staging });
        if (query.search) qb.andWhere('(m.name ILIKE :s OR e.name ILIKE :s)', { s: likePattern(query.search) });
        const dir = query.sort_dir === 'asc' ? 'ASC' : 'DESC';
        if (query.sort_metric) qb.orderBy(`(m.metrics->>'${query.sort_metric}')::double precision`, dir, 'NULLS LAST');
        else qb.orderBy('m.created_at', dir);
        qb.addOrderBy('m.id', dir);
        const total = await qb.getCount();
        const { entities, raw } = await qb.offset(query.offset).limit(query.limit).getRawAndEntities();
        return { items: entities.map((m, i) => presentModel(m, { experiment_name: raw[i]?.experiment_name, project_name: raw[i]?.project_name })), total, limit: query.limit, offset: query.offset };
      },
    }),
    route({
      method: 'get', path: '/api/models/:model_id', tag, auth: 'user', scope: 'read:models',
      summary: 'A model with its deployments and artifact links', params: modelParams,
      responses: { 200: { description: '{model, deployments, artifact_links}' }, 404: { description: 'Model not found' } },
      handler: async (ctx, { params }) => {
        const m = await modelForUser(ds, me(ctx), params.model_id);
        const [names] = await ds.query('SELECT e.name AS experiment_name, p.name AS project_name FROM experiments e JOIN projects p ON p.id = e.project_id WHERE e.id = $1', [m.experimentId]);
        return {
          model: presentModel(m, names ?? {}),
          deployments: [],
          artifact_links: modelArtifactLinks(m),
          input_schema: await serving.schema(m),
        };
      },
    }),
    route({
      method: 'get', path: '/api/models/:model_id/parameters', tag, auth: 'user', scope: 'read:models',
      summary: 'Training parameters: default and actual value of each', params: modelParams,
      responses: { 200: { description: '{parameters}' } },
      handler: async (ctx, { params }) => ({ parameters: (await modelForUser(ds, me(ctx), params.model_id)).parameters }),
    }),
    route({
      method: 'get', path: '/api/models/:model_id/explain', tag, auth: 'user', scope: 'read:models',
      summary: 'Variable importance, SHAP summary, confusion matrix, ROC curve, scoring history', params: modelParams,
      responses: { 200: { description: '{explain}' } },
      handler: async (ctx, { params }) => {
        const m = await modelForUser(ds, me(ctx), params.model_id);
        const vi = (m.explain.variable_importance ?? []) as { variable: string; percentage: number; scaled_importance: number }[];
        const history = (m.explain.scoring_history ?? []) as { number_of_trees: number; training: Record<string, number>; validation?: Record<string, number> }[];
        return {
          explain: {
            model_id: m.id,
            algo: m.algo,
            variable_importance: vi.map((v) => ({ variable: v.variable, percentage: v.percentage, scaled_importance: v.scaled_importance })),
            shap_summary: m.explain.shap_summary ?? null,
            confusion_matrix: m.metrics.confusion_matrix ?? null,
            roc_curve: m.explain.roc_curve ?? null,
            scoring_history: history.map((h) => ({
              number_of_trees: h.number_of_trees,
              timestamp: null,
              training_logloss: h.training.logloss ?? null,
              validation_logloss: h.validation?.logloss ?? null,
              training_rmse: h.training.rmse ?? null,
              validation_rmse: h.validation?.rmse ?? null,
            })),
          },
        };
      },
    }),
    route({
      method: 'post', path: '/api/models/:model_id/predict', tag, auth: 'user', scope: 'predict:models', rateLimit: 'predict', params: modelParams,
      summary: 'Predict one row (object) or many (array) with ONNX Runtime; optional TreeSHAP contributions',
      body: z.object({
        inputs: z.union([z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown())).min(1).max(MAX_INLINE_ROWS)]),
        options: z.object({ include_contributions: z.boolean().default(false) }).default({ include_contributions: false }),
      }),
      responses: { 200: { description: '{predictions: [{prediction, probabilities}], contributions}' }, 422: { description: 'An input does not match the schema (the column is named)' }, 500: { description: 'Prediction failed' } },
      handler: async (ctx, { params, body }) => {
        const m = await serving.modelFor(me(ctx), params.model_id);
        const rows = Array.isArray(body.inputs) ? body.inputs : [body.inputs];
        const t0 = process.hrtime.bigint();
        const out = await serving.predict(m, rows, { contributions: body.options.include_contributions });
        ctx.set('X-Service-Model-Cache', out.cache);
        ctx.set('Server-Timing', `predict;dur=${(Number(process.hrtime.bigint() - t0) / 1e6).toFixed(2)}`);
        return { predictions: out.predictions, ...(out.contributions ? { contributions: out.contributions } : {}) };
      },
    }),
    route({
      method: 'post', path: '/api/models/:model_id/predict/batch', tag, auth: 'user', scope: 'predict:models', rateLimit: 'predict', params: modelParams,
      requestContentType: 'multipart/form-data', form: z.object({ file: z.file() }),
      summary: 'Predict a CSV or Parquet file (up to 100 MB): input columns plus pred_predict and one probability column per class',
      responses: { 200: { description: '{row_count, predictions}' }, 413: { description: 'File over 100 MB' }, 422: { description: 'Unsupported file type' } },
      handler: async (ctx) => {
        const { model_id } = modelParams.parse(ctx.params);
        const m = await serving.modelFor(me(ctx), model_id);
        const upload = await receiveUpload(ctx, tmpRoot, MAX_BATCH_BYTES);
        const staging = path.join(tmpRoot, `batch-${Date.now()}-${Math.random().toString(16).slice(2)}`);
        try {
          if (!upload.file) throw unprocessable([{ loc: ['body', 'file'], msg: 'Field required', type: 'missing' }]);
          let parquet: string;
          try {
            parquet = (await ingestFile(upload.file.path, staging)).parquet_path;
          } catch (err) {
            if (err instanceof UnsupportedFileTypeError) throw unprocessable('Unsupported file type');
            if (err instanceof DataValidationError) throw unprocessable(err.message);
            throw err;
          }
          const frame = await readParquetFrame(parquet);
          const schema = await serving.schema(m);
          const missing = schema.filter((c) => !frame.names.includes(c.name)).map((c) => c.name);
          if (missing.length === schema.length) throw unprocessable(`The file has none of the model's input columns (${schema.map((c) => c.name).join(', ')})`);
          const out = await serving.predictFrame(m, null, frame);
          const rows = await preview(parquet, frame.nrows);
          const predictions = rows.map((r, i) => {
            const p = out.predictions[i];
            const row: Record<string, unknown> = { ...r, pred_predict: p.prediction };
            if (p.probabilities) for (const [label, v] of Object.entries(p.probabilities)) row[label] = v;
            return row;
          });
          ctx.set('X-Service-Model-Cache', out.cache);
          return { row_count: predictions.length, predictions };
        } finally {
          upload.cleanup();
          fs.rmSync(staging, { recursive: true, force: true });
        }
      },
    }),
    route({
      method: 'delete', path: '/api/models/:model_id', tag, auth: 'user', scope: 'write:models', params: modelParams,
      summary: 'Delete a model and its files', responses: { 200: { description: '{ok}' } },
      handler: async (ctx, { params }) => {
        const m = await modelForUser(ds, me(ctx), params.model_id, 'editor');
        await deleteModels(ds, store, { id: m.id });
        await ds.query('UPDATE experiments SET best_model_id = NULL WHERE best_model_id = $1', [m.id]);
        serving.forget(m.id);
        return { ok: true };
      },
    }),
  ];
}

