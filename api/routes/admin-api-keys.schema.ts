import { z } from 'zod';
import { intParam, uuidParam } from '../validation';

/** The request schemas of the admin API-key routes (api/routes/admin-api-keys.ts). */

export const adminApiKeysQuery = z.object({
  limit: intParam(1, 200).default(50),
  offset: intParam(0).default(0),
  /** Part of the key's name or prefix, or of its owner's email. */
  q: z.string().max(200).optional(),
  user_id: uuidParam.optional(),
  status: z.enum(['live', 'revoked', 'all']).default('live'),
});

export const adminApiKeyParams = z.object({ key_id: uuidParam });
