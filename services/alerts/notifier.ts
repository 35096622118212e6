import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { DataSource } from 'typeorm';
import { AlertChannel, AlertDelivery, type NotificationReason } from '../../entities';
import type { Mailer } from '../../platform/mail';
import { guardedLookup, isInternalAddress, PRIVATE_TARGET_MESSAGE, urlSyntaxProblem } from './outbound-url';

/**
 * Sends one message to one channel (email, Slack incoming webhook, signed webhook), shared by the channel test route
 * and the delivery activity. A message is an alert's (rendered here) or any other {@link ChannelMessage} (a registry
 * event's, issue 31). A receiver's failure is a result, never an exception: the caller records every attempt
 * ({@link recordAttempt}) and decides whether to retry.
 */

/** What a notification says; the webhook's `data`. `alert` is the alert as the API presents it (a sample for tests). */
export interface AlertMessage {
  reason: NotificationReason;
  alert: Record<string, unknown>;
  rule: { id: string; name: string };
  project: { id: string; name: string };
  deployment?: { id: string; name: string };
  /** The alert in the web UI (APP_BASE_URL). */
  url: string;
}

/**
 * A message as every channel type sends it: the webhook's `type` and `data` (body `{id, type, created_at, data}`), the
 * email's subject and text, the Slack text. Notifications other than alerts store this in the outbox as it is.
 */
export interface ChannelMessage {
  type: string;
  data: unknown;
  subject: string;
  text: string;
  slack_text: string;
}

export interface DeliveryResult {
  delivered: boolean;
  /** The receiver's HTTP status; null for mail, or when no answer came. */
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

export interface DeliverOptions {
  /** The receiver's deduplication key (`Idempotency-Key`, the body's `id`): the notification's id, the same on every attempt. */
  idempotencyKey: string;
  mailer: Mailer;
  /** Default 10 s. */
  timeoutMs?: number;
  now?: Date;
  /** ALERT_ALLOW_PRIVATE_TARGETS: skip the SSRF guard (tests, receivers on a private network). Default false. */
  allowPrivateTargets?: boolean;
}

export const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000;
/** ALERT_CHANNEL_FAILING_AFTER's default. */
export const DEFAULT_FAILING_AFTER = 3;
/** Headers the service sets itself; a webhook channel's extra headers may not name them. */
export const RESERVED_HEADER = /^(host|content-length|content-type|idempotency-key|transfer-encoding|connection|x-mlsvc-.*)$/i;

/** The alert's page in the web UI. */
export function alertUrl(appBaseUrl: string, projectId: string, alertId: string): string {
  return `${appBaseUrl}/app/projects/${projectId}/alerts/${alertId}`;
}

/**
 * The webhook signature (Stripe's scheme): `sha256=` + hex HMAC-SHA256 of `<timestamp>.<raw body>` with the channel's
 * secret. A receiver recomputes it over the bytes it received and the `X-Mlsvc-Timestamp` header, compares in constant
 * time, and refuses old timestamps (replays).
 */
export function webhookSignature(secret: string, timestamp: number, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`;
}

/** The webhook's JSON body: `{id, type, created_at, data}`. */
export function webhookBody(message: AlertMessage, idempotencyKey: string, now: Date): string {
  return channelWebhookBody(renderAlert(message), idempotencyKey, now);
}

function channelWebhookBody(message: ChannelMessage, idempotencyKey: string, now: Date): string {
  return JSON.stringify({ id: idempotencyKey, type: message.type, created_at: now.toISOString(), data: message.data });
}

/** An alert message as the channels send it. */
export function renderAlert(m: AlertMessage): ChannelMessage {
  return { type: `alert.${m.reason}`, data: m, subject: emailSubject(m), text: emailText(m), slack_text: `${summaryLine(m)}\n<${m.url}|Open the alert>` };
}

/** One line: what fired, how far past its threshold, where. */
export function summaryLine(m: AlertMessage): string {
  const a = m.alert;
  const where = m.deployment ? ` on ${m.deployment.name}` : '';
  return `[${String(a.severity ?? '').toUpperCase()}] ${m.rule.name} ${m.reason}${where} (${m.project.name}): ${String(a.metric)} = ${formatValue(a.value)} (${String(a.operator)} ${formatValue(a.threshold)})`;
}

function formatValue(v: unknown): string {
  return typeof v === 'number' ? String(Number(v.toPrecision(6))) : v === null || v === undefined ? 'n/a' : String(v);
}

/** The email's subject: `[<SEVERITY>] <rule name> <reason> (<project>)`. */
export function emailSubject(m: AlertMessage): string {
  return `[${String(m.alert.severity ?? '').toUpperCase()}] ${m.rule.name} ${m.reason} (${m.project.name})`;
}

export function emailText(m: AlertMessage): string {
  const a = m.alert;
  return [
    summaryLine(m),
    '',
    `Metric: ${String(a.metric)}`,
    `Value: ${formatValue(a.value)}${a.estimated ? ' (estimated)' : ''}`,
    `Threshold: ${String(a.operator)} ${formatValue(a.threshold)}`,
    `State: ${String(a.state ?? '')}`,
    ...(m.deployment ? [`Deployment: ${m.deployment.name}`] : []),
    '',
    `Open the alert: ${m.url}`,
  ].join('\n');
}

export function slackBody(m: AlertMessage): string {
  return channelSlackBody(renderAlert(m));
}

function channelSlackBody(m: ChannelMessage): string {
  return JSON.stringify({ text: m.slack_text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: m.slack_text } }] });
}

/** Delivers an alert's `message` to `channel` once. Never throws for the receiver's failure. */
export function deliver(channel: AlertChannel, message: AlertMessage, opts: DeliverOptions): Promise<DeliveryResult> {
  return deliverMessage(channel, renderAlert(message), opts);
}

/** Delivers a rendered message to `channel` once. Never throws for the receiver's failure. */
export async function deliverMessage(channel: AlertChannel, message: ChannelMessage, opts: DeliverOptions): Promise<DeliveryResult> {
  const started = performance.now();
  const done = (r: Omit<DeliveryResult, 'latencyMs'>): DeliveryResult => ({ ...r, latencyMs: Math.round((performance.now() - started) * 1000) / 1000 });
  try {
    const config = channel.config as Record<string, unknown>;
    if (channel.type === 'email') {
      for (const to of (config.recipients as string[]) ?? []) await opts.mailer.send({ to, subject: message.subject, text: message.text });
      return done({ delivered: true, statusCode: null, error: null });
    }
    const now = opts.now ?? new Date();
    if (channel.type === 'slack') {
      return done(await post(String(config.webhook_url), channelSlackBody(message), { 'Content-Type': 'application/json' }, opts, !opts.allowPrivateTargets));
    }
    const body = channelWebhookBody(message, opts.idempotencyKey, now);
    const timestamp = Math.floor(now.getTime() / 1000);
    const headers: Record<string, string> = {
      ...((config.headers as Record<string, string> | undefined) ?? {}),
      'Content-Type': 'application/json',
      'User-Agent': 'mlsvc-alerts/1',
      'X-Mlsvc-Event': message.type,
      'Idempotency-Key': opts.idempotencyKey,
      'X-Mlsvc-Timestamp': String(timestamp),
    };
    if (channel.secret) headers['X-Mlsvc-Signature'] = webhookSignature(channel.secret, timestamp, body);
    return done(await post(String(config.url), body, headers, opts, false));
  } catch (err) {
    return done({ delivered: false, statusCode: null, error: errorText(err) });
  }
}

function errorText(err: unknown): string {
  const text = err instanceof Error ? err.message || err.name : String(err);
  return text.slice(0, 500);
}

/** POSTs `body` once: 2xx delivered; anything else (a redirect too: never followed) failed. */
async function post(target: string, body: string, headers: Record<string, string>, opts: DeliverOptions, httpsOnly: boolean): Promise<Omit<DeliveryResult, 'latencyMs'>> {
  const problem = urlSyntaxProblem(target, { httpsOnly });
  if (problem) return { delivered: false, statusCode: null, error: `Invalid target URL: ${problem}` };
  const url = new URL(target);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // IP literals never reach `lookup`, so the guard checks them here; names are checked as they are resolved.
  if (!opts.allowPrivateTargets && isIP(host) && isInternalAddress(host)) return { delivered: false, statusCode: null, error: PRIVATE_TARGET_MESSAGE };
  const timeoutMs = opts.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (r: Omit<DeliveryResult, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const fail = (err: unknown, statusCode: number | null = null) => settle({ delivered: false, statusCode, error: errorText(err) });
    const req = transport.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        ...(opts.allowPrivateTargets ? {} : { lookup: guardedLookup }),
      },
      (res) => {
        const code = res.statusCode ?? 0;
        // The answer's body is not needed; it is read (bounded by the timer) so the socket is released.
        res.resume();
        res.on('end', () =>
          settle(code >= 200 && code < 300 ? { delivered: true, statusCode: code, error: null } : { delivered: false, statusCode: code, error: `The receiver answered HTTP ${code}` }),
        );
        res.on('error', (err) => fail(err, code));
      },
    );
    // The whole exchange (connect, send, answer) within the timeout, not only the idle time between packets.
    const timer = setTimeout(() => {
      fail(new Error(`No answer within ${timeoutMs} ms`));
      req.destroy();
    }, timeoutMs);
    req.on('error', (err) => fail(err));
    req.end(body);
  });
}

/**
 * Records one delivery attempt and its effect on the channel: a success clears the failure count, the failing mark
 * and the last error; a failure counts, keeps its error, and marks the channel failing once `failingAfter` attempts
 * in a row failed (ALERT_CHANNEL_FAILING_AFTER). One UPDATE, so concurrent deliveries count exactly.
 */
export async function recordAttempt(
  ds: DataSource,
  channel: AlertChannel,
  notificationId: string | null,
  attempt: number,
  result: DeliveryResult,
  failingAfter = DEFAULT_FAILING_AFTER,
): Promise<AlertDelivery> {
  return ds.transaction(async (em) => {
    const row = await em.getRepository(AlertDelivery).save(
      em.getRepository(AlertDelivery).create({
        channelId: channel.id,
        projectId: channel.projectId,
        notificationId,
        attempt,
        status: result.delivered ? 'delivered' : 'failed',
        statusCode: result.statusCode,
        latencyMs: result.latencyMs,
        error: result.error,
      }),
    );
    if (result.delivered) {
      await em.query(`UPDATE alert_channels SET consecutive_failures = 0, failing = false, last_error = NULL, last_delivery_at = now() WHERE id = $1`, [channel.id]);
    } else {
      await em.query(`UPDATE alert_channels SET consecutive_failures = consecutive_failures + 1, failing = failing OR consecutive_failures + 1 >= $3, last_error = $2 WHERE id = $1`, [
        channel.id,
        result.error ?? 'Delivery failed',
        failingAfter,
      ]);
    }
    return row;
  });
}
