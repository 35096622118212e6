import { z } from 'zod';
import { ALERT_EVENTS, ALERT_METRICS, ALERT_OPERATORS, ALERT_SEVERITIES, ALERT_STATES, ESCALATION_SEVERITIES } from '../../entities';
import { CHANNEL_CONFIG_SCHEMAS, SECRET_LENGTH } from '../../services/alerts/channel-config';
import { isValidTimeZone, SUPPRESSION_STATES } from '../../services/alerts/suppressions';
import { nonBlank, pageQuery, queryBool, timestampParam, uuidParam } from '../validation';

/**
 * The request schemas of the alert routes (api/routes/alerts.ts). What a schema cannot see (a deployment or channel
 * of the project, escalation above the severity on the rule as it will be, a URL's address) the services check.
 */

// --- channels

const secret = z.string().min(SECRET_LENGTH.min).max(SECRET_LENGTH.max).meta({ description: 'The webhook signing key (16-256 characters); generated when absent and shown once' });
const channelCommon = { name: nonBlank(200), is_enabled: z.boolean().optional() };

/** The type decides the config (and only webhooks take a secret). */
export const createChannelBody = z.discriminatedUnion('type', [
  z.object({ ...channelCommon, type: z.literal('email'), config: CHANNEL_CONFIG_SCHEMAS.email }).strict(),
  z.object({ ...channelCommon, type: z.literal('slack'), config: CHANNEL_CONFIG_SCHEMAS.slack.meta({ description: 'webhook_url: a Slack incoming-webhook https URL' }) }).strict(),
  z
    .object({
      ...channelCommon,
      type: z.literal('webhook'),
      config: CHANNEL_CONFIG_SCHEMAS.webhook.meta({ description: 'url: the http(s) receiver; headers: up to 20 extra headers (no Host, Content-*, Idempotency-Key or X-Mlsvc-*)' }),
      secret: secret.optional(),
    })
    .strict(),
]);

export const patchChannelBody = z
  .object({
    name: nonBlank(200).optional(),
    config: z.record(z.string(), z.unknown()).optional().meta({ description: "The whole config for the channel's type (masked values sent back unchanged keep the stored ones)" }),
    secret: secret.optional().meta({ description: 'A new signing key (webhooks only)' }),
    is_enabled: z.boolean().optional(),
  })
  .strict();

// --- rules

const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]{0,62}$/;
export const MAX_LABELS = 20;

/**
 * Labels as Prometheus names them: up to 20, names `[a-zA-Z_][a-zA-Z0-9_]{0,62}`, values up to 200 characters. Names
 * are checked here rather than by the record's key schema, so a refusal says what a name must look like.
 */
export const labels = z
  .record(z.string(), z.string().max(200))
  .superRefine((l, ctx) => {
    for (const k of Object.keys(l)) if (!LABEL_NAME.test(k)) ctx.addIssue({ code: 'custom', path: [k], message: 'Label names match ^[a-zA-Z_][a-zA-Z0-9_]{0,62}$' });
    if (Object.keys(l).length > MAX_LABELS) ctx.addIssue({ code: 'custom', message: `At most ${MAX_LABELS} labels` });
  })
  // Under allOf: the document adds its own key pattern (no NUL) beside this one.
  .meta({ maxProperties: MAX_LABELS, propertyNames: { allOf: [{ pattern: LABEL_NAME.source }] } });

const minutes = z.number().int().min(1).max(1440);
const ruleFields = {
  name: nonBlank(200),
  description: z.string().max(2000),
  deployment_id: uuidParam.nullable().meta({ description: 'One deployment of the project; null or absent: every deployment not archived' }),
  metric: z.enum(ALERT_METRICS),
  operator: z.enum(ALERT_OPERATORS),
  threshold: z.number().meta({ description: 'A finite number' }),
  window_minutes: z.number().int().min(1).max(10080),
  min_samples: z.number().int().min(1).max(1_000_000),
  severity: z.enum(ALERT_SEVERITIES),
  channel_ids: z.array(uuidParam).max(20).meta({ description: 'Channels of the project (404 `Channel not found` otherwise)' }),
  cooldown_minutes: minutes,
  escalation_minutes: minutes.nullable().meta({ description: 'Still firing (or acknowledged) this long: raised to escalation_severity and notified again' }),
  escalation_severity: z.enum(ESCALATION_SEVERITIES).nullable().meta({ description: 'Required with escalation_minutes (refused without), above severity' }),
  labels,
  is_enabled: z.boolean(),
};

export const createRuleBody = z
  .object({
    name: ruleFields.name,
    description: ruleFields.description.default(''),
    deployment_id: ruleFields.deployment_id.optional(),
    metric: ruleFields.metric,
    operator: ruleFields.operator,
    threshold: ruleFields.threshold,
    window_minutes: ruleFields.window_minutes.default(60),
    min_samples: ruleFields.min_samples.default(1),
    severity: ruleFields.severity.default('warning'),
    channel_ids: ruleFields.channel_ids.default([]),
    cooldown_minutes: ruleFields.cooldown_minutes.default(60),
    // Absent is no escalation (null only clears one, on PATCH).
    escalation_minutes: minutes.optional().meta({ description: 'Still firing (or acknowledged) this long: raised to escalation_severity and notified again' }),
    escalation_severity: z.enum(ESCALATION_SEVERITIES).optional().meta({ description: 'Required with escalation_minutes (refused without), above severity' }),
    labels: ruleFields.labels.default({}),
    is_enabled: ruleFields.is_enabled.default(true),
  })
  .strict();

export const patchRuleBody = z.object(ruleFields).partial().strict();

export const ruleListQuery = pageQuery(200).extend({ metric: z.enum(ALERT_METRICS).optional(), deployment_id: uuidParam.optional(), is_enabled: queryBool.optional() });

// --- alerts

export const alertListQuery = pageQuery(200).extend({
  state: z.enum(ALERT_STATES).optional(),
  severity: z.enum(ALERT_SEVERITIES).optional(),
  deployment_id: uuidParam.optional(),
  rule_id: uuidParam.optional(),
});

export const alertActionBody = z.object({ comment: z.string().max(2000).optional() }).strict();

export const alertHistoryQuery = pageQuery(500).extend({ rule_id: uuidParam.optional(), event: z.enum(ALERT_EVENTS).optional() });
export const projectHistoryQuery = alertHistoryQuery.extend({ project_id: uuidParam, alert_id: uuidParam.optional() });

// --- suppressions

const matchers = z
  .object({
    rule_id: uuidParam.optional(),
    deployment_id: uuidParam.optional(),
    metric: z.enum(ALERT_METRICS).optional(),
    severity: z.enum(ALERT_SEVERITIES).optional(),
    labels: labels.optional(),
  })
  .strict()
  .refine((m) => Object.values(m).some((v) => v !== undefined), 'At least one matcher (rule_id, deployment_id, metric, severity or labels)')
  .meta({ minProperties: 1 });

const clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'A time as HH:MM (00:00-23:59)');

const recurrence = z
  .object({
    days_of_week: z
      .array(z.number().int().min(0).max(6))
      .min(1)
      .max(7)
      .refine((d) => new Set(d).size === d.length, 'Days must be distinct')
      .meta({ uniqueItems: true, description: 'Days the window starts on, 0 = Sunday' }),
    start_time: clock,
    end_time: clock.meta({ description: 'At or before start_time: the window runs through midnight' }),
    timezone: z.string().max(100).refine(isValidTimeZone, 'Unknown time zone (an IANA name such as Europe/Paris)').meta({ description: 'An IANA time zone' }),
  })
  .strict();

const suppressionFields = {
  comment: z.string().max(2000),
  matchers,
  starts_at: timestampParam.meta({ description: 'Default: now' }),
  ends_at: timestampParam.nullable().meta({ description: 'After starts_at; null: until deleted' }),
  recurrence: recurrence.nullable().meta({ description: 'A weekly window in a time zone; the suppression is active only inside it' }),
};

export const createSuppressionBody = z
  .object({
    project_id: uuidParam,
    comment: suppressionFields.comment.optional(),
    matchers: suppressionFields.matchers,
    starts_at: suppressionFields.starts_at.optional(),
    ends_at: suppressionFields.ends_at.optional(),
    recurrence: suppressionFields.recurrence.optional(),
  })
  .strict();

export const patchSuppressionBody = z.object(suppressionFields).partial().strict();

export const suppressionListQuery = pageQuery(200).extend({ project_id: uuidParam, state: z.enum(SUPPRESSION_STATES).optional() });
