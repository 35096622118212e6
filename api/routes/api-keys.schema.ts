import { z } from 'zod';
import { KNOWN_SCOPES } from '../../services/scopes';
import { nonBlank, uuidParam } from '../validation';

/** The request schemas of the API key routes (api/routes/api-keys.ts). */

export const createApiKeyBody = z.object({
  name: nonBlank(200),
  scopes: z
    .array(z.string().max(100).meta({ enum: KNOWN_SCOPES }))
    .max(100)
    .meta({ minItems: 1 }),
});

export const apiKeyParams = z.object({ key_id: uuidParam });
