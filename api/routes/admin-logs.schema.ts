import { z } from 'zod';
import { ACCOUNT_EVENT_TYPES } from '../../entities';
import { SERVICE_LOG_LEVELS } from '../../services/admin/service-logs';
import { intParam, timestampParam, uuidParam } from '../validation';

/** The request schemas of the admin service-log and security-event routes (api/routes/admin-logs.ts). */

/** A comma-separated list of values from `allowed` (`warn,error`), read as an array. */
function csvOf<T extends string>(allowed: readonly [T, ...T[]], noun: string) {
  return z
    .string()
    .max(1000)
    .transform((s, ctx) => {
      const parts = s
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean);
      const unknown = parts.filter((p) => !(allowed as readonly string[]).includes(p));
      if (unknown.length) ctx.addIssue({ code: 'custom', message: `Unknown ${noun}: ${unknown.join(', ')} (one of ${allowed.join(', ')})` });
      return parts as T[];
    })
    .meta({ description: `Comma-separated: ${allowed.join(', ')}` });
}

export const serviceLogsQuery = z.object({
  limit: intParam(1, 500).default(100),
  offset: intParam(0).default(0),
  level: csvOf(SERVICE_LOG_LEVELS, 'level').optional(),
  /** Part of the message or of the entry's fields (request id, job id, error text). */
  q: z.string().max(200).optional(),
  /** Part of the process name (`test`, `worker`, `start`...). */
  process: z.string().max(100).optional(),
  from: timestampParam.optional(),
  to: timestampParam.optional(),
});

export const securityEventsQuery = z.object({
  limit: intParam(1, 500).default(50),
  offset: intParam(0).default(0),
  type: csvOf(ACCOUNT_EVENT_TYPES, 'event type').optional(),
  user_id: uuidParam.optional(),
  /** Part of the user's email. */
  q: z.string().max(200).optional(),
  ip: z.string().max(100).optional(),
  from: timestampParam.optional(),
  to: timestampParam.optional(),
});
