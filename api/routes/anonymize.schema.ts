import { z } from 'zod';
import { queryBool, uuidParam } from '../validation';

/** The request schemas of `POST /api/anonymize/stream` (api/routes/anonymize.ts); the body is the CSV itself. */

export const anonymizeStreamQuery = z.object({ policy_id: uuidParam, deep_scan: queryBool.optional() });
