import { z } from 'zod';
import { isoTimestamp } from './common.schema';

/** A resolved limit set: every key, a number or null (no limit). */
const limits = z.record(z.string(), z.number().nullable());

/** A plan as the admin routes show it (api/presenters/plan.ts). */
export const adminPlanSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    display_name: z.string(),
    limits: limits.meta({ description: 'What the plan sets (a key left out takes the configured value)' }),
    effective_limits: limits.meta({ description: 'Every limit as it applies to holders of the plan' }),
    users_count: z.number().int(),
    teams_count: z.number().int(),
    is_default: z.boolean(),
    created_at: isoTimestamp,
  })
  .loose();

export const builtInPlanSchema = z.object({ name: z.string(), display_name: z.string(), limits }).loose();
