import { z } from 'zod';
import { POLICY_STATUSES, PRIVACY_ACTIONS, PRIVACY_PROFILES, PRIVACY_SESSION_STATUSES } from '../../entities';
import { dateTimestamp, jsonObject } from './common.schema';

/**
 * The JSON shapes of api/presenters/privacy.ts and the privacy routes, for the OpenAPI document and through it the
 * web UI's generated types. Objects stay open (`loose`): a client ignores fields it does not know.
 */

/** A session's counts, the one source the session page, the policy page and the PDF show (services/privacy/finding-counts.ts). */
export const findingCountsSchema = z
  .object({
    /** Every finding of the session: excluded + transformed + pending. */
    findings: z.number().int(),
    /** Left out of this session by a user. */
    excluded: z.number().int(),
    /** Changed by the session's last output. */
    transformed: z.number().int(),
    /** Neither transformed nor excluded. */
    pending: z.number().int(),
    /** Pending findings with no action (no policy rule, no override): the next run leaves them. */
    without_action: z.number().int(),
    /** Transformed, or pending with an action. */
    protected: z.number().int(),
    /** protected / (findings - excluded) as a percentage (100 when that is 0). */
    compliance_score: z.number(),
  })
  .loose();

/** The spec's privacy policy with its compliance figures (services/privacy/finding-counts.ts). */
export const policySchema = z
  .object({
    id: z.string(),
    project_id: z.string(),
    project_name: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    profile: z.enum(PRIVACY_PROFILES),
    status: z.enum(POLICY_STATUSES),
    settings: jsonObject,
    rules_count: z.number().int(),
    /** Findings of the policy's latest detected session (its `counts.findings`). */
    detected_count: z.number().int(),
    /** Of those, the findings transformed or to be transformed (`counts.protected`). */
    protected_count: z.number().int(),
    /** Findings neither transformed nor excluded (`counts.pending`). */
    pending_count: z.number().int(),
    /** protected / (findings - excluded) as a percentage; null before any detection. */
    compliance_score: z.number().nullable(),
    /** The counts of the latest detected session, as that session shows them; null before any detection. */
    counts: findingCountsSchema.nullable(),
    /** The session those counts are of. */
    counts_session_id: z.string().nullable(),
    created_at: dateTimestamp,
    updated_at: dateTimestamp,
  })
  .loose();

/** The spec's rule; `enabled` echoes `is_enabled`. */
export const ruleSchema = z
  .object({
    id: z.string(),
    policy_id: z.string(),
    pii_type: z.string(),
    action: z.enum(PRIVACY_ACTIONS),
    is_enabled: z.boolean(),
    enabled: z.boolean(),
    priority: z.number().int(),
    config: jsonObject,
    created_at: dateTimestamp,
  })
  .loose();

/** A session as lists show it. */
export const sessionSummarySchema = z
  .object({
    id: z.string(),
    policy_name: z.string(),
    dataset_name: z.string(),
    status: z.enum(PRIVACY_SESSION_STATUSES),
    pii_found: z.number().int(),
    transformed: z.number().int(),
    /** Findings neither transformed nor excluded (`counts.pending` of the session). */
    pending: z.number().int(),
    /** Findings left out of this session. */
    excluded: z.number().int(),
    created_at: dateTimestamp,
  })
  .loose();

/** The spec's privacy session; progress and its message are those of the job now (or last) moving it. */
export const sessionSchema = sessionSummarySchema.extend({
  project_id: z.string(),
  policy_id: z.string(),
  dataset_id: z.string(),
  dataset_version_id: z.string(),
  sample_size: z.number().int().nullable(),
  deep_scan: z.boolean(),
  counts: findingCountsSchema,
  rows_scanned: z.number().int(),
  columns_analyzed: z.number().int(),
  pii_columns: z.number().int(),
  pii_instances: z.number().int(),
  progress: z.number(),
  progress_message: z.string().nullable(),
  error: z.string().nullable(),
  output_artifact_id: z.string().nullable(),
  job_id: z.string().nullable(),
  detect_job_id: z.string().nullable(),
  transform_job_id: z.string().nullable(),
  updated_at: dateTimestamp,
});

/** A detection result: `sample` is the first masked sample. */
export const resultSchema = z
  .object({
    id: z.string(),
    column: z.string(),
    pii_type: z.string(),
    /** `column`: the column is this type; `cells`: found inside free-text cells. */
    scope: z.enum(['column', 'cells']),
    confidence: z.number(),
    instances: z.number().int(),
    sample: z.string().nullable(),
    samples: z.array(z.string()),
    evidence: z.array(z.string()),
    /** The action this session applies: its override, else the policy's; null: none, the finding stays pending. */
    action: z.string().nullable(),
    /** The policy's action for the type when the session was detected. */
    policy_action: z.string().nullable(),
    /** This session's action instead of the policy's (null: none). */
    action_override: z.string().nullable(),
    /** Left out of this session: never transformed. */
    excluded: z.boolean(),
    transformed: z.boolean(),
  })
  .loose();

export const piiTypeSchema = z.object({ id: z.string(), name: z.string(), category: z.string(), country: z.string().optional(), evidence: z.string() }).loose();

export const actionSchema = z.object({ id: z.enum(PRIVACY_ACTIONS), name: z.string(), description: z.string() }).loose();

export const profileSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    source: z.string(),
    /** One primary type per identifier the regulation lists, in its order. */
    pii_types: z.array(z.string()),
    /** Every engine type the profile covers. */
    covered_types: z.array(z.string()),
    default_action: z.enum(PRIVACY_ACTIONS),
    identifiers: z.array(z.object({ clause: z.string(), label: z.string(), types: z.array(z.string()) }).loose()),
  })
  .loose();

export const sessionReportSchema = z.object({ artifact_id: z.string(), download_url: z.string() });
