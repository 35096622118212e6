import { z } from 'zod';
import { POLICY_STATUSES, PRIVACY_ACTIONS, PRIVACY_PROFILES, PRIVACY_SESSION_STATUSES } from '../../entities';
import { dateTimestamp, jsonObject } from './common.schema';

/**
 * The JSON shapes of api/presenters/privacy.ts and the privacy routes, for the OpenAPI document and through it the
 * web UI's generated types. Objects stay open (`loose`): a client ignores fields it does not know.
 */

/** The spec's privacy policy with its compliance figures (services/privacy/effective-rules.ts). */
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
    /** Distinct PII types found by the policy's latest completed detection. */
    detected_count: z.number().int(),
    /** Of those, the types the policy transforms. */
    protected_count: z.number().int(),
    pending_count: z.number().int(),
    /** protected / detected as a percentage (100 when the detection found nothing); null before any detection. */
    compliance_score: z.number().nullable(),
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
  pending: z.number().int(),
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
    /** The action the policy applies to the type; null: none, the finding is pending. */
    action: z.string().nullable(),
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
