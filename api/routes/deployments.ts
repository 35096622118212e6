import { z } from 'zod';
import type { InputWarning } from '../../services/model-serving';
import { callerId, type RouteDeps } from '../context';
import { classifyError } from '../middleware/error-handler';
import { presentDeployment, presentDeploymentModel, presentDeploymentSummary, presentDriftResult, presentInferenceLog, presentTransition } from '../presenters/deployment';
import { deploymentModelSchema, deploymentSchema, deploymentSummarySchema, driftResultSchema, inferenceLogSchema, transitionSchema } from '../presenters/deployment.schema';
import { pageOf } from '../presenters/page.schema';
import { predictDocs } from '../predict-docs';
import { route, RouteDef } from '../route';
import { pageQuery, uuidParam } from '../validation';
import { deploymentPredictBody } from './deployment-predict.schema';
import {
  createDeploymentBody,
  deactivateBody,
  deploymentHistoryQuery,
  deploymentParams,
  inferenceLogsQuery,
  privacyBody,
  projectParams,
  promoteBody,
  rollbackBody,
  trafficQuery,
} from './deployments.schema';

/** Deployments (prefix /api/mlops): the stage machine and its history. */
export function deploymentRoutes({ services }: RouteDeps): RouteDef[] {
  const { deployments, inferenceLogs, drift, rollouts, billing } = services;
  const tag = 'deployments';

  return [
    route({
      method: 'post',
      path: '/api/mlops/projects/:project_id/deployments',
      tag,
      auth: 'user',
      scope: 'write:deployments',
      params: projectParams,
      summary: 'Deploy a model of the project in staging or production (a new production deployment archives the previous one)',
      body: createDeploymentBody,
      responses: {
        201: { description: '{id, deployment_id, stage, is_active}', schema: z.object({ id: z.string(), deployment_id: z.string(), stage: z.string(), is_active: z.boolean() }) },
        409: { description: 'Another production deployment was set at the same time' },
        422: { description: 'model_id must belong to project; a privacy_column_map key is not an input of the model or its value not a PII type of GET /api/privacy/pii-types (named)' },
      },
      handler: async (ctx, { params, body }) => {
        const d = await deployments.create(callerId(ctx), params.project_id, body);
        ctx.status = 201;
        return { id: d.id, deployment_id: d.id, stage: d.stage, is_active: d.isActive };
      },
    }),
    route({
      method: 'get',
      path: '/api/mlops/projects/:project_id/deployments',
      tag,
      auth: 'user',
      scope: 'read:deployments',
      params: projectParams,
      summary: "The project's deployments, newest first",
      query: pageQuery(200),
      responses: { 200: { description: 'List envelope of deployments', schema: pageOf(deploymentSummarySchema) } },
      handler: async (ctx, { params, query }) => {
        const page = await deployments.list(callerId(ctx), params.project_id, query);
        return { items: page.items.map((d) => presentDeploymentSummary(d, page.modelNames.get(d.modelId) ?? null)), total: page.total, limit: page.limit, offset: page.offset };
      },
    }),
    route({
      method: 'get',
      path: '/api/mlops/projects/:project_id/deployment-history',
      tag,
      auth: 'user',
      scope: 'read:deployments',
      params: projectParams,
      summary: "Every stage transition of the project's deployments; with `at`, which model served production then",
      query: deploymentHistoryQuery,
      responses: { 200: { description: 'List envelope of transitions, and `production_at` when `at` is given' } },
      handler: async (ctx, { params, query }) => {
        const h = await deployments.projectHistory(callerId(ctx), params.project_id, query);
        return {
          items: h.items.map((t) => presentTransition(t, h.modelNames.get(t.modelId) ?? null)),
          total: h.total,
          limit: h.limit,
          offset: h.offset,
          ...(h.servedAt === undefined ? {} : { production_at: h.servedAt }),
        };
      },
    }),
    route({
      method: 'get',
      path: '/api/mlops/deployments/:deployment_id',
      tag,
      auth: 'user',
      scope: 'read:deployments',
      params: deploymentParams,
      summary: 'A deployment and its model',
      responses: {
        200: { description: '{deployment, model}', schema: z.object({ deployment: deploymentSchema, model: deploymentModelSchema }) },
        404: { description: 'Deployment not found or inactive' },
      },
      handler: async (ctx, { params }) => {
        const { deployment, model } = await deployments.get(callerId(ctx), params.deployment_id);
        return { deployment: presentDeployment(deployment), model: presentDeploymentModel(model) };
      },
    }),
    route({
      method: 'post',
      path: '/api/mlops/deployments/:deployment_id/promote',
      tag,
      auth: 'user',
      scope: 'write:deployments',
      params: deploymentParams,
      summary: 'Promote a staging deployment to production (the previous production deployment is archived)',
      body: promoteBody,
      responses: {
        200: { description: '{ok, deployment_id, stage}' },
        409: { description: 'Already in production, archived, or another promote won' },
        422: { description: "to_stage must be 'production'" },
      },
      handler: async (ctx, { params, body }) => {
        const d = await deployments.promote(callerId(ctx), params.deployment_id, body.to_stage, body.reason);
        return { ok: true, deployment_id: d.id, stage: d.stage };
      },
    }),
    route({
      method: 'post',
      path: '/api/mlops/deployments/:deployment_id/rollback',
      tag,
      auth: 'user',
      scope: 'write:deployments',
      params: deploymentParams,
      summary: 'Return production to an archived deployment of the project, or to a model of the project (a new production deployment)',
      body: rollbackBody,
      responses: { 200: { description: '{ok, deployment_id}' }, 422: { description: 'Provide to_deployment_id or to_model_id' } },
      handler: async (ctx, { params, body }) => {
        const d = await deployments.rollback(callerId(ctx), params.deployment_id, body);
        return { ok: true, deployment_id: d.id };
      },
    }),
    route({
      method: 'post',
      path: '/api/mlops/deployments/:deployment_id/deactivate',
      tag,
      auth: 'user',
      scope: 'write:deployments',
      params: deploymentParams,
      summary: 'Stop serving: the deployment is archived, nothing replaces it',
      body: deactivateBody,
      responses: { 200: { description: '{ok}' } },
      handler: async (ctx, { params, body }) => {
        await deployments.deactivate(callerId(ctx), params.deployment_id, body.reason);
        return { ok: true };
      },
    }),
    route({
      method: 'get',
      path: '/api/mlops/deployments/:deployment_id/rollback-history',
      tag,
      auth: 'user',
      scope: 'read:deployments',
      params: deploymentParams,
      summary: "The deployment's stage transitions (who, when, from, to, model, reason), newest first",
      query: pageQuery(500),
      responses: { 200: { description: 'List envelope of transitions', schema: pageOf(transitionSchema) } },
      handler: async (ctx, { params, query }) => {
        const page = await deployments.transitions(callerId(ctx), params.deployment_id, query);
        return { items: page.items.map((t) => presentTransition(t, page.modelNames.get(t.modelId) ?? null)), total: page.total, limit: page.limit, offset: page.offset };
      },
    }),
    route({
      method: 'patch',
      path: '/api/mlops/deployments/:deployment_id/privacy',
      tag,
      auth: 'user',
      scope: 'write:deployments',
      params: deploymentParams,
      summary: 'Set privacy options (and store_payload); what is not sent is kept',
      body: privacyBody,
      responses: {
        200: { description: '{deployment}' },
        422: { description: 'A privacy_column_map key is not an input of the model, or its value not a PII type of GET /api/privacy/pii-types (named)' },
      },
      handler: async (ctx, { params, body }) => ({ deployment: presentDeployment(await deployments.updatePrivacy(callerId(ctx), params.deployment_id, body)) }),
    }),
    route({
      method: 'post',
      path: '/api/mlops/deployments/:deployment_id/predict',
      tag,
      auth: 'user',
      scope: 'predict:deployments',
      rateLimit: 'predict',
      params: deploymentParams,
      summary:
        'Predict one row (object) or many (array) with the deployed model; every request is logged (inputs only with store_payload: the input columns of the model). A row sharing no column with the training schema is refused; keys that are not inputs are ignored and absent features scored as missing, both named in `warnings`',
      body: deploymentPredictBody,
      responses: {
        200: {
          description:
            '{predictions: [{prediction, probabilities, probability, decision_threshold, positive_class, predicted_positive}], decision_policy, contributions?, warnings?}; `warnings` ([{type: unknown_columns | missing_features, columns, rows, message}]) only when a row had keys that are not inputs of the model or lacked features',
        },
        404: { description: 'Deployment not found or inactive' },
        422: {
          description:
            'An input does not match the schema (the column is named), or a row shares no column with it: `Prediction failed: inputs must match the training schema; row N has none of its columns (expected: …)`',
        },
        500: { description: 'Prediction failed' },
      },
      // A request refused before the handler (its shape, a NUL) is logged with its status too, when its deployment serves.
      onInvalid: async (ctx, err) => {
        const id = uuidParam.safeParse(ctx.params.deployment_id);
        if (!id.success) return;
        const routed = await deployments
          .target(callerId(ctx), id.data)
          .then((t) => deployments.route(t, ctx.state.requestId))
          .catch(() => null);
        if (routed) {
          const refused = classifyError(err);
          inferenceLogs.record(routed, {
            requestId: ctx.state.requestId,
            latencyMs: 0,
            statusCode: refused.status,
            error: refused.detail,
            predictions: null,
            rows: [],
            single: false,
            options: { store_payload: false },
          });
        }
      },
      handler: async (ctx, { params, body }) => {
        const t0 = process.hrtime.bigint();
        const target = await deployments.target(callerId(ctx), params.deployment_id);
        const routed = deployments.route(target, ctx.state.requestId);
        const single = !Array.isArray(body.inputs);
        const rows = Array.isArray(body.inputs) ? body.inputs : [body.inputs];
        const ms = () => Number(process.hrtime.bigint() - t0) / 1e6;
        const log = (statusCode: number, predictions: unknown[] | null, warnings?: InputWarning[], error?: unknown) =>
          inferenceLogs.record(routed, { requestId: ctx.state.requestId, latencyMs: ms(), statusCode, predictions, rows, single, warnings, error, options: body.options });
        try {
          const out = await deployments.predict(routed, rows, body.options);
          ctx.set('X-Service-Model-Cache', out.cache);
          ctx.set('Server-Timing', `predict;dur=${ms().toFixed(2)}`);
          // Counted in memory and written in batches (services/billing/prediction-meter.ts): no database work per request.
          billing.predictions.count(callerId(ctx), routed.deployment, rows.length);
          log(
            200,
            out.predictions.map((p) => p.prediction),
            out.warnings,
          );
          // A shadow rollout's candidate scores the same rows once the answer is sent (services/rollouts.ts).
          rollouts.mirrorAfter(ctx.res, target, routed, { requestId: ctx.state.requestId, rows, single, options: body.options });
          return {
            predictions: out.predictions,
            decision_policy: out.decision_policy,
            ...(out.contributions ? { contributions: out.contributions } : {}),
            ...(out.warnings.length ? { warnings: out.warnings } : {}),
          };
        } catch (err) {
          // A refused request is logged with the status and detail it is answered with.
          const refused = classifyError(err);
          log(refused.status, null, undefined, refused.detail);
          throw err;
        }
      },
    }),
    route({
      method: 'post',
      path: '/api/mlops/deployments/:deployment_id/drift/run',
      tag,
      auth: 'user',
      scope: 'write:deployments',
      params: deploymentParams,
      summary: "Start a drift_compute job: PSI per feature of the deployment's logged inputs (requests with store_payload) against its training data",
      responses: {
        200: { description: '{ok, job_id}; the job already queued or running for the deployment, if any. The result is read from the drift endpoint when the job completes' },
        409: { description: 'No logged inputs to compare' },
      },
      handler: async (ctx, { params }) => {
        const job = await drift.start(callerId(ctx), params.deployment_id);
        return { ok: true, job_id: job.id };
      },
    }),
    route({
      method: 'get',
      path: '/api/mlops/deployments/:deployment_id/drift',
      tag,
      auth: 'user',
      scope: 'read:deployments',
      params: deploymentParams,
      summary: "The deployment's latest drift result: PSI and status per feature (below 0.1 low, 0.1 to 0.25 moderate, above high) and the worst overall",
      responses: { 200: { description: 'Drift result', schema: driftResultSchema }, 404: { description: 'No drift result yet' } },
      handler: async (ctx, { params }) => presentDriftResult(await drift.latest(callerId(ctx), params.deployment_id)),
    }),
    route({
      method: 'get',
      path: '/api/mlops/deployments/:deployment_id/inference-logs',
      tag,
      auth: 'user',
      scope: 'read:deployments',
      params: deploymentParams,
      summary:
        "The deployment's predict requests, newest first unless `sort_field`/`sort_direction` say otherwise; since/until are exclusive bounds; `status` (`ok`: answered, below 400; `error`: refused or failed, 400 and above) and `status_code` filter",
      query: inferenceLogsQuery,
      responses: {
        200: { description: "List envelope of inference logs; a refused request carries its answer's `error` detail", schema: pageOf(inferenceLogSchema) },
        404: { description: 'Deployment not found' },
        422: { description: 'A filter, bound or sort is not one the endpoint takes (named)' },
      },
      handler: async (ctx, { params, query }) => {
        const page = await inferenceLogs.list(callerId(ctx), params.deployment_id, query);
        return { ...page, items: page.items.map(presentInferenceLog) };
      },
    }),
    route({
      method: 'get',
      path: '/api/mlops/deployments/:deployment_id/traffic',
      tag,
      auth: 'user',
      scope: 'read:deployments',
      params: deploymentParams,
      summary:
        "Requests, errors and latency percentiles (p50/p95/p99, ms) per hour; the last 24 hours by default. `split`: how the deployment's requests are divided now (the stable's share, a canary candidate's share, a shadow's mirrored sample, the open rollout)",
      query: trafficQuery,
      responses: {
        200: {
          description:
            '{deployment_id, since, until, hours: [{hour, requests, errors, latency_ms: {p50, p95, p99}}], split: {stable: {deployment_id, traffic_percent}, candidate: {deployment_id, traffic_percent, rollout_id} | null, shadow: {deployment_id, sample_percent, rollout_id} | null, rollout_id}}',
        },
      },
      handler: async (ctx, { params, query }) => {
        const traffic = await inferenceLogs.traffic(callerId(ctx), params.deployment_id, query);
        return { ...traffic, split: await rollouts.trafficSplit(callerId(ctx), params.deployment_id) };
      },
    }),
    route({
      method: 'get',
      path: '/api/mlops/deployments/:deployment_id/api-docs',
      tag,
      auth: 'user',
      scope: 'read:deployments',
      params: deploymentParams,
      summary: "OpenAPI 3.1 fragment for this deployment's predict request, from the model's input schema, with an example row from its training data",
      responses: { 200: { description: 'OpenAPI 3.1 document' } },
      handler: async (ctx, { params }) => predictDocs(await deployments.predictDocs(callerId(ctx), params.deployment_id)),
    }),
  ];
}
