import { z } from 'zod';
import { ValidationError } from '../../services/errors';
import { callerId, type RouteDeps } from '../context';
import { jsonObject } from '../presenters/common.schema';
import { modelArtifactLinks, presentModel, presentModelExplain, presentModelListing } from '../presenters/model';
import { modelComparisonSchema, modelDetailSchema, modelExplainSchema, modelListItemSchema, predictionsSchema } from '../presenters/model.schema';
import { pageOf } from '../presenters/page.schema';
import { route, RouteDef } from '../route';
import { receiveUpload } from '../uploads';
import { batchPredictForm, modelCompareQuery, modelListQuery, modelParams, modelPredictBody, projectModelsParams } from './models.schema';

const MAX_BATCH_BYTES = 100 * 1024 * 1024;

/** Models: leaderboard queries, explanations, predictions served by ONNX Runtime. */
export function modelRoutes({ services, config }: RouteDeps): RouteDef[] {
  const { models, serving, billing } = services;
  const tag = 'models';

  return [
    route({
      method: 'get',
      path: '/api/models',
      tag,
      auth: 'user',
      scope: 'read:models',
      summary: "Models, filtered, searched and sorted by a column or a metric; each with its experiment's metric, dataset version and active deployment",
      query: modelListQuery,
      responses: { 200: { description: 'List envelope of models', schema: pageOf(modelListItemSchema) } },
      handler: async (ctx, { query }) => {
        const page = await models.list(callerId(ctx), query);
        return { ...page, items: page.items.map(presentModelListing) };
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:project_id/models/compare',
      tag,
      auth: 'user',
      scope: 'read:models',
      summary: 'Two to ten models of one project side by side: metrics, parameters (those that differ named), ROC and PR curves',
      params: projectModelsParams,
      query: modelCompareQuery,
      responses: {
        200: { description: '{project_id, models, metric_names, parameter_names, differing_parameters}', schema: modelComparisonSchema },
        404: { description: 'Project not found, or Model not found (a model of another project or user)' },
      },
      handler: (ctx, { params, query }) => models.compare(callerId(ctx), params.project_id, query.model_ids),
    }),
    route({
      method: 'get',
      path: '/api/models/:model_id',
      tag,
      auth: 'user',
      scope: 'read:models',
      summary: 'A model with its deployments and artifact links',
      params: modelParams,
      responses: { 200: { description: '{model, deployments, artifact_links, input_schema}', schema: modelDetailSchema }, 404: { description: 'Model not found' } },
      handler: async (ctx, { params }) => {
        const { named, inputSchema, deployments } = await models.detail(callerId(ctx), params.model_id);
        const names = named.experimentName === null ? {} : { experiment_name: named.experimentName, project_name: named.projectName ?? undefined };
        return { model: presentModel(named.model, names), deployments, artifact_links: modelArtifactLinks(named.model), input_schema: inputSchema };
      },
    }),
    route({
      method: 'get',
      path: '/api/models/:model_id/parameters',
      tag,
      auth: 'user',
      scope: 'read:models',
      summary: 'Training parameters: default and actual value of each',
      params: modelParams,
      responses: { 200: { description: '{parameters}', schema: z.object({ parameters: jsonObject }) } },
      handler: async (ctx, { params }) => ({ parameters: (await models.forUser(callerId(ctx), params.model_id)).parameters }),
    }),
    route({
      method: 'get',
      path: '/api/models/:model_id/explain',
      tag,
      auth: 'user',
      scope: 'read:models',
      summary: 'Variable importance, SHAP summary, confusion matrix, ROC curve, scoring history',
      params: modelParams,
      responses: { 200: { description: '{explain}', schema: z.object({ explain: modelExplainSchema }) } },
      handler: async (ctx, { params }) => ({ explain: presentModelExplain(await models.forUser(callerId(ctx), params.model_id)) }),
    }),
    route({
      method: 'post',
      path: '/api/models/:model_id/predict',
      tag,
      auth: 'user',
      scope: 'predict:models',
      rateLimit: 'predict',
      params: modelParams,
      summary:
        'Predict one row (object) or many (array) with ONNX Runtime; optional TreeSHAP contributions. A row sharing no column with the training schema is refused; keys that are not inputs are ignored and absent features scored as missing, both named in `warnings`',
      body: modelPredictBody,
      responses: {
        200: {
          description:
            '{predictions: [{prediction, probabilities}], contributions?, warnings?}; `warnings` ([{type: unknown_columns | missing_features, columns, rows, message}]) only when a row had keys that are not inputs of the model or lacked features',
          schema: predictionsSchema,
        },
        422: {
          description:
            'An input does not match the schema (the column is named), or a row shares no column with it: `Prediction failed: inputs must match the training schema; row N has none of its columns (expected: …)`',
        },
        500: { description: 'Prediction failed' },
      },
      handler: async (ctx, { params, body }) => {
        const m = await serving.modelFor(callerId(ctx), params.model_id);
        const rows = Array.isArray(body.inputs) ? body.inputs : [body.inputs];
        const t0 = process.hrtime.bigint();
        const out = await serving.predict(m, rows, { contributions: body.options.include_contributions });
        // Metered like a deployment's predictions (in memory, written in batches: services/billing/prediction-meter.ts).
        billing.predictions.countModel(callerId(ctx), m, rows.length);
        ctx.set('X-Service-Model-Cache', out.cache);
        ctx.set('Server-Timing', `predict;dur=${(Number(process.hrtime.bigint() - t0) / 1e6).toFixed(2)}`);
        return { predictions: out.predictions, ...(out.contributions ? { contributions: out.contributions } : {}), ...(out.warnings.length ? { warnings: out.warnings } : {}) };
      },
    }),
    route({
      method: 'post',
      path: '/api/models/:model_id/predict/batch',
      tag,
      auth: 'user',
      scope: 'predict:models',
      rateLimit: 'predict',
      params: modelParams,
      requestContentType: 'multipart/form-data',
      form: batchPredictForm,
      summary: 'Predict a CSV or Parquet file (up to 100 MB): input columns plus pred_predict and one probability column per class',
      responses: { 200: { description: '{row_count, predictions}' }, 413: { description: 'File over 100 MB' }, 422: { description: 'Unsupported file type' } },
      handler: async (ctx) => {
        const { model_id } = modelParams.parse(ctx.params);
        const m = await serving.modelFor(callerId(ctx), model_id);
        const upload = await receiveUpload(ctx, { tmpRoot: models.tmpRoot, maxFileBytes: MAX_BATCH_BYTES, idleTimeoutMs: config.limits.uploadIdleTimeoutMs });
        try {
          if (!upload.file) throw ValidationError.field(['body', 'file'], 'Field required', 'missing');
          const out = await models.predictFile(m, upload.file.path);
          billing.predictions.countModel(callerId(ctx), m, out.predictions.length);
          ctx.set('X-Service-Model-Cache', out.cache);
          return { row_count: out.predictions.length, predictions: out.predictions };
        } finally {
          upload.cleanup();
        }
      },
    }),
    route({
      method: 'delete',
      path: '/api/models/:model_id',
      tag,
      auth: 'user',
      scope: 'write:models',
      params: modelParams,
      summary: 'Delete a model and its files',
      responses: { 200: { description: '{ok}' } },
      handler: async (ctx, { params }) => {
        await models.delete(callerId(ctx), params.model_id);
        return { ok: true };
      },
    }),
  ];
}
