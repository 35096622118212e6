import type { z } from 'zod';
import type { Rollout } from '../../entities';
import { ROLLOUT_SIGNALS, type RolloutSignal } from '../../workflows/rollout-input';
import { callerId, type RouteDeps } from '../context';
import { pageOf } from '../presenters/page.schema';
import { presentRollout } from '../presenters/rollout';
import { rolloutSchema, shadowComparisonSchema, trafficSplitSchema } from '../presenters/rollout.schema';
import { route, RouteDef } from '../route';
import { deploymentParams } from './deployments.schema';
import { blueGreenBody, canaryBody, putTrafficBody, rolloutListQuery, rolloutParams, shadowBody, shadowQuery } from './rollouts.schema';

const READ = 'read:deployments' as const;
const WRITE = 'write:deployments' as const;

const started = {
  201: { description: 'The rollout, `running`', schema: rolloutSchema },
  404: { description: 'Deployment not found or inactive' },
  409: { description: 'The deployment is not an active production deployment, or already has an open rollout' },
  422: { description: 'Provide model_id or version_id (one of them); a model or version not of the project, or the model already served; a field out of range (named)' },
  503: { description: 'The rollout could not be started (Temporal unreachable); nothing was changed' },
};

const SIGNAL_SUMMARIES: Record<RolloutSignal, string> = {
  pause: 'Pause a running rollout: the current step holds (its remaining pause frozen, its traffic share kept) until resumed',
  resume: 'Resume a paused rollout at its step',
  abort: 'Abort a rollout: the candidate is taken out of serving (after a blue-green switch the previous deployment is restored); state `aborted`',
  promote: 'Promote now: a canary or shadow candidate becomes production (the stable archived), skipping the remaining steps; a blue-green ends its window now',
  rollback: 'Roll back: a canary candidate is taken out of serving; a blue-green switch is undone (the previous deployment restored at once); state `rolled_back`',
};

/**
 * Rollout strategies (prefix /api/mlops): canary, blue-green and shadow rollouts of a candidate model against a
 * production deployment, their signals, the shadow comparison and the traffic split set by hand. API keys need
 * `read:deployments` / `write:deployments`; another project's rollout is a 404.
 */
export function rolloutRoutes({ services }: RouteDeps): RouteDef[] {
  const { rollouts } = services;
  const tagged = { tag: 'rollouts', auth: 'user' as const };

  const signals = ROLLOUT_SIGNALS.map((signal) =>
    route({
      ...tagged,
      method: 'post',
      path: `/api/mlops/strategies/:rollout_id/${signal}`,
      scope: WRITE,
      params: rolloutParams,
      summary: SIGNAL_SUMMARIES[signal],
      responses: {
        202: { description: 'The rollout as it was when signalled; its workflow acts on the signal within moments (poll GET …/strategies/{id})', schema: rolloutSchema },
        404: { description: 'Rollout not found' },
        409: { description: 'The rollout has ended, or the signal does not apply in its state' },
        503: { description: 'The rollout could not be reached; try again' },
      },
      handler: async (ctx, { params }) => {
        const r = await rollouts.signal(callerId(ctx), params.rollout_id, signal);
        ctx.status = 202;
        return presentRollout(r);
      },
    }),
  );

  /** A start route of one kind: 201 with the rollout. */
  const start = <B>(kind: string, summary: string, body: z.ZodType<B>, begin: (actor: string, deploymentId: string, body: B) => Promise<Rollout>) =>
    route({
      ...tagged,
      method: 'post',
      path: `/api/mlops/deployments/:deployment_id/${kind}`,
      scope: WRITE,
      params: deploymentParams,
      summary,
      body,
      responses: started,
      handler: async (ctx, { params, body }) => {
        const r = await begin(callerId(ctx), params.deployment_id, body);
        ctx.status = 201;
        return presentRollout(r);
      },
    });

  return [
    start(
      'canary',
      "Start a canary rollout: the candidate (a staging deployment) takes each step's `traffic_percent` of the deployment's requests for `pause_secs`, its gates checked every `gate_interval_secs` (default 60) on its own requests of the step. A gate is a success condition (`observed op threshold` must hold, as in Argo Rollouts): with `min_samples` (default 10) observations and the condition false, the rollout rolls back at once (`rolled_back`, the reason naming the gate and the observed value). All steps passed: promote (default) or hold for a promote",
      canaryBody,
      (actor, id, body) => rollouts.startCanary(actor, id, body),
    ),
    start(
      'blue-green',
      'Start a blue-green rollout: the candidate is deployed and warmed (model loaded, `warmup_requests` predictions), then production switches to it at once; the previous deployment stays restorable for `keep_previous_secs` (default 600: `POST …/strategies/{id}/rollback`), then the rollout is `completed`',
      blueGreenBody,
      (actor, id, body) => rollouts.startBlueGreen(actor, id, body),
    ),
    start(
      'shadow',
      "Start a shadow rollout: `sample_percent` (default 100) of the deployment's requests are mirrored to the candidate after their answer (never returned, never delaying it), the candidate's answers logged in its own inference log; for `duration_secs`, or until promoted or aborted",
      shadowBody,
      (actor, id, body) => rollouts.startShadow(actor, id, body),
    ),
    route({
      ...tagged,
      method: 'get',
      path: '/api/mlops/deployments/:deployment_id/shadow',
      scope: READ,
      params: deploymentParams,
      query: shadowQuery,
      summary:
        "The deployment's latest shadow rollout compared request by request: agreement (the same label; numbers within `tolerance`), absolute deltas, latency of both sides and the shadow's errors",
      responses: {
        200: { description: 'Shadow comparison', schema: shadowComparisonSchema },
        404: { description: 'Deployment not found or inactive, or no shadow rollout for this deployment' },
      },
      handler: async (ctx, { params, query }) => rollouts.shadowComparison(callerId(ctx), params.deployment_id, query.tolerance),
    }),
    route({
      ...tagged,
      method: 'get',
      path: '/api/mlops/deployments/:deployment_id/strategies',
      scope: READ,
      params: deploymentParams,
      query: rolloutListQuery,
      summary: "The deployment's rollouts (as the stable), newest first",
      responses: { 200: { description: 'List envelope of rollouts', schema: pageOf(rolloutSchema) }, 404: { description: 'Deployment not found or inactive' } },
      handler: async (ctx, { params, query }) => {
        const page = await rollouts.list(callerId(ctx), params.deployment_id, query);
        return { ...page, items: page.items.map(presentRollout) };
      },
    }),
    route({
      ...tagged,
      method: 'get',
      path: '/api/mlops/strategies/:rollout_id',
      scope: READ,
      params: rolloutParams,
      summary: 'A rollout: its state (live from its workflow while open), step, traffic share, last gate results and history',
      responses: { 200: { description: 'The rollout', schema: rolloutSchema }, 404: { description: 'Rollout not found' } },
      handler: async (ctx, { params }) => presentRollout(await rollouts.getFor(callerId(ctx), params.rollout_id)),
    }),
    ...signals,
    route({
      ...tagged,
      method: 'put',
      path: '/api/mlops/deployments/:deployment_id/traffic',
      scope: WRITE,
      params: deploymentParams,
      body: putTrafficBody,
      summary:
        "Set a canary share by hand: `candidate_deployment_id` (an active staging deployment of the project; default the one taking this deployment's traffic now) takes `traffic_percent` of this production deployment's requests (100: none, as a staging deployment's default); recorded in the candidate's rollback history",
      responses: {
        200: { description: 'The split now', schema: trafficSplitSchema },
        404: { description: 'Deployment not found or inactive' },
        409: { description: 'The deployment is not an active production deployment, or a canary rollout is running on it (pause it first)' },
        422: { description: 'candidate_deployment_id is not an active staging deployment of the project, or none takes traffic now' },
      },
      handler: async (ctx, { params, body }) => rollouts.setTraffic(callerId(ctx), params.deployment_id, body),
    }),
  ];
}
