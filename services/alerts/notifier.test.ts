import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AlertChannel } from '../../entities';
import type { MailMessage } from '../../platform/mail';
import { maskedChannelConfig, maskSecret, maskUrl, unmaskedConfig } from './channel-config';
import { deliver, emailSubject, webhookBody, webhookSignature, type AlertMessage } from './notifier';
import { isInternalAddress, outboundUrlProblem, PRIVATE_TARGET_MESSAGE, urlSyntaxProblem } from './outbound-url';

const message: AlertMessage = {
  reason: 'firing',
  alert: { id: 'a1', metric: 'error_rate', operator: 'gt', threshold: 0.05, value: 0.25, severity: 'critical', state: 'firing' },
  rule: { id: 'r1', name: 'Errors' },
  project: { id: 'p1', name: 'Churn' },
  url: 'http://app.test/app/projects/p1/alerts/a1',
};

function channel(type: AlertChannel['type'], config: Record<string, unknown>, secret: string | null = null): AlertChannel {
  return { id: 'c1', projectId: 'p1', name: 'c', type, config, secret, isEnabled: true } as AlertChannel;
}

/** A receiver on loopback that answers `status` and keeps what it got. */
async function receiver(status = 200, delayMs = 0) {
  const got: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      setTimeout(() => res.writeHead(status, status === 302 ? { location: 'http://example.com/' } : {}).end('ok'), delayMs);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, got, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const noMail = { send: async () => undefined };

describe('webhook signature', () => {
  it('is HMAC-SHA256 of "<timestamp>.<raw body>" with the secret, hex, prefixed sha256= (known answer)', () => {
    expect(webhookSignature('whsec_test_secret_0123', 1700000000, '{"id":"k"}')).toBe('sha256=705e003abbc82456a1dbfdda3da4a6ed1738d6541cab0697d9a4144c387ce0b0');
  });

  it('body is {id, type, created_at, data}', () => {
    const body = JSON.parse(webhookBody(message, 'key-1', new Date('2026-01-02T03:04:05Z')));
    expect(body).toEqual({ id: 'key-1', type: 'alert.firing', created_at: '2026-01-02T03:04:05.000Z', data: message });
  });
});

describe('deliver', () => {
  it('posts the signed webhook with its idempotency key and timestamp', async () => {
    const r = await receiver(200);
    try {
      const now = new Date('2026-03-04T05:06:07Z');
      const res = await deliver(channel('webhook', { url: r.url, headers: { 'X-Team': 'ml' } }, 'whsec_0123456789abcdef'), message, {
        idempotencyKey: 'n-1',
        mailer: noMail,
        now,
        allowPrivateTargets: true,
      });
      expect(res).toMatchObject({ delivered: true, statusCode: 200, error: null });
      expect(res.latencyMs).toBeGreaterThanOrEqual(0);
      const { headers, body } = r.got[0];
      expect(headers['idempotency-key']).toBe('n-1');
      expect(headers['x-mlsvc-event']).toBe('alert.firing');
      expect(headers['x-team']).toBe('ml');
      expect(headers['x-mlsvc-timestamp']).toBe(String(now.getTime() / 1000));
      const expected = createHmac('sha256', 'whsec_0123456789abcdef').update(`${headers['x-mlsvc-timestamp']}.${body}`).digest('hex');
      expect(headers['x-mlsvc-signature']).toBe(`sha256=${expected}`);
      expect(JSON.parse(body).id).toBe('n-1');
    } finally {
      await r.close();
    }
  });

  it('reports a non-2xx answer, a redirect (not followed) and a timeout as failures without throwing', async () => {
    for (const status of [500, 302]) {
      const r = await receiver(status);
      try {
        const res = await deliver(channel('webhook', { url: r.url }, 'whsec_0123456789abcdef'), message, { idempotencyKey: 'k', mailer: noMail, allowPrivateTargets: true });
        expect(res).toMatchObject({ delivered: false, statusCode: status });
        expect(res.error).toContain(String(status));
      } finally {
        await r.close();
      }
    }
    const slow = await receiver(200, 1000);
    try {
      const res = await deliver(channel('webhook', { url: slow.url }, 'whsec_0123456789abcdef'), message, { idempotencyKey: 'k', mailer: noMail, allowPrivateTargets: true, timeoutMs: 100 });
      expect(res).toMatchObject({ delivered: false, statusCode: null });
      expect(res.error).toContain('100 ms');
    } finally {
      await slow.close();
    }
  });

  it('refuses loopback targets unless private targets are allowed', async () => {
    const r = await receiver(200);
    try {
      const refused = await deliver(channel('webhook', { url: r.url }, 'whsec_0123456789abcdef'), message, { idempotencyKey: 'k', mailer: noMail });
      expect(refused).toMatchObject({ delivered: false, error: PRIVATE_TARGET_MESSAGE });
      const byName = await deliver(channel('webhook', { url: r.url.replace('127.0.0.1', 'localhost') }, 'whsec_0123456789abcdef'), message, { idempotencyKey: 'k', mailer: noMail });
      expect(byName.delivered).toBe(false);
      expect(byName.error).toContain('private');
      expect(r.got).toHaveLength(0);
    } finally {
      await r.close();
    }
  });

  it('mails each recipient with the severity, rule, reason and project in the subject', async () => {
    const sent: MailMessage[] = [];
    const res = await deliver(channel('email', { recipients: ['a@example.com', 'b@example.com'] }), message, { idempotencyKey: 'k', mailer: { send: async (m) => void sent.push(m) } });
    expect(res).toMatchObject({ delivered: true, statusCode: null });
    expect(sent.map((m) => m.to)).toEqual(['a@example.com', 'b@example.com']);
    expect(sent[0].subject).toBe('[CRITICAL] Errors firing (Churn)');
    expect(emailSubject(message)).toBe(sent[0].subject);
    expect(sent[0].text).toContain(message.url);
    const failed = await deliver(channel('email', { recipients: ['a@example.com'] }), message, {
      idempotencyKey: 'k',
      mailer: {
        send: async () => {
          throw new Error('550 mailbox unavailable');
        },
      },
    });
    expect(failed).toMatchObject({ delivered: false, error: '550 mailbox unavailable' });
  });

  it('refuses a Slack URL that is not https (unless private targets are allowed: Slack-compatible receivers on a private network)', async () => {
    const res = await deliver(channel('slack', { webhook_url: 'http://hooks.slack.com/services/x' }), message, { idempotencyKey: 'k', mailer: noMail });
    expect(res.delivered).toBe(false);
    expect(res.error).toContain('https');
  });
});

describe('outbound URLs', () => {
  it('knows internal addresses', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '100.64.0.1'])
      expect(isInternalAddress(a)).toBe(true);
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111']) expect(isInternalAddress(a)).toBe(false);
  });

  it('refuses credentials, other schemes and private hosts', async () => {
    expect(urlSyntaxProblem('https://user:pw@example.com/')).toBe('Must not contain credentials');
    expect(urlSyntaxProblem('ftp://example.com/')).toBe('Must be an http or https URL');
    expect(urlSyntaxProblem('http://example.com/', { httpsOnly: true })).toBe('Must be an https URL');
    expect(urlSyntaxProblem('not a url')).toBe('Must be an absolute URL');
    expect(await outboundUrlProblem('http://127.0.0.1:8080/', { allowPrivate: false })).toBe(PRIVATE_TARGET_MESSAGE);
    expect(await outboundUrlProblem('http://[::1]/', { allowPrivate: false })).toBe(PRIVATE_TARGET_MESSAGE);
    expect(await outboundUrlProblem('http://localhost/', { allowPrivate: false })).toBe(PRIVATE_TARGET_MESSAGE);
    expect(await outboundUrlProblem('http://127.0.0.1:8080/', { allowPrivate: true })).toBeNull();
    expect(await outboundUrlProblem('https://8.8.8.8/', { allowPrivate: false })).toBeNull();
  });
});

describe('masking', () => {
  it('keeps scheme, host and the last four characters of a Slack URL', () => {
    expect(maskUrl('https://hooks.slack.com/services/T000/B000/XXXXabcd')).toBe('https://hooks.slack.com/…/****abcd');
    expect(maskedChannelConfig('slack', { webhook_url: 'https://hooks.slack.com/services/T000/B000/XXXXabcd' })).toEqual({ webhook_url: 'https://hooks.slack.com/…/****abcd' });
  });

  it('masks header values and secrets, nothing of a short one', () => {
    expect(maskedChannelConfig('webhook', { url: 'https://example.com/h', headers: { Authorization: 'Bearer 0123456789wxyz' } })).toEqual({
      url: 'https://example.com/h',
      headers: { Authorization: '****wxyz' },
    });
    expect(maskSecret('whsec_0123456789abcd')).toBe('****abcd');
    expect(maskSecret('short')).toBe('****');
  });

  it('keeps stored credentials when a PATCH sends their masks back', () => {
    const stored = { webhook_url: 'https://hooks.slack.com/services/T000/B000/XXXXabcd' };
    expect(unmaskedConfig('slack', stored, maskedChannelConfig('slack', stored))).toEqual(stored);
    const hooks = { url: 'https://example.com/h', headers: { Authorization: 'Bearer 0123456789wxyz' } };
    expect(unmaskedConfig('webhook', hooks, maskedChannelConfig('webhook', hooks))).toEqual(hooks);
    expect(unmaskedConfig('webhook', hooks, { url: 'https://example.com/h', headers: { Authorization: 'new value' } })).toEqual({
      url: 'https://example.com/h',
      headers: { Authorization: 'new value' },
    });
  });
});
