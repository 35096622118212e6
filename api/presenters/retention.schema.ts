import { z } from 'zod';
import { RETENTION_ACTIONS, RETENTION_KINDS } from '../../entities';
import { dateTimestamp as timestamp } from './common.schema';
import { jobSchema } from './job.schema';

/** The JSON shapes of api/presenters/retention.ts, for the OpenAPI document and the web UI's types. */

export const retentionPolicySchema = z
  .object({
    kind: z.enum(RETENTION_KINDS),
    keep_days: z.int().nullable(),
    keep_latest: z.int().nullable(),
    action: z.enum(RETENTION_ACTIONS),
    enabled: z.boolean(),
    updated_at: timestamp,
  })
  .loose();

export const retentionOverviewSchema = z
  .object({
    policies: z.array(retentionPolicySchema),
    kinds: z.array(z.object({ kind: z.enum(RETENTION_KINDS), anonymize: z.string().nullable().meta({ description: 'What anonymize blanks; null where the kind cannot be anonymized' }) }).loose()),
    last_runs: z.array(jobSchema),
    next_run_at: timestamp.nullable().meta({ description: 'When the daily schedule next queues a run; null while no policy is enabled (or Temporal cannot be asked)' }),
  })
  .loose();

export const retentionDryRunSchema = z
  .object({
    dry_run: z.literal(true),
    as_of: timestamp,
    kinds: z.array(z.object({ kind: z.enum(RETENTION_KINDS), action: z.enum(RETENTION_ACTIONS), count: z.int(), sample_ids: z.array(z.string()) }).loose()),
  })
  .loose();

export const retentionRunSchema = z.object({ job: jobSchema }).loose();
