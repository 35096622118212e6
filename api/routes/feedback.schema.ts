import { z } from 'zod';
import { uuidParam } from '../validation';

/** The request schemas of `POST /api/mlops/deployments/:deployment_id/feedback` (api/routes/feedback.ts). */

/** Outcomes one feedback request may carry (a batch predict request takes at most as many rows). */
export const MAX_FEEDBACK_ITEMS = 10_000;

/** A request id as predict answers it in `X-Request-Id` (api/middleware/request-context.ts). */
const requestId = z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'A request id as predict answered it in X-Request-Id (1-64 of A-Z a-z 0-9 . _ -)');
const scalar = z.union([z.string().max(1000), z.number(), z.boolean()]);
/** One outcome, or one per input row of a batch predict request. */
const actual = z.union([scalar, z.array(scalar).min(1).max(MAX_FEEDBACK_ITEMS)]);
const item = z.object({ request_id: requestId, actual }).strict();

export const feedbackParams = z.object({ deployment_id: uuidParam });
export const feedbackBody = z.union([item, z.object({ items: z.array(item).min(1).max(MAX_FEEDBACK_ITEMS) }).strict()]);
