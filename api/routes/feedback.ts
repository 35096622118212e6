import { z } from 'zod';
import { callerId, type RouteDeps } from '../context';
import { feedbackOutcomeSchema } from '../presenters/feedback.schema';
import { route, RouteDef } from '../route';
import { uuidParam } from '../validation';

/** Outcomes one feedback request may carry (a batch predict request takes at most as many rows). */
export const MAX_FEEDBACK_ITEMS = 10_000;

/** A request id as predict answers it in `X-Request-Id` (api/middleware/request-context.ts). */
const requestId = z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'A request id as predict answered it in X-Request-Id (1-64 of A-Z a-z 0-9 . _ -)');
const scalar = z.union([z.string().max(1000), z.number(), z.boolean()]);
/** One outcome, or one per input row of a batch predict request. */
const actual = z.union([scalar, z.array(scalar).min(1).max(MAX_FEEDBACK_ITEMS)]);
const item = z.object({ request_id: requestId, actual }).strict();

const feedbackBody = z.union([item, z.object({ items: z.array(item).min(1).max(MAX_FEEDBACK_ITEMS) }).strict()]);

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
      params: z.object({ deployment_id: uuidParam }),
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
