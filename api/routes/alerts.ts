import { z } from 'zod';
import { callerId, type RouteDeps } from '../context';
import { presentAlert, presentAlertChannel, presentAlertDelivery, presentAlertEvent, presentAlertRule, presentAlertSuppression } from '../presenters/alert';
import {
  alertChannelSchema,
  alertDeliverySchema,
  alertEventSchema,
  alertRuleSchema,
  alertSchema,
  alertSuppressionSchema,
  channelTestSchema,
  createdAlertChannelSchema,
  ruleTestSchema,
} from '../presenters/alert.schema';
import { pageOf } from '../presenters/page.schema';
import { route, RouteDef } from '../route';
import { pageQuery, uuidParam } from '../validation';
import {
  alertActionBody,
  alertHistoryQuery,
  alertListQuery,
  createChannelBody,
  createRuleBody,
  createSuppressionBody,
  patchChannelBody,
  patchRuleBody,
  patchSuppressionBody,
  projectHistoryQuery,
  ruleListQuery,
  suppressionListQuery,
} from './alerts.schema';

const projectParams = z.object({ project_id: uuidParam });
const channelParams = z.object({ channel_id: uuidParam });
const ruleParams = z.object({ rule_id: uuidParam });
const alertParams = z.object({ alert_id: uuidParam });
const suppressionParams = z.object({ suppression_id: uuidParam });

const READ = 'read:deployments' as const;
const WRITE = 'write:deployments' as const;
const deleted = { 204: { description: 'Deleted (no body)', contentType: [] } };

/**
 * Alerts (prefix /api/mlops): channels, rules, alerts and their history, suppressions. Project members read, editors
 * and owners change; an API key needs `read:deployments` or `write:deployments`. A resource of a project the caller
 * is not a member of is its own 404.
 */
export function alertRoutes({ services }: RouteDeps): RouteDef[] {
  const { alertChannels: channels, alertRules: rules, alerts, alertSuppressions: suppressions } = services;
  const tag = 'alerts';
  const tagged = { tag, auth: 'user' as const };

  return [
    // --- channels
    route({
      ...tagged,
      method: 'post',
      path: '/api/mlops/projects/:project_id/channels',
      scope: WRITE,
      params: projectParams,
      summary:
        'Add a notification channel: `email` (recipients, sent through the service SMTP), `slack` (an incoming-webhook https URL) or `webhook` (an http(s) URL, signed). Webhook deliveries are POSTs of `{id, type: "alert.<reason>", created_at, data}` with `Idempotency-Key` (the same on every retry), `X-Mlsvc-Timestamp` (unix seconds) and `X-Mlsvc-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>" with the secret>`: verify it over the raw bytes, compare in constant time, refuse old timestamps. URLs with credentials, other schemes, or hosts resolving to private addresses are refused',
      body: createChannelBody,
      responses: {
        201: { description: 'The channel; for a webhook, `secret` (shown only here)', schema: createdAlertChannelSchema },
        404: { description: 'Project not found' },
        422: { description: 'A config field (named), a URL with credentials, another scheme or a private address, a secret on a non-webhook channel' },
      },
      handler: async (ctx, { params, body }) => {
        const { channel, secret } = await channels.create(callerId(ctx), params.project_id, body);
        ctx.status = 201;
        return { ...presentAlertChannel(channel), ...(secret === null ? {} : { secret }) };
      },
    }),
    route({
      ...tagged,
      method: 'get',
      path: '/api/mlops/projects/:project_id/channels',
      scope: READ,
      params: projectParams,
      query: pageQuery(200),
      summary: "The project's channels, newest first (credentials masked)",
      responses: { 200: { description: 'List envelope of channels', schema: pageOf(alertChannelSchema) }, 404: { description: 'Project not found' } },
      handler: async (ctx, { params, query }) => {
        const page = await channels.list(callerId(ctx), params.project_id, query);
        return { ...page, items: page.items.map(presentAlertChannel) };
      },
    }),
    route({
      ...tagged,
      method: 'get',
      path: '/api/mlops/alerts/channels/:channel_id',
      scope: READ,
      params: channelParams,
      summary: 'A channel (credentials masked), with its delivery health',
      responses: { 200: { description: 'The channel', schema: alertChannelSchema }, 404: { description: 'Channel not found' } },
      handler: async (ctx, { params }) => presentAlertChannel(await channels.get(callerId(ctx), params.channel_id)),
    }),
    route({
      ...tagged,
      method: 'patch',
      path: '/api/mlops/alerts/channels/:channel_id',
      scope: WRITE,
      params: channelParams,
      summary: "Rename, reconfigure (the whole config of the channel's type), rotate the secret (webhooks) or enable/disable a channel",
      body: patchChannelBody,
      responses: {
        200: { description: 'The channel', schema: alertChannelSchema },
        404: { description: 'Channel not found' },
        422: { description: "A config field for the channel's type (named), a refused URL, a secret on a non-webhook channel" },
      },
      handler: async (ctx, { params, body }) => presentAlertChannel(await channels.update(callerId(ctx), params.channel_id, body)),
    }),
    route({
      ...tagged,
      method: 'delete',
      path: '/api/mlops/alerts/channels/:channel_id',
      scope: WRITE,
      params: channelParams,
      summary: "Delete a channel (it is taken out of the project's rules)",
      responses: { ...deleted, 404: { description: 'Channel not found' } },
      handler: async (ctx, { params }) => {
        await channels.remove(callerId(ctx), params.channel_id);
        ctx.status = 204;
        return undefined;
      },
    }),
    route({
      ...tagged,
      method: 'post',
      path: '/api/mlops/alerts/channels/:channel_id/test',
      scope: WRITE,
      params: channelParams,
      summary: 'Send a real test message (one attempt, 10 s timeout), recorded among the deliveries; a receiver that fails is an answer, not an error',
      responses: { 200: { description: '{delivered, status_code, latency_ms, error, attempt_id}', schema: channelTestSchema }, 404: { description: 'Channel not found' } },
      handler: async (ctx, { params }) => channels.test(callerId(ctx), params.channel_id),
    }),
    route({
      ...tagged,
      method: 'get',
      path: '/api/mlops/alerts/channels/:channel_id/deliveries',
      scope: READ,
      params: channelParams,
      query: pageQuery(500),
      summary: "The channel's delivery attempts (notifications and tests), newest first",
      responses: { 200: { description: 'List envelope of attempts', schema: pageOf(alertDeliverySchema) }, 404: { description: 'Channel not found' } },
      handler: async (ctx, { params, query }) => {
        const page = await channels.deliveries(callerId(ctx), params.channel_id, query);
        return { ...page, items: page.items.map(presentAlertDelivery) };
      },
    }),

    // --- rules
    route({
      ...tagged,
      method: 'post',
      path: '/api/mlops/projects/:project_id/alert-rules',
      scope: WRITE,
      params: projectParams,
      summary:
        'Add an alert rule: `metric` `operator` `threshold` over the last `window_minutes` (with at least `min_samples` observations), for one deployment or every deployment of the project; notifies its channels, at most once per `cooldown_minutes` while firing, and again raised to `escalation_severity` after `escalation_minutes`',
      body: createRuleBody,
      responses: {
        201: { description: 'The rule', schema: alertRuleSchema },
        404: { description: 'Project not found, Deployment not found (not of the project), Channel not found (not of the project)' },
        422: { description: 'A field (named); escalation_severity without escalation_minutes, missing with them, or not above severity' },
      },
      handler: async (ctx, { params, body }) => {
        const rule = await rules.create(callerId(ctx), params.project_id, body);
        ctx.status = 201;
        return presentAlertRule(rule);
      },
    }),
    route({
      ...tagged,
      method: 'get',
      path: '/api/mlops/projects/:project_id/alert-rules',
      scope: READ,
      params: projectParams,
      query: ruleListQuery,
      summary: "The project's alert rules, newest first (filters: metric, deployment_id, is_enabled)",
      responses: { 200: { description: 'List envelope of rules', schema: pageOf(alertRuleSchema) }, 404: { description: 'Project not found' } },
      handler: async (ctx, { params, query }) => {
        const page = await rules.list(callerId(ctx), params.project_id, query);
        return { ...page, items: page.items.map(presentAlertRule) };
      },
    }),
    route({
      ...tagged,
      method: 'get',
      path: '/api/mlops/alerts/rules/:rule_id',
      scope: READ,
      params: ruleParams,
      summary: 'An alert rule',
      responses: { 200: { description: 'The rule', schema: alertRuleSchema }, 404: { description: 'Alert rule not found' } },
      handler: async (ctx, { params }) => presentAlertRule(await rules.get(callerId(ctx), params.rule_id)),
    }),
    route({
      ...tagged,
      method: 'patch',
      path: '/api/mlops/alerts/rules/:rule_id',
      scope: WRITE,
      params: ruleParams,
      summary: 'Change an alert rule (what is not sent is kept; null clears deployment_id and the escalation)',
      body: patchRuleBody,
      responses: {
        200: { description: 'The rule', schema: alertRuleSchema },
        404: { description: 'Alert rule not found, Deployment not found, Channel not found' },
        422: { description: 'A field (named); an escalation inconsistent with the rule as it would be' },
      },
      handler: async (ctx, { params, body }) => presentAlertRule(await rules.update(callerId(ctx), params.rule_id, body)),
    }),
    route({
      ...tagged,
      method: 'delete',
      path: '/api/mlops/alerts/rules/:rule_id',
      scope: WRITE,
      params: ruleParams,
      summary: 'Delete an alert rule with its alerts and their history',
      responses: { ...deleted, 404: { description: 'Alert rule not found' } },
      handler: async (ctx, { params }) => {
        await rules.remove(callerId(ctx), params.rule_id);
        ctx.status = 204;
        return undefined;
      },
    }),
    route({
      ...tagged,
      method: 'post',
      path: '/api/mlops/alerts/rules/:rule_id/test',
      scope: READ,
      params: ruleParams,
      summary: 'Evaluate the rule now, as the next evaluation would (nothing is written or sent): the value per deployment and whether it would fire',
      responses: {
        200: { description: '{value, samples, estimated, would_fire, deployments: [{deployment_id, value, samples, estimated, would_fire}]}', schema: ruleTestSchema },
        404: { description: 'Alert rule not found' },
      },
      handler: async (ctx, { params }) => rules.test(callerId(ctx), params.rule_id),
    }),

    // --- alerts
    route({
      ...tagged,
      method: 'get',
      path: '/api/mlops/projects/:project_id/alerts',
      scope: READ,
      params: projectParams,
      query: alertListQuery,
      summary: "The project's alerts, most recently seen first (filters: state, severity, deployment_id, rule_id)",
      responses: { 200: { description: 'List envelope of alerts', schema: pageOf(alertSchema) }, 404: { description: 'Project not found' } },
      handler: async (ctx, { params, query }) => {
        const page = await alerts.list(callerId(ctx), params.project_id, query);
        return { ...page, items: page.items.map((a) => presentAlert(a.alert, a.ruleName)) };
      },
    }),
    route({
      ...tagged,
      method: 'get',
      path: '/api/mlops/alerts/history',
      scope: READ,
      query: projectHistoryQuery,
      summary: "A project's alert history (every change and notification), newest first (filters: alert_id, rule_id, event)",
      responses: { 200: { description: 'List envelope of history events', schema: pageOf(alertEventSchema) }, 404: { description: 'Project not found' } },
      handler: async (ctx, { query }) => {
        const page = await alerts.history(callerId(ctx), query.project_id, query);
        return { ...page, items: page.items.map(presentAlertEvent) };
      },
    }),

    // --- suppressions (before /alerts/:alert_id, which would take their path segment for an id)
    route({
      ...tagged,
      method: 'post',
      path: '/api/mlops/alerts/suppressions',
      scope: WRITE,
      summary:
        'Silence alerts: matchers on rule, deployment, metric, severity and labels (every one given must match), from starts_at (default now) to ends_at (open-ended without), optionally only inside a weekly window in an IANA time zone. Silenced alerts still change state; nobody is notified and the history says so',
      body: createSuppressionBody,
      responses: {
        201: { description: 'The suppression, with its state now', schema: alertSuppressionSchema },
        404: { description: 'Project not found, Alert rule not found, Deployment not found (a matcher outside the project)' },
        422: { description: 'A field (named): no matcher, ends_at not after starts_at, an unknown time zone, days not distinct' },
      },
      handler: async (ctx, { body }) => {
        const { project_id, ...fields } = body;
        const s = await suppressions.create(callerId(ctx), project_id, fields);
        ctx.status = 201;
        return presentAlertSuppression(s);
      },
    }),
    route({
      ...tagged,
      method: 'get',
      path: '/api/mlops/alerts/suppressions',
      scope: READ,
      query: suppressionListQuery,
      summary: "A project's suppressions, newest first (filter: state now, pending, active or expired)",
      responses: { 200: { description: 'List envelope of suppressions', schema: pageOf(alertSuppressionSchema) }, 404: { description: 'Project not found' } },
      handler: async (ctx, { query }) => {
        const now = new Date();
        const page = await suppressions.list(callerId(ctx), query.project_id, query, now);
        return { ...page, items: page.items.map((s) => presentAlertSuppression(s, now)) };
      },
    }),
    route({
      ...tagged,
      method: 'get',
      path: '/api/mlops/alerts/suppressions/:suppression_id',
      scope: READ,
      params: suppressionParams,
      summary: 'A suppression, with its state now',
      responses: { 200: { description: 'The suppression', schema: alertSuppressionSchema }, 404: { description: 'Suppression not found' } },
      handler: async (ctx, { params }) => presentAlertSuppression(await suppressions.get(callerId(ctx), params.suppression_id)),
    }),
    route({
      ...tagged,
      method: 'patch',
      path: '/api/mlops/alerts/suppressions/:suppression_id',
      scope: WRITE,
      params: suppressionParams,
      summary: 'Change a suppression (what is not sent is kept; null clears ends_at or the recurrence)',
      body: patchSuppressionBody,
      responses: {
        200: { description: 'The suppression', schema: alertSuppressionSchema },
        404: { description: 'Suppression not found, Alert rule not found, Deployment not found' },
        422: { description: 'A field (named); ends_at not after starts_at' },
      },
      handler: async (ctx, { params, body }) => presentAlertSuppression(await suppressions.update(callerId(ctx), params.suppression_id, body)),
    }),
    route({
      ...tagged,
      method: 'delete',
      path: '/api/mlops/alerts/suppressions/:suppression_id',
      scope: WRITE,
      params: suppressionParams,
      summary: 'Delete a suppression',
      responses: { ...deleted, 404: { description: 'Suppression not found' } },
      handler: async (ctx, { params }) => {
        await suppressions.remove(callerId(ctx), params.suppression_id);
        ctx.status = 204;
        return undefined;
      },
    }),

    // --- one alert
    route({
      ...tagged,
      method: 'get',
      path: '/api/mlops/alerts/:alert_id',
      scope: READ,
      params: alertParams,
      summary: 'An alert',
      responses: { 200: { description: 'The alert', schema: alertSchema }, 404: { description: 'Alert not found' } },
      handler: async (ctx, { params }) => {
        const a = await alerts.get(callerId(ctx), params.alert_id);
        return presentAlert(a.alert, a.ruleName);
      },
    }),
    route({
      ...tagged,
      method: 'post',
      path: '/api/mlops/alerts/:alert_id/acknowledge',
      scope: WRITE,
      params: alertParams,
      summary: 'Acknowledge a firing alert: people are on it (it still resolves when the condition clears)',
      body: alertActionBody,
      responses: { 200: { description: 'The alert', schema: alertSchema }, 404: { description: 'Alert not found' }, 409: { description: 'Alert is not firing' } },
      handler: async (ctx, { params, body }) => {
        const a = await alerts.acknowledge(callerId(ctx), params.alert_id, body.comment);
        return presentAlert(a.alert, a.ruleName);
      },
    }),
    route({
      ...tagged,
      method: 'post',
      path: '/api/mlops/alerts/:alert_id/resolve',
      scope: WRITE,
      params: alertParams,
      summary: 'Resolve a firing or acknowledged alert by hand (it fires again if the condition still holds at the next evaluation)',
      body: alertActionBody,
      responses: { 200: { description: 'The alert', schema: alertSchema }, 404: { description: 'Alert not found' }, 409: { description: 'Alert is already resolved' } },
      handler: async (ctx, { params, body }) => {
        const a = await alerts.resolve(callerId(ctx), params.alert_id, body.comment);
        return presentAlert(a.alert, a.ruleName);
      },
    }),
    route({
      ...tagged,
      method: 'get',
      path: '/api/mlops/alerts/:alert_id/history',
      scope: READ,
      params: alertParams,
      query: alertHistoryQuery,
      summary: "An alert's history (every change and notification), newest first",
      responses: { 200: { description: 'List envelope of history events', schema: pageOf(alertEventSchema) }, 404: { description: 'Alert not found' } },
      handler: async (ctx, { params, query }) => {
        const page = await alerts.alertHistory(callerId(ctx), params.alert_id, query);
        return { ...page, items: page.items.map(presentAlertEvent) };
      },
    }),
  ];
}
