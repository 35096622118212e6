import { z } from 'zod';
import { RETENTION_ACTIONS, RETENTION_KINDS } from '../../entities';
import { uuidParam } from '../validation';

/** The request schemas of /api/admin/retention (api/routes/admin-retention.ts). */

export const retentionKindParams = z.object({ kind: z.enum(RETENTION_KINDS) });

export const retentionRunParams = z.object({ job_id: uuidParam });

/** A policy: exactly one of `keep_days` (1 to 36500) and `keep_latest` (1 to 1000000); `enabled` defaults to true. */
export const retentionPolicyBody = z
  .strictObject({
    keep_days: z.int().min(1).max(36_500).nullable().optional().meta({ description: 'Keep records younger than this many days (exclusive with keep_latest)' }),
    keep_latest: z.int().min(1).max(1_000_000).nullable().optional().meta({ description: 'Keep the newest this many per owner (exclusive with keep_days)' }),
    action: z.enum(RETENTION_ACTIONS).meta({ description: '`delete`, or `anonymize` (inference logs and audit entries only; 422 elsewhere)' }),
    enabled: z.boolean().default(true),
  })
  .refine((b) => (b.keep_days == null) !== (b.keep_latest == null), { message: 'Give exactly one of keep_days and keep_latest', path: [] });

/** `{dry_run: true}` answers what would go; `{dry_run: false}` queues the job. */
export const retentionRunBody = z.strictObject({ dry_run: z.boolean().meta({ description: 'true: count what would go and change nothing; false: queue a `retention` job (202)' }) });
