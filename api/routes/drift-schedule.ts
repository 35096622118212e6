import { callerId, type RouteDeps } from '../context';
import { route, RouteDef } from '../route';
import { driftScheduleAnswer, driftScheduleBody, driftScheduleParams } from './drift-schedule.schema';

/**
 * A deployment's drift schedule (prefix /api/mlops): a `drift_compute` job every `interval_minutes`, run by a Temporal
 * Schedule `drift-<deployment>` (services/drift-schedule.ts) while the deployment is not archived.
 */
export function driftScheduleRoutes({ services }: RouteDeps): RouteDef[] {
  const { driftSchedules } = services;
  const tag = 'deployments';
  const path = '/api/mlops/deployments/:deployment_id/drift-schedule';
  const answer = { description: '{deployment_id, drift_schedule: {interval_minutes} or null}', schema: driftScheduleAnswer };
  return [
    route({
      method: 'get',
      path,
      tag,
      auth: 'user',
      scope: 'read:deployments',
      params: driftScheduleParams,
      summary: "The deployment's drift schedule (null: drift runs only when asked)",
      responses: { 200: answer, 404: { description: 'Deployment not found' } },
      handler: async (ctx, { params }) => driftSchedules.get(callerId(ctx), params.deployment_id),
    }),
    route({
      method: 'put',
      path,
      tag,
      auth: 'user',
      scope: 'write:deployments',
      params: driftScheduleParams,
      body: driftScheduleBody,
      summary:
        'Run drift on a schedule: a drift_compute job every interval_minutes (1 to 10080) while the deployment is not archived, skipped while one is open or nothing logged with store_payload can be compared; the Temporal Schedule shows in the Temporal UI',
      responses: { 200: answer, 404: { description: 'Deployment not found' } },
      handler: async (ctx, { params, body }) => driftSchedules.set(callerId(ctx), params.deployment_id, { interval_minutes: body.interval_minutes }),
    }),
    route({
      method: 'delete',
      path,
      tag,
      auth: 'user',
      scope: 'write:deployments',
      params: driftScheduleParams,
      summary: 'Stop running drift on a schedule',
      responses: { 200: answer, 404: { description: 'Deployment not found' } },
      handler: async (ctx, { params }) => driftSchedules.set(callerId(ctx), params.deployment_id, null),
    }),
  ];
}
