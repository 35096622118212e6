import Stripe from 'stripe';
import { Job } from '../entities';
import { startStripeMock, type StripeMockServer } from '../platform/stripe-mock';
import { recordUsage, sampleStorage } from '../services/billing/usage';
import { writeJobStatus } from '../services/job-status';
import { ApiClient, createProject, eventually, signUp } from './support/client';
import { spawnWorkerProcess, startStack, TestStack } from './support/stack';
import { syntheticRows, trainQuickModels } from './support/trained-models';

/**
 * Billing through HTTP: off by default (404), then with BILLING_PROVIDER=stripe against stripe-mock (Stripe's official
 * API mock, built with Go: platform/stripe-mock.ts). stripe-mock sends no webhooks, so the webhook deliveries here are
 * Stripe's documented event payloads, signed the way Stripe signs them (the SDK's own test-header helper).
 */
const WEBHOOK_SECRET = 'whsec_billing_test_secret';
const OFF = { detail: 'Billing is not enabled on this instance' };
const signer = new Stripe('sk_test_signer');

let off: TestStack;
let stack: TestStack;
let mock: StripeMockServer;

beforeAll(async () => {
  mock = await startStripeMock();
  [off, stack] = await Promise.all([
    startStack({ workers: [] }),
    startStack({
      env: {
        BILLING_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: 'sk_test_123',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_BASE: mock.url,
        STRIPE_PRICE_IDS: 'pro=price_pro,team=price_team',
        BILLING_FREE_PLAN: 'free',
        RATE_LIMIT_TRAIN: '1000',
        RATE_LIMIT_PREDICT: '1000',
      },
    }),
  ]);
  await stack.ds.query(
    `INSERT INTO plans (id, name, display_name, limits) VALUES (gen_random_uuid(), 'free', 'Free', '{}'), (gen_random_uuid(), 'pro', 'Pro', '{}'), (gen_random_uuid(), 'team', 'Team', '{}')`,
  );
}, 120_000);
afterAll(async () => {
  await Promise.all([off?.stop(), stack?.stop()]);
  await mock?.stop();
});

/** Posts a webhook delivery with a signature made with `secret` at `timestamp` (seconds). */
function deliver(event: object, o: { secret?: string; timestamp?: number; signature?: string | null } = {}) {
  const payload = JSON.stringify(event);
  const signature = o.signature !== undefined ? o.signature : signer.webhooks.generateTestHeaderString({ payload, secret: o.secret ?? WEBHOOK_SECRET, timestamp: o.timestamp });
  return new ApiClient(stack.baseUrl).post('/api/billing/webhooks/stripe', undefined, {
    headers: { 'content-type': 'application/json', ...(signature === null ? {} : { 'stripe-signature': signature }) },
    rawBody: payload,
  });
}

let seq = 0;
const eventId = () => `evt_test_${Date.now().toString(36)}_${++seq}`;

function checkoutCompleted(userId: string, plan: string, customer: string, subscription: string) {
  return {
    id: eventId(),
    object: 'event',
    type: 'checkout.session.completed',
    created: Math.floor(Date.now() / 1000),
    data: {
      object: { id: 'cs_test_1', object: 'checkout.session', mode: 'subscription', client_reference_id: userId, customer, subscription, metadata: { plan, user_id: userId }, status: 'complete' },
    },
  };
}

function subscriptionEvent(type: 'customer.subscription.updated' | 'customer.subscription.deleted', sub: { id: string; customer: string; status: string; price: string }) {
  const now = Math.floor(Date.now() / 1000);
  return {
    id: eventId(),
    object: 'event',
    type,
    created: now,
    data: {
      object: {
        id: sub.id,
        object: 'subscription',
        customer: sub.customer,
        status: sub.status,
        cancel_at_period_end: false,
        items: {
          object: 'list',
          data: [{ id: 'si_1', object: 'subscription_item', price: { id: sub.price, object: 'price' }, current_period_start: now - 3600, current_period_end: now + 30 * 86400 }],
        },
      },
    },
  };
}

async function planOf(userId: string): Promise<string | null> {
  const [row] = await stack.ds.query('SELECT p.name FROM users u LEFT JOIN plans p ON p.id = u.plan_id WHERE u.id = $1', [userId]);
  return row?.name ?? null;
}

const eventCount = async () => Number((await stack.ds.query('SELECT count(*)::int AS n FROM billing_events'))[0].n);

describe('billing off (the default)', () => {
  it('answers every billing route 404 "Billing is not enabled on this instance"', async () => {
    const { client } = await signUp(off.baseUrl, off.mail);
    for (const r of [
      await client.get('/api/billing/status'),
      await client.post('/api/billing/plan', { plan: 'pro' }),
      await client.post('/api/billing/checkout-session', { plan: 'pro' }),
      await client.post('/api/billing/portal-session'),
      await new ApiClient(off.baseUrl).post('/api/billing/webhooks/stripe', { id: 'evt_1', type: 'ping' }, { headers: { 'stripe-signature': 't=1,v1=00' } }),
    ]) {
      expect(r.status).toBe(404);
      expect(r.body).toEqual(OFF);
    }
  });
});

describe('billing with Stripe (stripe-mock)', () => {
  it('records a usage event once per idempotency key, and a closed training job once', async () => {
    const { client, user } = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(client, 'Metered');
    const at = new Date();
    const first = await recordUsage(stack.ds, { userId: user.id, projectId, kind: 'predictions', quantity: 5, idempotencyKey: `test:${user.id}`, occurredAt: at });
    const again = await recordUsage(stack.ds, { userId: user.id, projectId, kind: 'predictions', quantity: 5, idempotencyKey: `test:${user.id}`, occurredAt: at });
    expect([first, again]).toEqual([true, false]);
    expect((await stack.ds.query('SELECT count(*)::int AS n FROM usage_events WHERE idempotency_key = $1', [`test:${user.id}`]))[0].n).toBe(1);

    // A training job that ran 90 s: its close is metered once, however often the close is written (a retried status activity).
    const job = stack.ds
      .getRepository(Job)
      .create({ projectId, kind: 'automl_train', status: 'running', workflowId: `wf-${user.id}`, taskQueue: 'q', createdBy: user.id, startedAt: new Date(Date.now() - 90_000) });
    await stack.ds.getRepository(Job).save(job);
    expect(await writeJobStatus(stack.ds, stack.store, job.id, { status: 'succeeded' })).toBe(true);
    expect(await writeJobStatus(stack.ds, stack.store, job.id, { status: 'succeeded' })).toBe(false);
    const rows = await stack.ds.query(`SELECT quantity FROM usage_events WHERE idempotency_key = $1`, [`training:${job.id}`]);
    expect(rows).toHaveLength(1);
    expect(rows[0].quantity).toBeGreaterThan(1.4);
    expect(rows[0].quantity).toBeLessThan(2);

    // Storage: one sample a day per owner, however often it is taken.
    await client.upload('/api/datasets/upload', { project_id: projectId, name: 'tiny' }, { name: 'tiny.csv', data: 'a,b\n1,2\n3,4\n' });
    await sampleStorage(stack.ds);
    await sampleStorage(stack.ds);
    const storage = await stack.ds.query(`SELECT quantity FROM usage_events WHERE user_id = $1 AND kind = 'storage_gb_hours'`, [user.id]);
    expect(storage).toHaveLength(1);
    expect(storage[0].quantity).toBeGreaterThan(0);

    const status = await client.get('/api/billing/status');
    expect(status.status).toBe(200);
    expect(status.body.usage.totals.predictions).toBe(5);
    expect(status.body.usage.totals.training_minutes).toBeCloseTo(rows[0].quantity, 6);
    expect(status.body.usage.totals.storage_gb_hours).toBeCloseTo(storage[0].quantity, 9);
  });

  it("meters a real training job's minutes and the predictions of a deployment, an A/B test and the model itself", async () => {
    const { client, user } = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(client, 'Served');
    const { models } = await trainQuickModels(client, projectId, ['GLM'], 200);
    const dep = await client.post(`/api/mlops/projects/${projectId}/deployments`, { model_id: models.GLM, name: 'prod', stage: 'production' });
    expect(dep.status).toBe(201);
    const rows = syntheticRows(3, 5).map(({ y: _y, ...r }) => r);
    for (let i = 0; i < 2; i++) expect((await client.post(`/api/mlops/deployments/${dep.body.id}/predict`, { inputs: rows })).status).toBe(200);
    const status = await client.get('/api/billing/status');
    expect(status.body.usage.totals.predictions).toBe(6);
    expect(status.body.usage.totals.training_minutes).toBeGreaterThan(0);
    // One row for the minute (two requests added to it), not one per prediction.
    expect(Number((await stack.ds.query(`SELECT count(*)::int AS n FROM usage_events WHERE kind = 'predictions' AND project_id = $1`, [projectId]))[0].n)).toBeLessThanOrEqual(2);

    // The model called directly: one row and a batch file of 3.
    expect((await client.post(`/api/models/${models.GLM}/predict`, { inputs: rows[0] })).status).toBe(200);
    const csv = `${Object.keys(rows[0]).join(',')}\n${rows.map((r) => Object.values(r).join(',')).join('\n')}\n`;
    const batch = await client.upload(`/api/models/${models.GLM}/predict/batch`, {}, { name: 'rows.csv', data: csv });
    expect(batch.status).toBe(200);
    expect(batch.body.row_count).toBe(3);
    // A refused request (a row sharing no column with the model) is not metered.
    expect((await client.post(`/api/models/${models.GLM}/predict`, { inputs: { nothing: 1 } })).status).toBe(422);
    expect((await client.get('/api/billing/status')).body.usage.totals.predictions).toBe(10);
    const modelKeys = await stack.ds.query(`SELECT idempotency_key, quantity FROM usage_events WHERE kind = 'predictions' AND idempotency_key LIKE 'predictions:model:%' AND user_id = $1`, [user.id]);
    expect(modelKeys.length).toBeGreaterThanOrEqual(1);
    for (const k of modelKeys) expect(k.idempotency_key).toMatch(new RegExp(`^predictions:model:${models.GLM}:${user.id}:`));

    // An A/B test's predictions count as its variants' deployments' predictions.
    const canary = await client.post(`/api/mlops/projects/${projectId}/deployments`, { model_id: models.GLM, name: 'canary', stage: 'staging' });
    expect(canary.status).toBe(201);
    const ab = await client.post('/api/mlops/ab-tests', {
      project_id: projectId,
      name: 'metered',
      variants: [
        { name: 'control', deployment_id: dep.body.id, weight: 1 },
        { name: 'canary', deployment_id: canary.body.id, weight: 1 },
      ],
      primary_metric: 'conversion',
    });
    expect(ab.status).toBe(201);
    expect((await client.post(`/api/mlops/ab-tests/${ab.body.id}/start`)).status).toBe(200);
    const variants = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const r = await client.post(`/api/mlops/ab-tests/${ab.body.id}/predict`, { inputs: rows.slice(0, 2) }, { headers: { 'x-ab-key': `visitor-${i}` } });
      expect(r.status).toBe(200);
      variants.add(r.body.deployment_id);
    }
    expect((await client.get('/api/billing/status')).body.usage.totals.predictions).toBe(18);
    const perDeployment: { d: string; n: number }[] = await stack.ds.query(
      `SELECT split_part(idempotency_key, ':', 2) AS d, sum(quantity)::float8 AS n FROM usage_events WHERE kind = 'predictions' AND user_id = $1 AND idempotency_key NOT LIKE 'predictions:model:%' GROUP BY 1`,
      [user.id],
    );
    expect(perDeployment.reduce((s, r) => s + r.n, 0)).toBe(14);
    for (const d of variants) expect(perDeployment.map((r) => r.d)).toContain(d);
  }, 240_000);

  it("takes the day's storage sample when a worker process starts", async () => {
    const { client, user } = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(client, 'Stored');
    expect((await client.upload('/api/datasets/upload', { project_id: projectId, name: 'tiny' }, { name: 'tiny.csv', data: 'a,b\n1,2\n3,4\n' })).status).toBe(201);
    const samples = async () => (await stack.ds.query(`SELECT quantity FROM usage_events WHERE user_id = $1 AND kind = 'storage_gb_hours'`, [user.id])) as { quantity: number }[];
    // The API took its start-up sample before this user existed; the hourly one is an hour away: only the worker's start takes it.
    expect(await samples()).toHaveLength(0);
    const worker = spawnWorkerProcess(stack, ['io']);
    try {
      const taken = await eventually(async () => ((await samples()).length ? samples() : undefined), 60_000, 250);
      expect(taken).toHaveLength(1);
      expect(taken[0].quantity).toBeGreaterThan(0);
    } finally {
      const exited = new Promise((r) => worker.once('exit', r));
      worker.kill('SIGTERM');
      await exited;
    }
  }, 120_000);

  it('opens checkout and portal sessions at the provider and shows the customer masked', async () => {
    const { client, user } = await signUp(stack.baseUrl, stack.mail);
    const before = await client.get('/api/billing/status');
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ enabled: true, provider: 'stripe', customer: null, subscription: null, paid_plans: ['pro', 'team'] });
    expect((await client.post('/api/billing/portal-session')).body).toEqual({ detail: 'No billing account yet: subscribe to a paid plan first' });

    const checkout = await client.post('/api/billing/checkout-session', { plan: 'pro' });
    expect(checkout.status).toBe(201);
    expect(checkout.body.id).toMatch(/^cs_/);
    expect(checkout.body.url).toMatch(/^https:\/\//);
    const [account] = await stack.ds.query('SELECT customer_id FROM billing_accounts WHERE user_id = $1', [user.id]);
    expect(account.customer_id).toMatch(/^cus_/);

    const portal = await client.post('/api/billing/portal-session');
    expect(portal.status).toBe(201);
    expect(portal.body.url).toMatch(/^https:\/\//);

    const after = await client.get('/api/billing/status');
    expect(after.body.customer).toBe(`cus_…${account.customer_id.slice(-4)}`);
    expect(JSON.stringify(after.body)).not.toContain(account.customer_id);

    const change = await client.post('/api/billing/plan', { plan: 'team' });
    expect(change.status).toBe(200);
    expect(change.body).toMatchObject({ action: 'checkout', plan: 'team', url: expect.stringMatching(/^https:\/\//) });
    const free = await client.post('/api/billing/plan', { plan: 'free' });
    expect(free.body).toEqual({ action: 'changed', plan: 'free' });
    expect(await planOf(user.id)).toBe('free');
    expect((await client.post('/api/billing/checkout-session', { plan: 'free' })).status).toBe(409);
  });

  it('a signed checkout.session.completed moves the plan; a replay of it changes nothing', async () => {
    const { client, user } = await signUp(stack.baseUrl, stack.mail);
    const customer = `cus_${user.id.slice(0, 8)}`;
    const event = checkoutCompleted(user.id, 'pro', customer, `sub_${user.id.slice(0, 8)}`);
    const r = await deliver(event);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ received: true, event_id: event.id, type: 'checkout.session.completed', duplicate: false, outcome: 'plan_changed' });
    expect(await planOf(user.id)).toBe('pro');
    const status = (await client.get('/api/billing/status')).body;
    expect(status.plan).toEqual({ name: 'pro', display_name: 'Pro', paid: true });
    expect(status.subscription).toMatchObject({ status: 'active', plan: 'pro' });

    // The user moves to the free plan (the subscription is canceled at the provider); the same event again changes nothing.
    expect((await client.post('/api/billing/plan', { plan: 'free' })).body).toEqual({ action: 'changed', plan: 'free' });
    const replay = await deliver(event);
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ duplicate: true, outcome: 'plan_changed' });
    expect(await planOf(user.id)).toBe('free');
  });

  it('subscription updates and deletions and failed payments move the subscription state and the plan', async () => {
    const { client, user } = await signUp(stack.baseUrl, stack.mail);
    const customer = `cus_u${user.id.slice(0, 8)}`;
    const sub = `sub_u${user.id.slice(0, 8)}`;
    await deliver(checkoutCompleted(user.id, 'pro', customer, sub));
    const upgraded = await deliver(subscriptionEvent('customer.subscription.updated', { id: sub, customer, status: 'active', price: 'price_team' }));
    expect(upgraded.body.outcome).toBe('plan_changed');
    expect(await planOf(user.id)).toBe('team');
    const status = (await client.get('/api/billing/status')).body;
    expect(status.subscription).toMatchObject({ status: 'active', plan: 'team', current_period_end: expect.any(String) });

    const failed = await deliver({ id: eventId(), object: 'event', type: 'invoice.payment_failed', data: { object: { id: 'in_1', object: 'invoice', customer, subscription: sub } } });
    expect(failed.body.outcome).toBe('payment_failed');
    expect((await client.get('/api/billing/status')).body.subscription.status).toBe('past_due');
    expect(await planOf(user.id)).toBe('team');

    const deleted = await deliver(subscriptionEvent('customer.subscription.deleted', { id: sub, customer, status: 'canceled', price: 'price_team' }));
    expect(deleted.body.outcome).toBe('plan_changed');
    expect(await planOf(user.id)).toBe('free');
    expect((await client.get('/api/billing/status')).body.subscription.status).toBe('canceled');

    // An event for no known customer, or of a type billing does not act on, is recorded and changes nothing.
    expect((await deliver(subscriptionEvent('customer.subscription.updated', { id: 'sub_nobody', customer: 'cus_nobody', status: 'active', price: 'price_pro' }))).body.outcome).toBe(
      'unknown_customer',
    );
    expect((await deliver(checkoutCompleted('not-a-uuid', 'pro', 'cus_x', 'sub_x'))).body.outcome).toBe('unknown_customer');
    expect((await deliver({ id: eventId(), type: 'customer.created', data: { object: { id: 'cus_new' } } })).body.outcome).toBe('ignored');
  });

  it('refuses a bad signature, another secret, an old timestamp and a missing header with 400, changing nothing', async () => {
    const { user } = await signUp(stack.baseUrl, stack.mail);
    const event = checkoutCompleted(user.id, 'pro', `cus_b${user.id.slice(0, 8)}`, `sub_b${user.id.slice(0, 8)}`);
    const count = await eventCount();
    const now = Math.floor(Date.now() / 1000);
    const cases: [Awaited<ReturnType<typeof deliver>>, string][] = [
      [await deliver(event, { signature: `t=${now},v1=${'0'.repeat(64)}` }), 'Invalid webhook signature'],
      [await deliver(event, { secret: 'whsec_someone_else' }), 'Invalid webhook signature'],
      [await deliver(event, { signature: 'garbage' }), 'Invalid webhook signature'],
      [await deliver(event, { timestamp: now - 600 }), 'Webhook timestamp outside the tolerance (300 s)'],
      [await deliver(event, { signature: null }), 'Missing Stripe-Signature header'],
    ];
    for (const [r, detail] of cases) {
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ detail });
    }
    expect(await eventCount()).toBe(count);
    expect(await planOf(user.id)).toBeNull();
    // The body signed is the body verified: a changed byte after signing is refused too.
    const payload = JSON.stringify(event);
    const header = signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const tampered = await new ApiClient(stack.baseUrl).post('/api/billing/webhooks/stripe', undefined, {
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      rawBody: payload.replace('"pro"', '"team"'),
    });
    expect(tampered.status).toBe(400);
    expect(await planOf(user.id)).toBeNull();
  });

  it('refuses hostile input with 422, unknown plans with 404, and checks credentials, CSRF and key scopes', async () => {
    const { client } = await signUp(stack.baseUrl, stack.mail);
    for (const body of [{ plan: 5 }, { plan: 'pro\u0000' }, { plan: 'x'.repeat(65) }, { plan: 'Pro Plan' }, {}, { plan: 'pro', extra: 1 }, { plan: ['pro'] }]) {
      const r = await client.post('/api/billing/plan', body);
      expect(r.status).toBe(422);
      expect(Array.isArray(r.body.detail)).toBe(true);
      expect((await client.post('/api/billing/checkout-session', body)).status).toBe(422);
    }
    expect(await client.post('/api/billing/plan', { plan: 'platinum' })).toMatchObject({ status: 404, body: { detail: 'Plan not found' } });
    expect((await client.post('/api/billing/checkout-session', { plan: 'platinum' })).status).toBe(404);
    // Not JSON, and a webhook body with a NUL character.
    expect((await client.post('/api/billing/plan', undefined, { headers: { 'content-type': 'text/plain' }, rawBody: 'plan=pro' })).status).toBe(415);
    const nul = await new ApiClient(stack.baseUrl).post('/api/billing/webhooks/stripe', { id: 'evt_\u0000', type: 'x' }, { headers: { 'stripe-signature': 't=1,v1=00' } });
    expect(nul.status).toBe(422);

    const anonymous = new ApiClient(stack.baseUrl);
    expect((await anonymous.get('/api/billing/status')).status).toBe(401);
    expect((await anonymous.post('/api/billing/plan', { plan: 'free' })).status).toBe(401);
    client.sendCsrf = false;
    for (const path of ['/api/billing/plan', '/api/billing/checkout-session', '/api/billing/portal-session']) {
      const r = await client.post(path, { plan: 'free' });
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ detail: 'CSRF token missing or invalid' });
    }
    client.sendCsrf = true;

    const narrow = new ApiClient(stack.baseUrl).withKey((await client.post('/api/auth/api-keys', { name: 'ro', scopes: ['read', 'write'] })).body.api_key);
    expect(await narrow.get('/api/billing/status')).toMatchObject({ status: 403, body: { detail: 'Insufficient scope' } });
    const admin = new ApiClient(stack.baseUrl).withKey((await client.post('/api/auth/api-keys', { name: 'adm', scopes: ['admin'] })).body.api_key);
    expect((await admin.get('/api/billing/status')).status).toBe(200);
    // Changing what is paid for takes a session login, whatever the key.
    expect((await admin.post('/api/billing/plan', { plan: 'free' })).status).toBe(403);
  });
});
