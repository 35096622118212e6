import { z } from 'zod';
import { ALERT_EVENTS, ALERT_METRICS, ALERT_OPERATORS, ALERT_SEVERITIES, ALERT_STATES, CHANNEL_TYPES, ESCALATION_SEVERITIES } from '../../entities';
import { dateTimestamp as timestamp, jsonObject } from './common.schema';

/**
 * The JSON shapes of api/presenters/alert.ts, for the OpenAPI document (and through it the web UI's types). Objects
 * stay open (`loose`): clients ignore fields they do not know.
 */

const id = z.string();

export const alertChannelSchema = z
  .object({
    id,
    project_id: id,
    name: z.string(),
    type: z.enum(CHANNEL_TYPES),
    config: jsonObject.meta({ description: 'email: {recipients}; slack: {webhook_url} masked (scheme and host, last 4 characters); webhook: {url, headers?} with header values masked' }),
    has_secret: z.boolean(),
    secret_hint: z.string().nullable().meta({ description: 'The last 4 characters of the signing secret, as `****abcd`' }),
    is_enabled: z.boolean(),
    status: z.enum(['healthy', 'failing', 'untested']),
    consecutive_failures: z.number().int(),
    last_delivery_at: timestamp.nullable(),
    last_error: z.string().nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .loose();

/** The create answer: the channel, and (webhooks) the signing secret, shown this once. */
export const createdAlertChannelSchema = alertChannelSchema.extend({ secret: z.string().optional().meta({ description: 'The webhook signing secret: shown only in this answer' }) }).loose();

export const alertDeliverySchema = z
  .object({
    id,
    notification_id: id.nullable(),
    attempt: z.number().int(),
    status: z.enum(['delivered', 'failed']),
    status_code: z.number().int().nullable(),
    latency_ms: z.number(),
    error: z.string().nullable(),
    created_at: timestamp,
  })
  .loose();

export const channelTestSchema = z.object({ delivered: z.boolean(), status_code: z.number().int().nullable(), latency_ms: z.number(), error: z.string().nullable(), attempt_id: id }).loose();

export const alertRuleSchema = z
  .object({
    id,
    project_id: id,
    name: z.string(),
    description: z.string(),
    deployment_id: id.nullable(),
    metric: z.enum(ALERT_METRICS),
    operator: z.enum(ALERT_OPERATORS),
    threshold: z.number(),
    window_minutes: z.number().int(),
    min_samples: z.number().int(),
    severity: z.enum(ALERT_SEVERITIES),
    channel_ids: z.array(id),
    cooldown_minutes: z.number().int(),
    escalation_minutes: z.number().int().nullable(),
    escalation_severity: z.enum(ESCALATION_SEVERITIES).nullable(),
    labels: z.record(z.string(), z.string()),
    is_enabled: z.boolean(),
    created_by: id.nullable(),
    created_at: timestamp,
    updated_at: timestamp,
    last_evaluated_at: timestamp.nullable(),
  })
  .loose();

const measured = { value: z.number().nullable(), samples: z.number().int(), estimated: z.boolean(), would_fire: z.boolean() };
export const ruleTestSchema = z.object({ ...measured, deployments: z.array(z.object({ deployment_id: id.nullable(), ...measured }).loose()) }).loose();

export const alertSchema = z
  .object({
    id,
    project_id: id,
    rule_id: id,
    rule_name: z.string().nullable(),
    deployment_id: id.nullable(),
    fingerprint: z.string(),
    labels: z.record(z.string(), z.string()),
    metric: z.enum(ALERT_METRICS),
    operator: z.enum(ALERT_OPERATORS),
    threshold: z.number(),
    state: z.enum(ALERT_STATES),
    severity: z.enum(ALERT_SEVERITIES),
    value: z.number().nullable(),
    estimated: z.boolean(),
    samples: z.number().int(),
    first_seen_at: timestamp,
    last_seen_at: timestamp,
    last_notified_at: timestamp.nullable(),
    notification_count: z.number().int(),
    escalated_at: timestamp.nullable(),
    silenced: z.boolean(),
    acknowledged_by: id.nullable(),
    acknowledged_at: timestamp.nullable(),
    resolved_by: id.nullable(),
    resolved_at: timestamp.nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .loose();

export const alertEventSchema = z
  .object({
    id,
    alert_id: id,
    rule_id: id,
    event: z.enum(ALERT_EVENTS),
    from_state: z.enum(ALERT_STATES).nullable(),
    to_state: z.enum(ALERT_STATES),
    severity: z.enum(ALERT_SEVERITIES),
    value: z.number().nullable(),
    actor_id: id.nullable(),
    detail: jsonObject,
    created_at: timestamp,
  })
  .loose();

const matchersSchema = z
  .object({ rule_id: id.optional(), deployment_id: id.optional(), metric: z.string().optional(), severity: z.string().optional(), labels: z.record(z.string(), z.string()).optional() })
  .loose();
const recurrenceSchema = z.object({ days_of_week: z.array(z.number().int()), start_time: z.string(), end_time: z.string(), timezone: z.string() }).loose();

export const alertSuppressionSchema = z
  .object({
    id,
    project_id: id,
    comment: z.string(),
    matchers: matchersSchema,
    starts_at: timestamp,
    ends_at: timestamp.nullable(),
    recurrence: recurrenceSchema.nullable(),
    state: z.enum(['pending', 'active', 'expired']),
    created_by: id.nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .loose();
