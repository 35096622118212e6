import { z } from 'zod';
import { getOwn, setOwn } from '../../engine/own-keys';
import type { ChannelType } from '../../entities';
import { ValidationError, type FieldIssue } from '../errors';
import { RESERVED_HEADER } from './notifier';
import { outboundUrlProblem } from './outbound-url';

/**
 * What each channel type's `config` holds, how it is checked (shape, then the SSRF guard on its URL), and how answers
 * mask it: a Slack incoming-webhook URL is itself a credential, and so may be a webhook's extra header (a token).
 */

const MAX_URL = 2000;
export const MAX_RECIPIENTS = 20;
export const MAX_HEADERS = 20;
export const SECRET_LENGTH = { min: 16, max: 256 } as const;

const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;
// No control characters (CR/LF would split headers).
// eslint-disable-next-line no-control-regex
const HEADER_VALUE = /^[^\u0000-\u001f\u007f]{0,1000}$/;

const email = z.email().max(253);

export const CHANNEL_CONFIG_SCHEMAS = {
  email: z.object({ recipients: z.array(email).min(1).max(MAX_RECIPIENTS) }).strict(),
  slack: z.object({ webhook_url: z.string().max(MAX_URL) }).strict(),
  webhook: z
    .object({
      url: z.string().max(MAX_URL),
      headers: z
        .record(z.string(), z.string().regex(HEADER_VALUE, 'At most 1000 characters, no control characters'))
        .superRefine((h, ctx) => {
          for (const k of Object.keys(h)) {
            if (!HEADER_NAME.test(k)) ctx.addIssue({ code: 'custom', path: [k], message: 'Must be an HTTP header name' });
            else if (RESERVED_HEADER.test(k)) ctx.addIssue({ code: 'custom', path: [k], message: 'The service sets this header itself' });
          }
          if (Object.keys(h).length > MAX_HEADERS) ctx.addIssue({ code: 'custom', message: `At most ${MAX_HEADERS} headers` });
        })
        .meta({ maxProperties: MAX_HEADERS, propertyNames: { allOf: [{ pattern: HEADER_NAME.source }] } })
        .optional(),
    })
    .strict(),
} as const;

export type ChannelConfig = { recipients: string[] } | { webhook_url: string } | { url: string; headers?: Record<string, string> };

/** `config` checked for `type` (422 naming each field at `loc`), its URL through the SSRF guard. */
export async function checkedChannelConfig(type: ChannelType, config: unknown, allowPrivate: boolean, loc: (string | number)[] = ['body', 'config']): Promise<ChannelConfig> {
  const r = CHANNEL_CONFIG_SCHEMAS[type].safeParse(config);
  if (!r.success) throw new ValidationError(r.error.issues.map((i): FieldIssue => ({ loc: [...loc, ...i.path.map((p) => (typeof p === 'symbol' ? String(p) : p))], msg: i.message, type: i.code })));
  const c = r.data as Record<string, unknown>;
  if (type === 'email') return { recipients: [...new Set((c.recipients as string[]).map((a) => a.trim()))] };
  const key = type === 'slack' ? 'webhook_url' : 'url';
  // Slack URLs are https, except where private targets are allowed: Slack-compatible receivers on a private network
  // (Mattermost, Rocket.Chat) often speak plain http, and so do the tests' receivers.
  const problem = await outboundUrlProblem(String(c[key]), { allowPrivate, httpsOnly: type === 'slack' && !allowPrivate });
  if (problem) throw ValidationError.field([...loc, key], problem);
  return c as ChannelConfig;
}

/** A secret's hint: its last four characters (nothing of a short one). */
export function maskSecret(value: string): string {
  return value.length >= 12 ? `****${value.slice(-4)}` : '****';
}

/** A Slack URL as answers show it: scheme and host kept, the path (the credential) reduced to its last four characters. */
export function maskUrl(raw: string): string {
  try {
    const u = new URL(raw);
    return `${u.protocol}//${u.host}/…/${maskSecret(raw)}`;
  } catch {
    return maskSecret(raw);
  }
}

/** `config` as answers show it: the Slack URL and header values masked, the rest as stored. */
export function maskedChannelConfig(type: ChannelType, config: Record<string, unknown>): Record<string, unknown> {
  if (type === 'slack') return { ...config, webhook_url: maskUrl(String(config.webhook_url ?? '')) };
  if (type === 'webhook' && config.headers) return { ...config, headers: Object.fromEntries(Object.entries(config.headers as Record<string, string>).map(([k, v]) => [k, maskSecret(v)])) };
  return config;
}

/**
 * A PATCH that sends back what a GET showed: masked values equal to the stored values' masks keep the stored values,
 * so a form can save other fields without asking for the credentials again.
 */
export function unmaskedConfig(type: ChannelType, stored: Record<string, unknown>, incoming: unknown): unknown {
  if (!incoming || typeof incoming !== 'object' || Array.isArray(incoming)) return incoming;
  const next = { ...(incoming as Record<string, unknown>) };
  if (type === 'slack' && typeof stored.webhook_url === 'string' && next.webhook_url === maskUrl(stored.webhook_url)) next.webhook_url = stored.webhook_url;
  const storedHeaders = stored.headers as Record<string, string> | undefined;
  if (type === 'webhook' && storedHeaders && next.headers && typeof next.headers === 'object') {
    const headers = { ...(next.headers as Record<string, unknown>) };
    for (const [k, v] of Object.entries(headers)) {
      const kept = getOwn(storedHeaders, k);
      if (typeof kept === 'string' && v === maskSecret(kept)) setOwn(headers, k, kept);
    }
    next.headers = headers;
  }
  return next;
}
