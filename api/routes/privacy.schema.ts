import { z } from 'zod';
import { piiTypes } from '../../engine/privacy';
import { POLICY_STATUSES, PRIVACY_ACTIONS, PRIVACY_PROFILES } from '../../entities';
import { freeJsonObject, INT4_MAX, nonBlank, pageQuery, queryBool, uuidParam } from '../validation';

/** The request schemas of the privacy routes (api/routes/privacy.ts). */

const MAX_SETTING_KEYS = 100;
const MAX_CONFIG_KEYS = 20;

const settings = freeJsonObject({ maxKeys: MAX_SETTING_KEYS, maxKeyLength: 200, noun: 'settings' });
/** An action's settings; which keys and values fit is checked against the action (services/privacy/rule-config.ts). */
const ruleConfig = z
  .record(z.string().min(1).max(100), z.union([z.string().max(1000), z.number(), z.boolean(), z.null()]))
  .refine((o) => Object.keys(o).length <= MAX_CONFIG_KEYS, { message: `At most ${MAX_CONFIG_KEYS} settings` })
  .meta({ maxProperties: MAX_CONFIG_KEYS });
const priority = z.number().int().min(-INT4_MAX).max(INT4_MAX);
/** The type is checked against the engine's ids (422 naming it); the bound keeps an answer that names it short. */
const piiType = z
  .string()
  .min(1)
  .max(100)
  .meta({ enum: piiTypes().map((t) => t.id) });

export const policyParams = z.object({ policy_id: uuidParam });
export const ruleParams = z.object({ policy_id: uuidParam, rule_id: uuidParam });
export const sessionParams = z.object({ session_id: uuidParam });

// --- policies

export const createPolicyBody = z.object({
  project_id: uuidParam,
  name: nonBlank(200),
  description: z.string().max(2000).nullable().optional(),
  profile: z.enum(PRIVACY_PROFILES).optional(),
  status: z.enum(POLICY_STATUSES).optional(),
  settings: settings.optional(),
});
export const policyListQuery = pageQuery().extend({ project_id: uuidParam.optional(), status: z.enum(POLICY_STATUSES).optional() });
export const patchPolicyBody = z.object({
  name: nonBlank(200).optional(),
  description: z.string().max(2000).nullable().optional(),
  profile: z.enum(PRIVACY_PROFILES).optional(),
  status: z.enum(POLICY_STATUSES).optional(),
  settings: settings.optional(),
});

// --- rules

export const createRuleBody = z.object({ pii_type: piiType, action: z.enum(PRIVACY_ACTIONS), is_enabled: z.boolean().optional(), priority: priority.optional(), config: ruleConfig.optional() });
export const patchRuleBody = z.object({
  pii_type: piiType.optional(),
  action: z.enum(PRIVACY_ACTIONS).optional(),
  is_enabled: z.boolean().optional(),
  priority: priority.optional(),
  config: ruleConfig.optional(),
});

// --- sessions

export const createSessionBody = z.object({
  policy_id: uuidParam,
  dataset_id: uuidParam.optional(),
  dataset_version_id: uuidParam.optional(),
  project_id: uuidParam.optional(),
  sample_size: z.number().int().min(1).max(INT4_MAX).nullable().optional(),
  deep_scan: z.boolean().optional(),
});
export const sessionListQuery = pageQuery().extend({ project_id: uuidParam.optional(), policy_id: uuidParam.optional() });
export const sessionResultsQuery = z.object({ pii_type: piiType.optional(), confidence: z.enum(['high', 'medium', 'low']).optional() });
export const sessionReportQuery = z.object({ ai_insights: queryBool.optional() });
export const findingParams = z.object({ session_id: uuidParam, finding_id: uuidParam });
/** A per-session override of one finding; at least one field (services/privacy/sessions.ts). */
export const findingOverrideBody = z
  .object({
    /** true: leave the finding out of this session (never transformed); false: take it back. */
    excluded: z.boolean().optional(),
    /** The action for this finding in this session instead of the policy's; null: the policy's again. */
    action: z.enum(PRIVACY_ACTIONS).nullable().optional(),
  })
  .strict()
  .refine((b) => b.excluded !== undefined || b.action !== undefined, { message: 'Send excluded, action or both' })
  // The refinement, as the OpenAPI document can say it.
  .meta({ minProperties: 1 });
