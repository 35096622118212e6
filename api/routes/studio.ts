import { z } from 'zod';
import { callerId, type RouteDeps } from '../context';
import { SCENARIO_STATUSES } from '../../entities';
import { pageOf } from '../presenters/page.schema';
import { presentDeploymentSchema, presentStudioSession, presentStudioSessionSummary } from '../presenters/studio';
import { comparisonSchema, deploymentSchemaSchema, scenarioRunSchema, studioSessionSchema, studioSessionSummarySchema } from '../presenters/studio.schema';
import { route, RouteDef } from '../route';
import { MAX_SCENARIOS_PER_SESSION } from '../../services/studio';
import { createScenarioBody, createSessionBody, deploymentParams, scenarioParams, sessionListQuery, sessionParams } from './studio.schema';

/**
 * What a route that scores a row with the deployment needs: it is a prediction like any other
 * (the deployment's model answers it), so an API key needs `predict:deployments` besides the
 * studio scope, and it counts against the `predict` rate bucket, not `general`.
 */
const SCORES = { scope: ['write:studio', 'predict:deployments'], rateLimit: 'predict' } as const;
const inactive = { description: 'Deployment not found or inactive' };

/** The what-if studio (prefix /api/studio): sessions on a deployment, their scenarios and the comparison. */
export function studioRoutes({ services }: RouteDeps): RouteDef[] {
  const { studio } = services;
  const tag = 'studio';

  return [
    route({
      method: 'post',
      path: '/api/studio/sessions',
      tag,
      auth: 'user',
      ...SCORES,
      summary: "Start a session: the baseline is scored at once by the project's active deployment and stored with the feature schema and contributions",
      body: createSessionBody,
      responses: {
        201: { description: '{id, studio_session_id}', schema: z.object({ id: z.string(), studio_session_id: z.string() }) },
        404: inactive,
        409: { description: 'The caller already holds MAX_STUDIO_SESSIONS_PER_USER sessions in the project (500 by default): delete some first' },
        422: { description: 'A key of baseline_input is not a feature of the deployed model, or a value does not fit its type (the key is named)' },
        500: { description: 'Baseline prediction failed' },
      },
      handler: async (ctx, { body }) => {
        const s = await studio.createSession(callerId(ctx), body);
        ctx.status = 201;
        return { id: s.id, studio_session_id: s.id };
      },
    }),
    route({
      method: 'get',
      path: '/api/studio/sessions',
      tag,
      auth: 'user',
      scope: 'read:studio',
      summary: "The project's studio sessions, newest first",
      query: sessionListQuery,
      responses: { 200: { description: 'List envelope of {id, project_id, deployment_id, created_at}', schema: pageOf(studioSessionSummarySchema) }, 404: { description: 'Project not found' } },
      handler: async (ctx, { query }) => {
        const page = await studio.listSessions(callerId(ctx), query.project_id, query);
        return { ...page, items: page.items.map(presentStudioSessionSummary) };
      },
    }),
    route({
      method: 'get',
      path: '/api/studio/sessions/:session_id',
      tag,
      auth: 'user',
      scope: 'read:studio',
      params: sessionParams,
      summary: 'A studio session with its baseline and scenarios (oldest first)',
      responses: {
        200: {
          description: '{session: {id, project_id, deployment_id, feature_schema, baseline_input, baseline_output, baseline_contributions, scenarios, created_at}}',
          schema: z.object({ session: studioSessionSchema }),
        },
        404: { description: 'Studio session not found' },
      },
      handler: async (ctx, { params }) => {
        const { session, scenarios } = await studio.getSession(callerId(ctx), params.session_id);
        return { session: presentStudioSession(session, scenarios) };
      },
    }),
    route({
      method: 'delete',
      path: '/api/studio/sessions/:session_id',
      tag,
      auth: 'user',
      scope: 'write:studio',
      params: sessionParams,
      summary: 'Delete a studio session with its scenarios (editor)',
      responses: { 200: { description: '{ok}' }, 404: { description: 'Studio session not found' } },
      handler: async (ctx, { params }) => {
        await studio.deleteSession(callerId(ctx), params.session_id);
        return { ok: true };
      },
    }),
    route({
      method: 'get',
      path: '/api/studio/deployments/:deployment_id/schema',
      tag,
      auth: 'user',
      scope: 'read:studio',
      params: deploymentParams,
      summary:
        "An active deployment's feature schema (target excluded) and an example input to start a baseline from: a typical value per feature from statistics of the training data (median, most frequent value), never a training row; columns the deployment's privacy_column_map masks or that hold PII show a placeholder",
      responses: {
        200: {
          description:
            '{deployment_id, project_id, model_id, experiment_id, dataset_version_id, target_column, feature_schema, example_input, example_source}; example_source is `training_statistics`, or `unavailable` (and example_input {}) when the training data is gone',
          schema: deploymentSchemaSchema,
        },
        404: inactive,
      },
      handler: async (ctx, { params }) => presentDeploymentSchema(await studio.schema(callerId(ctx), params.deployment_id)),
    }),
    route({
      method: 'post',
      path: '/api/studio/sessions/:session_id/scenarios',
      tag,
      auth: 'user',
      scope: 'write:studio',
      params: sessionParams,
      summary: `Add a scenario: the baseline with \`changes\` applied, pending until run (at most ${MAX_SCENARIOS_PER_SESSION} a session)`,
      body: createScenarioBody,
      responses: {
        201: { description: "{id, scenario_id, status: 'pending'}", schema: z.object({ id: z.string(), scenario_id: z.string(), status: z.enum(SCENARIO_STATUSES) }) },
        404: { description: "Studio session not found, or its deployment is no longer active ('Deployment not found or inactive')" },
        409: { description: `The session already holds ${MAX_SCENARIOS_PER_SESSION} scenarios` },
        422: { description: 'A key of changes is not a feature of the session (the key is named)' },
      },
      handler: async (ctx, { params, body }) => {
        const s = await studio.createScenario(callerId(ctx), params.session_id, body);
        ctx.status = 201;
        return { id: s.id, scenario_id: s.id, status: s.status };
      },
    }),
    route({
      method: 'post',
      path: '/api/studio/scenarios/:scenario_id/run',
      tag,
      auth: 'user',
      ...SCORES,
      params: scenarioParams,
      summary: "Score a scenario with the session's deployment; it ends `succeeded` with output and contributions, or `failed` with the error answered. Running again scores the same input again",
      responses: {
        200: { description: "{ok, scenario_id, status: 'succeeded', output: {prediction, ...}, contributions}", schema: scenarioRunSchema },
        404: { description: "Scenario not found, or the session's deployment is no longer active ('Deployment not found or inactive')" },
        422: { description: 'Scenario prediction failed: a value does not fit its feature (named); the scenario is `failed`' },
        500: { description: 'Scenario prediction failed' },
      },
      handler: async (ctx, { params }) => {
        const s = await studio.runScenario(callerId(ctx), params.scenario_id);
        return { ok: true, scenario_id: s.id, status: s.status, output: s.output, contributions: s.contributions };
      },
    }),
    route({
      method: 'get',
      path: '/api/studio/sessions/:session_id/compare',
      tag,
      auth: 'user',
      scope: 'read:studio',
      params: sessionParams,
      summary:
        'The baseline against every succeeded scenario: prediction delta (scenario minus baseline; null for class labels), probability delta for binary models, and the 10 largest contribution deltas',
      responses: {
        200: {
          description: '{baseline: {output, contributions}, scenarios: [{id, name, output, delta: {prediction, probability, contributions: [{feature, delta}]}}]}',
          schema: comparisonSchema,
        },
        404: { description: 'Studio session not found' },
      },
      handler: async (ctx, { params }) => studio.compare(callerId(ctx), params.session_id),
    }),
  ];
}
