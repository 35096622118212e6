import { createHmac, randomUUID } from 'node:crypto';
import { alertChannelSchema, alertEventSchema, alertRuleSchema, alertSchema, alertSuppressionSchema } from '../api/presenters/alert.schema';
import { addMember, ApiClient, createProject, signUp, uniqueEmail } from './support/client';
import { startReceiver, type Receiver, type ReceivedRequest } from './support/http-receiver';
import { startStack, TestStack } from './support/stack';
import { trainQuickModels } from './support/trained-models';

/**
 * Alerts as people configure and handle them, through HTTP on the real stack: channels (masking, signed test
 * deliveries to a local receiver, mail to the SMTP sink, the failing mark), rules (every field's 422, references to
 * other projects), alerts acknowledged and resolved by hand (rows the evaluator would write, inserted here), silences
 * and their states, and who may see and change what.
 */

type User = Awaited<ReturnType<typeof signUp>>;

let stack: TestStack;
let owner: User;
let stranger: User;
let viewer: User;
let reader: ApiClient;
let projectId: string;
let strangerProject: string;
let deploymentId: string;

const M = '/api/mlops';

/** A local HTTP receiver: answers the queued statuses in turn (then 200) and keeps every request with its raw body. */
const statuses: number[] = [];
let receiver: Receiver;
let received: ReceivedRequest[];
let receiverUrl: string;

beforeAll(async () => {
  receiver = await startReceiver((_r, res) => res.writeHead(statuses.shift() ?? 200).end('ok'));
  ({ received, url: receiverUrl } = receiver);

  stack = await startStack();
  owner = await signUp(stack.baseUrl, stack.mail);
  stranger = await signUp(stack.baseUrl, stack.mail);
  viewer = await signUp(stack.baseUrl, stack.mail);
  projectId = await createProject(owner.client, 'Alerts');
  strangerProject = await createProject(stranger.client, 'Elsewhere');
  await addMember(owner.client, viewer, projectId, 'viewer');
  const key = await owner.client.post('/api/auth/api-keys', { name: 'alerts-reader', scopes: ['read:deployments'] });
  reader = new ApiClient(stack.baseUrl).withKey(key.body.api_key);
  const { models } = await trainQuickModels(owner.client, projectId, ['GLM'], 200);
  const d = await owner.client.post(`${M}/projects/${projectId}/deployments`, { model_id: models.GLM, name: 'alerts', stage: 'staging' });
  expect(d.status).toBe(201);
  deploymentId = d.body.id;
}, 300_000);

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

async function createChannel(body: Record<string, unknown>, project = projectId, client = owner.client) {
  const r = await client.post(`${M}/projects/${project}/channels`, body);
  if (r.status !== 201) throw new Error(`channel failed ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

const ruleBody = (over: Record<string, unknown> = {}) => ({ name: 'Errors', metric: 'error_rate', operator: 'gt', threshold: 0.05, ...over });

async function createRule(over: Record<string, unknown> = {}) {
  const r = await owner.client.post(`${M}/projects/${projectId}/alert-rules`, ruleBody(over));
  if (r.status !== 201) throw new Error(`rule failed ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** An alert as the evaluator writes it, for a disabled rule (so no evaluation touches it). */
async function insertAlert(ruleId: string, state = 'firing'): Promise<string> {
  const [row] = await stack.ds.query(
    `INSERT INTO alerts (project_id, rule_id, deployment_id, fingerprint, labels, metric, operator, threshold, state, severity, value, samples, first_seen_at, last_seen_at)
     VALUES ($1, $2, $3, $4, '{"team":"ml"}', 'error_rate', 'gt', 0.05, $5, 'warning', 0.2, 40, now(), now()) RETURNING id`,
    [projectId, ruleId, deploymentId, randomUUID(), state],
  );
  return row.id as string;
}

describe('channels', () => {
  it('shows a webhook secret once, and masks credentials in every other answer', async () => {
    const created = await createChannel({ name: 'hook', type: 'webhook', config: { url: `${receiverUrl}/hook`, headers: { Authorization: 'Bearer very-secret-token' } } });
    // Answers are the schemas' output side (timestamps as ISO strings): encoding checks them against the document.
    expect(alertChannelSchema.safeEncode(created).error).toBeUndefined();
    expect(created.secret).toMatch(/^whsec_/);
    expect(created).toMatchObject({ type: 'webhook', has_secret: true, secret_hint: `****${created.secret.slice(-4)}`, status: 'untested', is_enabled: true, consecutive_failures: 0 });
    expect(created.config).toEqual({ url: `${receiverUrl}/hook`, headers: { Authorization: '****oken' } });

    const slackUrl = `${receiverUrl}/services/T000/B000/XXXXabcd`;
    const slack = await createChannel({ name: 'slack', type: 'slack', config: { webhook_url: slackUrl } });
    expect(slack.config.webhook_url).toBe(`${receiverUrl}/…/****abcd`);
    expect(slack).toMatchObject({ has_secret: false, secret_hint: null });
    expect(slack.secret).toBeUndefined();

    const answers = [
      await owner.client.get(`${M}/alerts/channels/${created.id}`),
      await owner.client.get(`${M}/projects/${projectId}/channels`),
      await owner.client.patch(`${M}/alerts/channels/${created.id}`, { name: 'renamed' }),
      await owner.client.get(`${M}/alerts/channels/${slack.id}`),
      await owner.client.patch(`${M}/alerts/channels/${slack.id}`, { name: 'slack 2', config: { webhook_url: `${receiverUrl}/…/****abcd` } }),
    ];
    for (const a of answers) {
      expect(a.status).toBe(200);
      const text = JSON.stringify(a.body);
      expect(text).not.toContain(created.secret);
      expect(text).not.toContain('very-secret-token');
      expect(text).not.toContain('XXXXabcd');
      expect(a.body.secret).toBeUndefined();
    }
    // The masked URL sent back kept the stored one.
    const [row] = await stack.ds.query('SELECT config FROM alert_channels WHERE id = $1', [slack.id]);
    expect(row.config.webhook_url).toBe(slackUrl);
    expect(answers[1].body.total).toBe(2);
  });

  it('refuses bad configs with 422 naming the field', async () => {
    const cases: [Record<string, unknown>, (string | number)[]][] = [
      [{ name: 'x', type: 'pager', config: {} }, ['body', 'type']],
      [{ name: 'x', type: 'email', config: { recipients: [] } }, ['body', 'config', 'recipients']],
      [{ name: 'x', type: 'email', config: { recipients: ['not-an-email'] } }, ['body', 'config', 'recipients', 0]],
      [{ name: 'x', type: 'email', config: { recipients: ['a@example.com'], cc: 'b@example.com' } }, ['body', 'config']],
      [{ name: 'x', type: 'email', config: { recipients: ['a@example.com'] }, secret: '0123456789abcdefgh' }, ['body']],
      [{ name: 'x', type: 'webhook', config: { url: 'ftp://example.com/x' } }, ['body', 'config', 'url']],
      [{ name: 'x', type: 'webhook', config: { url: 'https://user:pw@example.com/x' } }, ['body', 'config', 'url']],
      [{ name: 'x', type: 'webhook', config: { url: 'https://example.com/x', headers: { 'X-Mlsvc-Signature': 'forged' } } }, ['body', 'config', 'headers', 'X-Mlsvc-Signature']],
      [{ name: 'x', type: 'webhook', config: { url: 'https://example.com/x' }, secret: 'short' }, ['body', 'secret']],
      [{ name: 'x', type: 'slack', config: { webhook_url: 'not a url' } }, ['body', 'config', 'webhook_url']],
      [{ name: '', type: 'slack', config: { webhook_url: 'https://hooks.slack.com/x' } }, ['body', 'name']],
    ];
    for (const [body, loc] of cases) {
      const r = await owner.client.post(`${M}/projects/${projectId}/channels`, body);
      expect({ body, status: r.status }).toEqual({ body, status: 422 });
      expect(r.body.detail.map((i: { loc: unknown[] }) => i.loc)).toContainEqual(loc);
    }
  });

  it('sends a signed webhook test with an idempotency key to a local receiver', async () => {
    const ch = await createChannel({ name: 'signed', type: 'webhook', config: { url: `${receiverUrl}/signed` }, secret: 'my-own-secret-0123456789' });
    received.length = 0;
    const t = await owner.client.post(`${M}/alerts/channels/${ch.id}/test`);
    expect(t.status).toBe(200);
    expect(t.body).toMatchObject({ delivered: true, status_code: 200, error: null, attempt_id: expect.any(String) });
    expect(typeof t.body.latency_ms).toBe('number');
    expect(received).toHaveLength(1);
    const { headers, raw } = received[0];
    const timestamp = String(headers['x-mlsvc-timestamp']);
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
    const expected = `sha256=${createHmac('sha256', 'my-own-secret-0123456789').update(`${timestamp}.${raw}`).digest('hex')}`;
    expect(headers['x-mlsvc-signature']).toBe(expected);
    const body = JSON.parse(raw);
    expect(headers['idempotency-key']).toBe(body.id);
    expect(headers['x-mlsvc-event']).toBe('alert.test');
    expect(body).toMatchObject({ type: 'alert.test', data: { reason: 'test', project: { id: projectId, name: 'Alerts' } } });
    const after = await owner.client.get(`${M}/alerts/channels/${ch.id}`);
    expect(after.body).toMatchObject({ status: 'healthy', consecutive_failures: 0, last_error: null });
    expect(after.body.last_delivery_at).toEqual(expect.any(String));
  });

  it('sends an email test through the SMTP sink and a Slack test to the receiver', async () => {
    const to = uniqueEmail('oncall');
    const mail = await createChannel({ name: 'mail', type: 'email', config: { recipients: [to] } });
    const t = await owner.client.post(`${M}/alerts/channels/${mail.id}/test`);
    expect(t.body).toMatchObject({ delivered: true, status_code: null, error: null });
    const m = await stack.mail.waitFor(to, /Test notification/);
    expect(m.raw).toMatch(/Subject: \[INFO\] Test notification test \(Alerts\)/);

    const slack = await createChannel({ name: 'slack-test', type: 'slack', config: { webhook_url: `${receiverUrl}/slack/T1/B1/zzzz1234` } });
    received.length = 0;
    const s = await owner.client.post(`${M}/alerts/channels/${slack.id}/test`);
    expect(s.body).toMatchObject({ delivered: true, status_code: 200 });
    expect(JSON.parse(received[0].raw).text).toContain('Test notification');
  });

  it('marks a channel failing after three failed attempts in a row, each recorded with its code and latency', async () => {
    const ch = await createChannel({ name: 'flaky', type: 'webhook', config: { url: `${receiverUrl}/flaky` } });
    statuses.push(500, 500, 500);
    for (let i = 0; i < 3; i++) {
      const t = await owner.client.post(`${M}/alerts/channels/${ch.id}/test`);
      expect(t.body).toMatchObject({ delivered: false, status_code: 500, error: expect.stringContaining('500') });
      const c = (await owner.client.get(`${M}/alerts/channels/${ch.id}`)).body;
      expect(c.consecutive_failures).toBe(i + 1);
      expect(c.status).toBe(i < 2 ? 'untested' : 'failing');
    }
    const deliveries = await owner.client.get(`${M}/alerts/channels/${ch.id}/deliveries`);
    expect(deliveries.status).toBe(200);
    expect(deliveries.body.total).toBe(3);
    for (const d of deliveries.body.items) {
      expect(d).toMatchObject({ status: 'failed', status_code: 500, notification_id: null, attempt: 1, error: expect.stringContaining('500') });
      expect(d.latency_ms).toBeGreaterThanOrEqual(0);
    }
    const failing = (await owner.client.get(`${M}/alerts/channels/${ch.id}`)).body;
    expect(failing).toMatchObject({ status: 'failing', last_error: expect.stringContaining('500') });
    // One success clears the mark.
    expect((await owner.client.post(`${M}/alerts/channels/${ch.id}/test`)).body.delivered).toBe(true);
    expect((await owner.client.get(`${M}/alerts/channels/${ch.id}`)).body).toMatchObject({ status: 'healthy', consecutive_failures: 0, last_error: null });
  });

  it('deleting a channel takes it out of the rules', async () => {
    const ch = await createChannel({ name: 'doomed', type: 'email', config: { recipients: [uniqueEmail('doomed')] } });
    const keep = await createChannel({ name: 'kept', type: 'email', config: { recipients: [uniqueEmail('kept')] } });
    const rule = await createRule({ channel_ids: [ch.id, keep.id], is_enabled: false });
    expect((await owner.client.del(`${M}/alerts/channels/${ch.id}`)).status).toBe(204);
    expect((await owner.client.get(`${M}/alerts/channels/${ch.id}`)).status).toBe(404);
    expect((await owner.client.get(`${M}/alerts/rules/${rule.id}`)).body.channel_ids).toEqual([keep.id]);
  });
});

describe('rules', () => {
  it('creates with defaults, reads, filters, changes and deletes', async () => {
    const rule = await createRule({ deployment_id: deploymentId, labels: { team: 'ml' } });
    expect(alertRuleSchema.safeEncode(rule).error).toBeUndefined();
    expect(rule).toMatchObject({
      project_id: projectId,
      deployment_id: deploymentId,
      window_minutes: 60,
      min_samples: 1,
      severity: 'warning',
      channel_ids: [],
      cooldown_minutes: 60,
      escalation_minutes: null,
      escalation_severity: null,
      labels: { team: 'ml' },
      is_enabled: true,
      description: '',
      created_by: owner.user.id,
      last_evaluated_at: null,
    });
    expect((await owner.client.get(`${M}/alerts/rules/${rule.id}`)).body).toEqual(rule);
    const listed = await owner.client.get(`${M}/projects/${projectId}/alert-rules?metric=error_rate&deployment_id=${deploymentId}&is_enabled=true`);
    expect(listed.body.items.map((r: { id: string }) => r.id)).toContain(rule.id);
    expect((await owner.client.get(`${M}/projects/${projectId}/alert-rules?metric=latency_p99`)).body.items.map((r: { id: string }) => r.id)).not.toContain(rule.id);

    const patched = await owner.client.patch(`${M}/alerts/rules/${rule.id}`, { escalation_minutes: 30, escalation_severity: 'critical', is_enabled: false });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ escalation_minutes: 30, escalation_severity: 'critical', is_enabled: false, name: 'Errors' });
    // Clearing the minutes clears the severity with them.
    expect((await owner.client.patch(`${M}/alerts/rules/${rule.id}`, { escalation_minutes: null })).body).toMatchObject({ escalation_minutes: null, escalation_severity: null });
    // A severity at or above the escalation's is refused on the rule as it would be.
    await owner.client.patch(`${M}/alerts/rules/${rule.id}`, { escalation_minutes: 30, escalation_severity: 'critical' });
    const above = await owner.client.patch(`${M}/alerts/rules/${rule.id}`, { severity: 'critical' });
    expect(above.status).toBe(422);
    expect(above.body.detail[0].loc).toEqual(['body', 'escalation_severity']);

    expect((await owner.client.del(`${M}/alerts/rules/${rule.id}`)).status).toBe(204);
    expect((await owner.client.get(`${M}/alerts/rules/${rule.id}`)).body).toEqual({ detail: 'Alert rule not found' });
  });

  it('answers 422 naming the field for every invalid value', async () => {
    const labels21 = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`l${i}`, 'v']));
    const cases: [Record<string, unknown>, string[]][] = [
      [{ threshold: 'high' }, ['body', 'threshold']],
      [{ threshold: null }, ['body', 'threshold']],
      [{ threshold: undefined }, ['body', 'threshold']],
      [{ metric: 'cpu_load' }, ['body', 'metric']],
      [{ metric: undefined }, ['body', 'metric']],
      [{ operator: 'between' }, ['body', 'operator']],
      [{ severity: 'fatal' }, ['body', 'severity']],
      [{ cooldown_minutes: 0 }, ['body', 'cooldown_minutes']],
      [{ cooldown_minutes: 1441 }, ['body', 'cooldown_minutes']],
      [{ cooldown_minutes: 1.5 }, ['body', 'cooldown_minutes']],
      [{ escalation_minutes: 0, escalation_severity: 'critical' }, ['body', 'escalation_minutes']],
      [{ escalation_minutes: 1441, escalation_severity: 'critical' }, ['body', 'escalation_minutes']],
      [{ escalation_minutes: 30 }, ['body', 'escalation_severity']],
      [{ escalation_severity: 'critical' }, ['body', 'escalation_minutes']],
      [{ escalation_minutes: 30, escalation_severity: 'warning' }, ['body', 'escalation_severity']],
      [{ severity: 'critical', escalation_minutes: 30, escalation_severity: 'critical' }, ['body', 'escalation_severity']],
      [{ escalation_minutes: 30, escalation_severity: 'info' }, ['body', 'escalation_severity']],
      [{ window_minutes: 0 }, ['body', 'window_minutes']],
      [{ window_minutes: 10081 }, ['body', 'window_minutes']],
      [{ window_minutes: 2 ** 31 }, ['body', 'window_minutes']],
      [{ min_samples: 0 }, ['body', 'min_samples']],
      [{ min_samples: 2 ** 31 }, ['body', 'min_samples']],
      [{ cooldown_minutes: 2 ** 31 }, ['body', 'cooldown_minutes']],
      [{ labels: labels21 }, ['body', 'labels']],
      [{ labels: { '1abc': 'v' } }, ['body', 'labels', '1abc']],
      [{ labels: { 'bad-key': 'v' } }, ['body', 'labels', 'bad-key']],
      [{ labels: { team: 'x'.repeat(201) } }, ['body', 'labels', 'team']],
      [{ labels: { team: 3 } }, ['body', 'labels', 'team']],
      [{ name: 'a\u0000b' }, ['body', 'name']],
      [{ labels: { team: 'a\u0000b' } }, ['body', 'labels', 'team']],
      [{ name: '   ' }, ['body', 'name']],
      [{ channel_ids: ['not-a-uuid'] }, ['body', 'channel_ids', '0']],
      [{ channel_ids: Array.from({ length: 21 }, () => randomUUID()) }, ['body', 'channel_ids']],
      [{ deployment_id: 'nope' }, ['body', 'deployment_id']],
      [{ unknown_field: 1 }, ['body']],
    ];
    for (const [over, loc] of cases) {
      const r = await owner.client.post(`${M}/projects/${projectId}/alert-rules`, ruleBody(over));
      expect({ over, status: r.status }).toEqual({ over, status: 422 });
      expect(r.body.detail.map((i: { loc: unknown[] }) => i.loc.map(String))).toContainEqual(loc);
    }
    // JSON numbers past what a double holds parse to Infinity: not a finite threshold.
    const huge = await owner.client.post(`${M}/projects/${projectId}/alert-rules`, undefined, {
      headers: { 'content-type': 'application/json' },
      rawBody: '{"name":"x","metric":"error_rate","operator":"gt","threshold":1e400}',
    });
    expect(huge.status).toBe(422);
    expect(huge.body.detail[0].loc).toEqual(['body', 'threshold']);
    // The same checks on PATCH.
    const rule = await createRule({ is_enabled: false });
    for (const body of [{ threshold: 'x' }, { cooldown_minutes: 0 }, { escalation_severity: 'critical' }, { metric: 'nope' }, { labels: { '-': 'x' } }]) {
      expect((await owner.client.patch(`${M}/alerts/rules/${rule.id}`, body)).status).toBe(422);
    }
  });

  it('refuses channels and deployments of other projects with 404', async () => {
    const foreign = await createChannel({ name: 'theirs', type: 'email', config: { recipients: [uniqueEmail('theirs')] } }, strangerProject, stranger.client);
    const mine = await createChannel({ name: 'mine', type: 'email', config: { recipients: [uniqueEmail('mine')] } });
    for (const ids of [[foreign.id], [mine.id, foreign.id], [randomUUID()]]) {
      const r = await owner.client.post(`${M}/projects/${projectId}/alert-rules`, ruleBody({ channel_ids: ids }));
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ detail: 'Channel not found' });
    }
    // The stranger's rule cannot watch this project's deployment.
    const r = await stranger.client.post(`${M}/projects/${strangerProject}/alert-rules`, ruleBody({ deployment_id: deploymentId }));
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ detail: 'Deployment not found' });
    const ok = await owner.client.post(`${M}/projects/${projectId}/alert-rules`, ruleBody({ channel_ids: [mine.id, mine.id], is_enabled: false }));
    expect(ok.status).toBe(201);
    expect(ok.body.channel_ids).toEqual([mine.id]);
    const patch = await owner.client.patch(`${M}/alerts/rules/${ok.body.id}`, { channel_ids: [foreign.id] });
    expect(patch.status).toBe(404);
  });

  it('tests a rule now without writing anything', async () => {
    const rule = await createRule({ metric: 'request_volume', operator: 'lt', threshold: 1, deployment_id: deploymentId, is_enabled: false });
    const t = await owner.client.post(`${M}/alerts/rules/${rule.id}/test`);
    expect(t.status).toBe(200);
    expect(t.body).toMatchObject({ samples: expect.any(Number), estimated: false, would_fire: expect.any(Boolean), deployments: [expect.objectContaining({ deployment_id: deploymentId })] });
    expect((await viewer.client.post(`${M}/alerts/rules/${rule.id}/test`)).status).toBe(200);
    expect((await stranger.client.post(`${M}/alerts/rules/${rule.id}/test`)).status).toBe(404);
    const [{ n }] = await stack.ds.query('SELECT count(*)::int AS n FROM alerts WHERE rule_id = $1', [rule.id]);
    expect(n).toBe(0);
  });
});

describe('alerts', () => {
  it('acknowledges and resolves by hand, each change in the history; 409 in the wrong state', async () => {
    const rule = await createRule({ is_enabled: false, name: 'Manual' });
    const id = await insertAlert(rule.id);
    const got = await owner.client.get(`${M}/alerts/${id}`);
    expect(got.status).toBe(200);
    expect(alertSchema.safeEncode(got.body).error).toBeUndefined();
    expect(got.body).toMatchObject({ state: 'firing', rule_name: 'Manual', rule_id: rule.id, labels: { team: 'ml' }, value: 0.2, samples: 40 });
    const listed = await owner.client.get(`${M}/projects/${projectId}/alerts?state=firing&severity=warning&rule_id=${rule.id}`);
    expect(listed.body.items.map((a: { id: string }) => a.id)).toEqual([id]);

    const ack = await owner.client.post(`${M}/alerts/${id}/acknowledge`, { comment: 'looking' });
    expect(ack.status).toBe(200);
    expect(ack.body).toMatchObject({ state: 'acknowledged', acknowledged_by: owner.user.id, acknowledged_at: expect.any(String) });
    const again = await owner.client.post(`${M}/alerts/${id}/acknowledge`, {});
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ detail: 'Alert is not firing' });

    const resolved = await owner.client.post(`${M}/alerts/${id}/resolve`, {});
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({ state: 'resolved', resolved_by: owner.user.id, resolved_at: expect.any(String) });
    const twice = await owner.client.post(`${M}/alerts/${id}/resolve`, {});
    expect(twice.status).toBe(409);
    expect(twice.body).toEqual({ detail: 'Alert is already resolved' });
    expect((await owner.client.post(`${M}/alerts/${id}/acknowledge`, {})).status).toBe(409);

    const history = await owner.client.get(`${M}/alerts/${id}/history`);
    expect(history.status).toBe(200);
    expect(history.body.items).toEqual([
      expect.objectContaining({ event: 'resolved', from_state: 'acknowledged', to_state: 'resolved', actor_id: owner.user.id, alert_id: id, rule_id: rule.id }),
      expect.objectContaining({ event: 'acknowledged', from_state: 'firing', to_state: 'acknowledged', actor_id: owner.user.id, detail: { comment: 'looking' } }),
    ]);
    for (const e of history.body.items) expect(alertEventSchema.safeEncode(e).error).toBeUndefined();
    const projectHistory = await owner.client.get(`${M}/alerts/history?project_id=${projectId}&alert_id=${id}&event=acknowledged`);
    expect(projectHistory.body.items).toHaveLength(1);
    expect((await owner.client.get(`${M}/alerts/history`)).status).toBe(422);

    // A firing alert resolves directly.
    const other = await insertAlert(rule.id);
    expect((await owner.client.post(`${M}/alerts/${other}/resolve`, { comment: 'fixed' })).body.state).toBe('resolved');
    expect((await owner.client.get(`${M}/alerts/${other}/history`)).body.items[0]).toMatchObject({ event: 'resolved', from_state: 'firing' });
  });
});

describe('suppressions', () => {
  const hour = 3_600_000;
  const iso = (ms: number) => new Date(Date.now() + ms).toISOString();

  it('computes pending, active and expired, and filters on them', async () => {
    const post = (body: Record<string, unknown>) => owner.client.post(`${M}/alerts/suppressions`, { project_id: projectId, ...body });
    const active = await post({ matchers: { metric: 'error_rate' }, comment: 'deploy window' });
    expect(active.status).toBe(201);
    expect(alertSuppressionSchema.safeEncode(active.body).error).toBeUndefined();
    expect(active.body).toMatchObject({ state: 'active', ends_at: null, recurrence: null, comment: 'deploy window', created_by: owner.user.id });
    const pending = await post({ matchers: { labels: { team: 'ml' } }, starts_at: iso(hour), ends_at: iso(2 * hour) });
    expect(pending.body.state).toBe('pending');
    const expired = await post({ matchers: { severity: 'info' }, starts_at: iso(-2 * hour), ends_at: iso(-hour) });
    expect(expired.body.state).toBe('expired');
    // A weekly window that is never now: pending between windows.
    const now = new Date();
    const otherDay = (now.getUTCDay() + 3) % 7;
    const recurring = await post({
      matchers: { rule_id: (await createRule({ is_enabled: false })).id },
      recurrence: { days_of_week: [otherDay], start_time: '00:00', end_time: '01:00', timezone: 'UTC' },
    });
    expect(recurring.status).toBe(201);
    expect(recurring.body.state).toBe('pending');

    const list = async (state: string) => (await owner.client.get(`${M}/alerts/suppressions?project_id=${projectId}&state=${state}`)).body.items.map((s: { id: string }) => s.id);
    expect(await list('active')).toEqual([active.body.id]);
    expect((await list('pending')).sort()).toEqual([pending.body.id, recurring.body.id].sort());
    expect(await list('expired')).toEqual([expired.body.id]);
    expect((await owner.client.get(`${M}/alerts/suppressions?project_id=${projectId}`)).body.total).toBe(4);

    const ended = await owner.client.patch(`${M}/alerts/suppressions/${active.body.id}`, { starts_at: iso(-hour), ends_at: iso(-1000) });
    expect(ended.body.state).toBe('expired');
    expect((await owner.client.get(`${M}/alerts/suppressions/${active.body.id}`)).body.state).toBe('expired');
    expect((await owner.client.del(`${M}/alerts/suppressions/${pending.body.id}`)).status).toBe(204);
    expect((await owner.client.get(`${M}/alerts/suppressions/${pending.body.id}`)).body).toEqual({ detail: 'Suppression not found' });
  });

  it('validates matchers, times and recurrences', async () => {
    const rec = (over: Record<string, unknown>) => ({ days_of_week: [1, 2], start_time: '22:00', end_time: '06:00', timezone: 'Europe/Paris', ...over });
    const cases: [Record<string, unknown>, number, string[]?][] = [
      [{ matchers: {} }, 422, ['body', 'matchers']],
      [{ matchers: { metric: 'nope' } }, 422, ['body', 'matchers', 'metric']],
      [{ matchers: { labels: { 'bad-key': 'x' } } }, 422, ['body', 'matchers', 'labels', 'bad-key']],
      [{ matchers: { metric: 'error_rate' }, starts_at: iso(hour), ends_at: iso(0) }, 422, ['body', 'ends_at']],
      [{ matchers: { metric: 'error_rate' }, starts_at: 'tomorrow' }, 422, ['body', 'starts_at']],
      [{ matchers: { metric: 'error_rate' }, recurrence: rec({ timezone: 'Mars/Olympus_Mons' }) }, 422, ['body', 'recurrence', 'timezone']],
      [{ matchers: { metric: 'error_rate' }, recurrence: rec({ days_of_week: [1, 1] }) }, 422, ['body', 'recurrence', 'days_of_week']],
      [{ matchers: { metric: 'error_rate' }, recurrence: rec({ days_of_week: [] }) }, 422, ['body', 'recurrence', 'days_of_week']],
      [{ matchers: { metric: 'error_rate' }, recurrence: rec({ days_of_week: [7] }) }, 422, ['body', 'recurrence', 'days_of_week', '0']],
      [{ matchers: { metric: 'error_rate' }, recurrence: rec({ start_time: '24:00' }) }, 422, ['body', 'recurrence', 'start_time']],
      [{ matchers: { metric: 'error_rate' }, recurrence: rec({ end_time: '7:5' }) }, 422, ['body', 'recurrence', 'end_time']],
      [{ matchers: { rule_id: randomUUID() } }, 404],
      [{ matchers: { deployment_id: randomUUID() } }, 404],
    ];
    for (const [body, status, loc] of cases) {
      const r = await owner.client.post(`${M}/alerts/suppressions`, { project_id: projectId, ...body });
      expect({ body, status: r.status }).toEqual({ body, status });
      if (loc) expect(r.body.detail.map((i: { loc: unknown[] }) => i.loc.map(String))).toContainEqual(loc);
    }
    const overnight = await owner.client.post(`${M}/alerts/suppressions`, { project_id: projectId, matchers: { deployment_id: deploymentId }, recurrence: rec({}) });
    expect(overnight.status).toBe(201);
    expect(overnight.body.recurrence).toEqual(rec({}));
    // The stranger cannot silence this project's deployment from their own project, nor reach this project.
    const theirs = await stranger.client.post(`${M}/alerts/suppressions`, { project_id: strangerProject, matchers: { deployment_id: deploymentId } });
    expect(theirs.body).toEqual({ detail: 'Deployment not found' });
    expect((await stranger.client.post(`${M}/alerts/suppressions`, { project_id: projectId, matchers: { metric: 'error_rate' } })).body).toEqual({ detail: 'Project not found' });
  });
});

describe('access', () => {
  it("hides other users' channels, rules, alerts and suppressions (404), lets viewers read but not write (403), and read-only keys read only", async () => {
    const channel = await createChannel({ name: 'private', type: 'email', config: { recipients: [uniqueEmail('private')] } });
    const rule = await createRule({ is_enabled: false });
    const alert = await insertAlert(rule.id);
    const silence = (await owner.client.post(`${M}/alerts/suppressions`, { project_id: projectId, matchers: { metric: 'error_rate' } })).body;

    const reads = [
      `${M}/alerts/channels/${channel.id}`,
      `${M}/alerts/channels/${channel.id}/deliveries`,
      `${M}/alerts/rules/${rule.id}`,
      `${M}/alerts/${alert}`,
      `${M}/alerts/${alert}/history`,
      `${M}/alerts/suppressions/${silence.id}`,
      `${M}/projects/${projectId}/channels`,
      `${M}/projects/${projectId}/alert-rules`,
      `${M}/projects/${projectId}/alerts`,
      `${M}/alerts/history?project_id=${projectId}`,
      `${M}/alerts/suppressions?project_id=${projectId}`,
    ];
    const writes: [string, string, unknown][] = [
      ['POST', `${M}/projects/${projectId}/channels`, { name: 'x', type: 'email', config: { recipients: ['x@example.com'] } }],
      ['PATCH', `${M}/alerts/channels/${channel.id}`, { name: 'x' }],
      ['POST', `${M}/alerts/channels/${channel.id}/test`, undefined],
      ['DELETE', `${M}/alerts/channels/${channel.id}`, undefined],
      ['POST', `${M}/projects/${projectId}/alert-rules`, ruleBody()],
      ['PATCH', `${M}/alerts/rules/${rule.id}`, { name: 'x' }],
      ['DELETE', `${M}/alerts/rules/${rule.id}`, undefined],
      ['POST', `${M}/alerts/${alert}/acknowledge`, {}],
      ['POST', `${M}/alerts/${alert}/resolve`, {}],
      ['POST', `${M}/alerts/suppressions`, { project_id: projectId, matchers: { metric: 'error_rate' } }],
      ['PATCH', `${M}/alerts/suppressions/${silence.id}`, { comment: 'x' }],
      ['DELETE', `${M}/alerts/suppressions/${silence.id}`, undefined],
    ];
    const texts = ['Channel not found', 'Alert rule not found', 'Alert not found', 'Suppression not found', 'Project not found'];

    for (const path of reads) {
      const s = await stranger.client.get(path);
      expect({ path, status: s.status }).toEqual({ path, status: 404 });
      expect(texts).toContain(s.body.detail);
      expect({ path, status: (await viewer.client.get(path)).status }).toEqual({ path, status: 200 });
      expect({ path, status: (await reader.get(path)).status }).toEqual({ path, status: 200 });
    }
    for (const [method, path, body] of writes) {
      const s = await stranger.client.request(method, path, body);
      expect({ method, path, status: s.status }).toEqual({ method, path, status: 404 });
      expect(texts).toContain(s.body.detail);
      const v = await viewer.client.request(method, path, body);
      expect({ method, path, status: v.status }).toEqual({ method, path, status: 403 });
      const k = await reader.request(method, path, body);
      expect({ method, path, status: k.status, body: k.body }).toEqual({ method, path, status: 403, body: { detail: 'Insufficient scope' } });
    }
    // Nothing changed.
    expect((await owner.client.get(`${M}/alerts/${alert}`)).body.state).toBe('firing');
    expect((await owner.client.get(`${M}/alerts/channels/${channel.id}`)).body.name).toBe('private');
  });
});
