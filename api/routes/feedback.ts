import { callerId, type RouteDeps } from '../context';
import { feedbackOutcomeSchema } from '../presenters/feedback.schema';
import { route, RouteDef } from '../route';
import { feedbackBody, feedbackParams } from './feedback.schema';

/** Ground truth for a deployment's predictions (prefix /api/mlops): what accuracy_degradation alerts measure. */
export function feedbackRoutes({ services }: RouteDeps): RouteDef[] {
  const { feedback } = services;
  return [
    route({
      method: 'post',
      path: '/api/mlops/deployments/:deployment_id/feedback',
      tag: 'deployments',
      auth: 'user',
      scope: 'predict:deployments',
      rateLimit: 'predict',
      params: feedbackParams,
      summary:
        'Report the actual outcomes of predictions, keyed by the request id predict answered (X-Request-Id): one `{request_id, actual}` or a batch `{items: [...]}`; `actual` is a label, a number or a boolean, or an array of them (one per row) for a batch predict request. Sending an id again replaces its outcome, so a batch may be retried. Ids with no inference log of the deployment are refused and listed',
      body: feedbackBody,
      responses: {
        200: { description: '{accepted, updated, unknown_request_ids}', schema: feedbackOutcomeSchema },
        404: { description: 'Deployment not found or inactive' },
      },
      handler: async (ctx, { params, body }) => feedback.record(callerId(ctx), params.deployment_id, 'items' in body ? body.items : [body]),
    }),
  ];
}
