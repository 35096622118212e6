import { z } from 'zod';
import { ValidationError } from '../../services/errors';
import type { InputWarning } from '../../services/model-serving';
import { callerId, type AppContext, type RouteDeps } from '../context';
import { classifyError } from '../middleware/error-handler';
import { presentAbTest, presentAbTestWithStats } from '../presenters/ab-test';
import { abOutcomeResultSchema, abPredictSchema, abTestSchema, abTestWithStatsSchema } from '../presenters/ab-test.schema';
import { pageOf } from '../presenters/page.schema';
import { route, RouteDef } from '../route';
import { abPredictBody, abTestListQuery, abTestParams, createAbTestBody, MAX_AB_KEY_LENGTH, outcomesBody, patchAbTestBody } from './ab-tests.schema';

/** The caller's assignment key (X-AB-Key), if it sent one. */
function abKey(ctx: AppContext): string | undefined {
  const key = ctx.get('x-ab-key');
  if (!key) return undefined;
  if (key.length > MAX_AB_KEY_LENGTH) throw ValidationError.field(['header', 'X-AB-Key'], `At most ${MAX_AB_KEY_LENGTH} characters`);
  return key;
}

const NOT_FOUND = { description: 'A/B test not found' };

/** A/B tests between deployments of a project (prefix /api/mlops/ab-tests): draft → running → concluded, then promote. */
export function abTestRoutes({ services }: RouteDeps): RouteDef[] {
  const { abTests, deployments, inferenceLogs, billing } = services;
  const tag = 'ab-tests';
  const withStats = { description: 'The A/B test with its statistics as read now', schema: abTestWithStatsSchema };

  return [
    route({
      method: 'post',
      path: '/api/mlops/ab-tests',
      tag,
      auth: 'user',
      scope: 'write:deployments',
      summary: 'Create an A/B test (draft) between active deployments of a project; the first variant is the control',
      body: createAbTestBody,
      responses: {
        201: { description: 'The A/B test', schema: abTestSchema },
        404: { description: 'Project not found' },
        422: { description: 'A variant is not an active deployment of the project (named), names repeat, or a weight, alpha or min_samples is out of range' },
      },
      handler: async (ctx, { body }) => {
        const t = await abTests.create(callerId(ctx), body);
        ctx.status = 201;
        return presentAbTest(t);
      },
    }),
    route({
      method: 'get',
      path: '/api/mlops/ab-tests',
      tag,
      auth: 'user',
      scope: 'read:deployments',
      summary: "The project's A/B tests, newest first",
      query: abTestListQuery,
      responses: { 200: { description: 'List envelope of A/B tests', schema: pageOf(abTestSchema) }, 404: { description: 'Project not found' } },
      handler: async (ctx, { query }) => {
        const page = await abTests.list(callerId(ctx), query.project_id, query);
        return { ...page, items: page.items.map(presentAbTest) };
      },
    }),
    route({
      method: 'get',
      path: '/api/mlops/ab-tests/:test_id',
      tag,
      auth: 'user',
      scope: 'read:deployments',
      params: abTestParams,
      summary: 'An A/B test with its running statistics (mSPRT: always-valid p-values and confidence sequences); a running test past its boundary concludes here',
      responses: { 200: withStats, 404: NOT_FOUND },
      handler: async (ctx, { params }) => presentAbTestWithStats(await abTests.get(callerId(ctx), params.test_id)),
    }),
    route({
      method: 'patch',
      path: '/api/mlops/ab-tests/:test_id',
      tag,
      auth: 'user',
      scope: 'write:deployments',
      params: abTestParams,
      summary: 'Change a draft A/B test; what is not sent is kept',
      body: patchAbTestBody,
      responses: { 200: withStats, 404: NOT_FOUND, 409: { description: 'Only a draft A/B test can be changed' }, 422: { description: 'As for create' } },
      handler: async (ctx, { params, body }) => presentAbTestWithStats(await abTests.update(callerId(ctx), params.test_id, body)),
    }),
    route({
      method: 'delete',
      path: '/api/mlops/ab-tests/:test_id',
      tag,
      auth: 'user',
      scope: 'write:deployments',
      params: abTestParams,
      summary: 'Delete a draft or concluded A/B test with its assignments and outcomes',
      responses: { 200: { description: '{ok}', schema: z.object({ ok: z.boolean() }) }, 404: NOT_FOUND, 409: { description: 'A running A/B test cannot be deleted; stop it first' } },
      handler: async (ctx, { params }) => {
        await abTests.remove(callerId(ctx), params.test_id);
        return { ok: true };
      },
    }),
    route({
      method: 'post',
      path: '/api/mlops/ab-tests/:test_id/start',
      tag,
      auth: 'user',
      scope: 'write:deployments',
      params: abTestParams,
      summary: 'Start a draft A/B test: its predict route assigns requests from now on',
      responses: { 200: withStats, 404: NOT_FOUND, 409: { description: "A/B test is not a draft, or a variant's deployment no longer serves" } },
      handler: async (ctx, { params }) => presentAbTestWithStats(await abTests.start(callerId(ctx), params.test_id)),
    }),
    route({
      method: 'post',
      path: '/api/mlops/ab-tests/:test_id/stop',
      tag,
      auth: 'user',
      scope: 'write:deployments',
      params: abTestParams,
      summary: 'Conclude a running A/B test now: with the winner if a boundary is crossed, else without one',
      responses: { 200: withStats, 404: NOT_FOUND, 409: { description: 'A/B test is not running' } },
      handler: async (ctx, { params }) => presentAbTestWithStats(await abTests.stop(callerId(ctx), params.test_id)),
    }),
    route({
      method: 'post',
      path: '/api/mlops/ab-tests/:test_id/promote',
      tag,
      auth: 'user',
      scope: 'write:deployments',
      params: abTestParams,
      summary: "Make the winner's deployment production (the previous production deployment is archived, as promote does)",
      responses: { 200: withStats, 404: NOT_FOUND, 409: { description: 'A/B test is not concluded, has no winner, was promoted already, or the winner’s deployment is archived' } },
      handler: async (ctx, { params }) => presentAbTestWithStats(await abTests.promote(callerId(ctx), params.test_id)),
    }),
    route({
      method: 'post',
      path: '/api/mlops/ab-tests/:test_id/outcomes',
      tag,
      auth: 'user',
      scope: 'predict:deployments',
      rateLimit: 'predict',
      params: abTestParams,
      summary:
        'Business outcomes of a conversion or revenue test by request id (as predict answered it); sending an id again replaces its outcome. A request with no outcome counts as 0. Ids the test never assigned are refused and listed',
      body: outcomesBody,
      responses: {
        200: { description: '{accepted, updated, unknown_request_ids}', schema: abOutcomeResultSchema },
        404: NOT_FOUND,
        409: { description: 'An accuracy or log_loss test is measured on deployment feedback, not outcomes' },
        422: { description: 'A conversion is 0 or 1' },
      },
      handler: async (ctx, { params, body }) => abTests.recordOutcomes(callerId(ctx), params.test_id, body.outcomes),
    }),
    route({
      method: 'post',
      path: '/api/mlops/ab-tests/:test_id/predict',
      tag,
      auth: 'user',
      scope: 'predict:deployments',
      rateLimit: 'predict',
      params: abTestParams,
      summary:
        "Predict through a running A/B test: the `X-AB-Key` header (up to 256 characters; else the request id) picks the variant, the same key always the same one. The variant's deployment answers and logs the request, so its feedback route labels it. Body and answer as a deployment's predict, plus `variant`, `deployment_id` and `request_id`",
      body: abPredictBody,
      responses: {
        200: { description: "The variant's prediction", schema: abPredictSchema },
        404: NOT_FOUND,
        409: { description: "A/B test is not running, or the variant's deployment no longer serves" },
        422: { description: 'An input does not match the schema, or X-AB-Key is too long' },
      },
      handler: async (ctx, { params, body }) => {
        const t0 = process.hrtime.bigint();
        const requestId = ctx.state.requestId;
        const assigned = await abTests.route(callerId(ctx), params.test_id, abKey(ctx) ?? requestId);
        const rows = Array.isArray(body.inputs) ? body.inputs : [body.inputs];
        const ms = () => Number(process.hrtime.bigint() - t0) / 1e6;
        const log = (statusCode: number, predictions: unknown[] | null, warnings?: InputWarning[]) =>
          inferenceLogs.record(assigned.routed, { requestId, latencyMs: ms(), statusCode, predictions, rows, single: !Array.isArray(body.inputs), warnings, options: body.options });
        let out;
        try {
          out = await deployments.predict(assigned.routed, rows, body.options);
        } catch (err) {
          // A refused request is logged with the status it is answered with, as a deployment's predict does.
          log(classifyError(err).status, null);
          throw err;
        }
        // Metered as the variant's deployment's predictions, as its own predict route meters them.
        billing.predictions.count(callerId(ctx), assigned.routed.deployment, rows.length);
        log(
          200,
          out.predictions.map((p) => p.prediction),
          out.warnings,
        );
        await abTests.recordAssignment(assigned, requestId, out.predictions);
        ctx.set('X-AB-Variant', encodeURIComponent(assigned.variant.name));
        ctx.set('X-Service-Model-Cache', out.cache);
        ctx.set('Server-Timing', `predict;dur=${ms().toFixed(2)}`);
        return {
          variant: assigned.variant.name,
          deployment_id: assigned.variant.deployment_id,
          request_id: requestId,
          predictions: out.predictions,
          decision_policy: out.decision_policy,
          ...(out.contributions ? { contributions: out.contributions } : {}),
          ...(out.warnings.length ? { warnings: out.warnings } : {}),
        };
      },
    }),
  ];
}
