import { execFile } from 'node:child_process';
import path from 'node:path';
import { Writable } from 'node:stream';
import { ApiClient, createProject, eventually, signUp, uniqueEmail } from './support/client';
import { linkIn } from './support/smtp-sink';
import { startStack, TestStack } from './support/stack';
import { makeSuperuser } from './support/superuser';

let stack: TestStack;
let admin: Awaited<ReturnType<typeof signUp>>;
let plain: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  // Warnings are logged (to a sink, not the test's output) so the captured service logs have something to show.
  const sink = new Writable({ write: (_c, _e, cb) => cb() });
  stack = await startStack({ workers: [], env: { LOG_LEVEL: 'warn', ADMIN_EMAIL: BOOTSTRAP_EMAIL }, logTo: sink });
  admin = await signUp(stack.baseUrl, stack.mail, { name: 'Ada Admin', email: BOOTSTRAP_EMAIL });
  plain = await signUp(stack.baseUrl, stack.mail, { name: 'Plain User' });
});
afterAll(async () => stack?.stop());

/** The first-run bootstrap's address: its account is the first superuser. */
const BOOTSTRAP_EMAIL = `root-${Date.now()}@example.test`;
const anon = () => new ApiClient(stack.baseUrl);
const ZERO = '00000000-0000-4000-8000-000000000000';

async function keyOf(client: ApiClient, scopes: string[]): Promise<ApiClient> {
  const r = await client.post('/api/auth/api-keys', { name: scopes.join(' '), scopes });
  expect(r.status).toBe(201);
  return anon().withKey(r.body.api_key);
}

/** Every admin route of this part, with a valid request each. */
function adminCalls(userId: string): [string, string, unknown?][] {
  return [
    ['GET', '/api/admin/users'],
    ['GET', `/api/admin/users/${userId}`],
    ['PUT', `/api/admin/users/${userId}`, { is_superuser: false }],
    ['POST', `/api/admin/users/${userId}/suspend`],
    ['POST', `/api/admin/users/${userId}/reactivate`],
    ['DELETE', `/api/admin/users/${userId}`],
    ['GET', '/api/admin/api-keys'],
    ['POST', `/api/admin/api-keys/${ZERO}/revoke`],
    ['GET', '/api/admin/settings'],
    ['PUT', '/api/admin/settings', { registration: 'open' }],
    ['GET', '/api/admin/logs'],
    ['GET', '/api/admin/security-events'],
  ];
}

describe('superusers', () => {
  it('makes the ADMIN_EMAIL account the first superuser when it registers, and no one after it', async () => {
    expect((await admin.client.get('/api/auth/me')).body.user.is_superuser).toBe(true);
    expect((await plain.client.get('/api/auth/me')).body.user.is_superuser).toBe(false);
    const events = await admin.client.get(`/api/admin/security-events?type=superuser_granted&user_id=${admin.user.id}`);
    expect(events.body.items.map((e: { details: unknown }) => e.details)).toEqual([{ via: 'ADMIN_EMAIL' }]);
  });

  it("grants the flag from the operator's CLI, and says so when no account has the email", async () => {
    const u = await signUp(stack.baseUrl, stack.mail);
    const cli = path.join(__dirname, '..', 'scripts', 'admin.js');
    // Asynchronously: the API under test runs in this process and must keep answering meanwhile.
    const run = (...args: string[]) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        execFile(process.execPath, [cli, ...args], { env: { ...process.env, DATABASE_URL: stack.databaseUrl, LOG_LEVEL: 'warn' } }, (err, stdout, stderr) =>
          resolve({ status: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
        );
      });
    const ok = await run('grant-superuser', u.email.toUpperCase());
    expect([ok.status, ok.stdout.trim()]).toEqual([0, `${u.email.toUpperCase()} is a superuser`]);
    expect((await u.client.get('/api/auth/me')).body.user.is_superuser).toBe(true);
    const missing = await run('grant-superuser', 'nobody@example.test');
    expect([missing.status, missing.stderr]).toEqual([1, expect.stringContaining('No account has the email')]);
    expect((await run('grant-superuser')).status).toBe(2);
    // Back to a plain user, so the other tests see one superuser.
    await stack.ds.query('UPDATE users SET is_superuser = false WHERE id = $1', [u.user.id]);
  });

  it("makeSuperuser (the tests' helper) works from a database URL too", async () => {
    const u = await signUp(stack.baseUrl, stack.mail);
    await makeSuperuser(stack.databaseUrl, u.user.id);
    expect((await u.client.get('/api/auth/me')).body.user.is_superuser).toBe(true);
    await stack.ds.query('UPDATE users SET is_superuser = false WHERE id = $1', [u.user.id]);
  });
});

describe('admin access', () => {
  it('answers 401 without credentials and 403 to users who are not superusers, cookie or key', async () => {
    const key = await keyOf(plain.client, ['*']);
    for (const [method, path, body] of adminCalls(admin.user.id)) {
      const none = await anon().request(method, path, body);
      expect([method, path, none.status]).toEqual([method, path, 401]);
      const cookie = await plain.client.request(method, path, body);
      expect([method, path, cookie.status, cookie.body]).toEqual([method, path, 403, { detail: 'Superuser access required' }]);
      const viaKey = await key.request(method, path, body);
      expect([method, path, viaKey.status]).toEqual([method, path, 403]);
    }
    // Nothing changed for the target.
    expect((await admin.client.get('/api/auth/me')).status).toBe(200);
  });

  it("needs a key with the admin alias, and the CSRF header on a superuser's cookie writes", async () => {
    const narrow = await keyOf(admin.client, ['read', 'write:projects']);
    expect((await narrow.get('/api/admin/users')).body).toEqual({ detail: 'Insufficient scope' });
    const broad = await keyOf(admin.client, ['admin']);
    expect((await broad.get('/api/admin/users')).status).toBe(200);
    admin.client.sendCsrf = false;
    try {
      const r = await admin.client.put('/api/admin/settings', { registration: 'open' });
      expect(r.status).toBe(403);
      expect(r.body.detail).toMatch(/CSRF/);
    } finally {
      admin.client.sendCsrf = true;
    }
  });

  it('refuses hostile input with 422 and unknown ids with 404', async () => {
    const c = admin.client;
    expect((await c.get('/api/admin/users/not-a-uuid')).status).toBe(422);
    expect((await c.get(`/api/admin/users/${ZERO}`)).status).toBe(404);
    expect((await c.post(`/api/admin/users/${ZERO}/suspend`)).status).toBe(404);
    expect((await c.del(`/api/admin/users/${ZERO}`)).status).toBe(404);
    expect((await c.post(`/api/admin/api-keys/${ZERO}/revoke`)).body).toEqual({ detail: 'API key not found' });
    for (const q of ['limit=2147483648', 'limit=0', 'offset=-1', 'suspended=maybe', 'sort_field=password_hash', 'q=a%00b']) {
      const r = await c.get(`/api/admin/users?${q}`);
      expect([q, r.status]).toEqual([q, 422]);
      expect(Array.isArray(r.body.detail)).toBe(true);
    }
    expect((await c.get('/api/admin/logs?level=debug')).status).toBe(422);
    expect((await c.get('/api/admin/logs?from=yesterday')).status).toBe(422);
    expect((await c.get('/api/admin/security-events?type=coffee_break')).status).toBe(422);
    expect((await c.get('/api/admin/api-keys?user_id=1')).status).toBe(422);
    for (const body of [{ is_superuser: 'yes' }, {}, { is_superuser: true, email: 'x@y.z' }]) {
      expect((await c.put(`/api/admin/users/${plain.user.id}`, body)).status).toBe(422);
    }
    for (const body of [
      { registration: 'sometimes' },
      { session_lifetime_hours: 2 ** 31 },
      { session_lifetime_hours: 0 },
      { session_lifetime_hours: '5' },
      { allowed_email_domains: ['exa\u0000mple.com'] },
      { allowed_email_domains: 'example.com' },
      { default_plan: '' },
      { colour: 'blue' },
    ]) {
      const r = await c.put('/api/admin/settings', body);
      expect([body, r.status]).toEqual([body, 422]);
    }
  });
});

describe('users', () => {
  it('lists, searches, filters and pages users, and shows one with what they own', async () => {
    const projectId = await createProject(plain.client, 'Plain project');
    const all = await admin.client.get('/api/admin/users?limit=1&sort_field=email&sort_direction=asc');
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: expect.any(Number), limit: 1, offset: 0 });
    expect(all.body.items).toHaveLength(1);
    const found = await admin.client.get(`/api/admin/users?q=${encodeURIComponent('plain user')}`);
    expect(found.body.items.map((u: { id: string }) => u.id)).toEqual([plain.user.id]);
    expect(found.body.items[0]).toMatchObject({ email: plain.email, is_superuser: false, suspended_at: null, last_login_at: expect.any(String) });
    const supers = await admin.client.get('/api/admin/users?superuser=true');
    expect(supers.body.items.map((u: { id: string }) => u.id)).toEqual([admin.user.id]);
    const detail = await admin.client.get(`/api/admin/users/${plain.user.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.user).toMatchObject({
      id: plain.user.id,
      memberships: 1,
      live_sessions: 1,
      projects_owned: [{ id: projectId, name: 'Plain project' }],
      plan: { name: 'self_hosted', source: 'built_in' },
    });
    expect(JSON.stringify(detail.body)).not.toMatch(/password|hash/i);
  });

  it("a suspended user's cookie and key answer 401 on the very next request, login refuses them, and reactivation restores both", async () => {
    const u = await signUp(stack.baseUrl, stack.mail);
    const key = await keyOf(u.client, ['read:projects']);
    // Warm the key cache: a cached principal must not outlive the suspension.
    expect((await key.get('/api/projects')).status).toBe(200);
    expect((await u.client.get('/api/projects')).status).toBe(200);

    const s = await admin.client.post(`/api/admin/users/${u.user.id}/suspend`, undefined, { headers: { 'user-agent': 'admin-test/1.0' } });
    expect(s.status).toBe(200);
    expect(s.body.user.suspended_at).toEqual(expect.any(String));
    for (const r of [await u.client.get('/api/projects'), await key.get('/api/projects')]) {
      expect(r.status).toBe(401);
      expect(r.body.detail).toMatch(/suspended/);
    }
    const login = await anon().post('/api/auth/login', { email: u.email, password: u.password });
    expect(login.status).toBe(401);
    expect(login.body.detail).toMatch(/suspended/);
    expect((await admin.client.get('/api/admin/users?suspended=true')).body.items.map((x: { id: string }) => x.id)).toContain(u.user.id);

    expect((await admin.client.post(`/api/admin/users/${u.user.id}/reactivate`)).body.user.suspended_at).toBeNull();
    expect((await u.client.get('/api/projects')).status).toBe(200);
    expect((await key.get('/api/projects')).status).toBe(200);
    expect((await anon().post('/api/auth/login', { email: u.email, password: u.password })).status).toBe(200);

    // The failed login is written after its answer.
    const events = await eventually(async () => {
      const r = await admin.client.get(`/api/admin/security-events?user_id=${u.user.id}&type=suspended,reactivated,login_failed`);
      return r.body.items.length === 3 && r;
    }, 10_000);
    expect(events.body.items.map((e: { type: string }) => e.type).sort()).toEqual(['login_failed', 'reactivated', 'suspended']);
    const suspended = events.body.items.find((e: { type: string }) => e.type === 'suspended');
    expect(suspended).toMatchObject({ user: { id: u.user.id, email: u.email }, user_agent: 'admin-test/1.0', details: { by: admin.user.id }, ip: expect.any(String) });
    // An admin cannot lock themselves out.
    expect((await admin.client.post(`/api/admin/users/${admin.user.id}/suspend`)).status).toBe(409);
  });

  it('grants the superuser flag, never takes it from the last superuser, and records the grant', async () => {
    const u = await signUp(stack.baseUrl, stack.mail);
    expect((await admin.client.put(`/api/admin/users/${admin.user.id}`, { is_superuser: false })).status).toBe(409);
    const granted = await admin.client.put(`/api/admin/users/${u.user.id}`, { is_superuser: true });
    expect(granted.body.user.is_superuser).toBe(true);
    expect((await u.client.get('/api/auth/me')).body.user.is_superuser).toBe(true);
    expect((await u.client.get('/api/admin/users')).status).toBe(200);
    const events = await admin.client.get(`/api/admin/security-events?type=superuser_granted&q=${encodeURIComponent(u.email)}`);
    expect(events.body.items).toHaveLength(1);
    expect(events.body.items[0].details).toEqual({ by: admin.user.id });
    // Two superusers now: one may step down, and then the other is the last again.
    expect((await u.client.put(`/api/admin/users/${u.user.id}`, { is_superuser: false })).body.user.is_superuser).toBe(false);
    expect((await u.client.get('/api/admin/users')).status).toBe(403);
  });

  it('deletes a user and says what became of their data: sole projects deleted, shared ones transferred', async () => {
    const u = await signUp(stack.baseUrl, stack.mail);
    const co = await signUp(stack.baseUrl, stack.mail);
    const sole = await createProject(u.client, 'Sole');
    const shared = await createProject(u.client, 'Shared');
    expect((await u.client.post(`/api/projects/${shared}/members`, { email: co.email, role: 'owner' })).status).toBe(201);
    expect((await admin.client.del(`/api/admin/users/${admin.user.id}`)).status).toBe(409);
    const r = await admin.client.del(`/api/admin/users/${u.user.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ok: true, user_id: u.user.id, email: u.email, projects_deleted: [sole], projects_transferred: [shared], data: expect.stringMatching(/deleted/) });
    expect((await u.client.get('/api/projects')).status).toBe(401);
    expect((await co.client.get(`/api/projects/${shared}`)).status).toBe(200);
    expect((await co.client.get(`/api/projects/${sole}`)).status).toBe(404);
    expect((await admin.client.get(`/api/admin/users/${u.user.id}`)).status).toBe(404);
  });
});

describe('API keys', () => {
  it("lists every user's keys with their owner and revokes one at once", async () => {
    const key = await keyOf(plain.client, ['read:projects']);
    expect((await key.get('/api/projects')).status).toBe(200);
    const list = await admin.client.get(`/api/admin/api-keys?user_id=${plain.user.id}`);
    expect(list.status).toBe(200);
    const row = list.body.items.find((k: { name: string }) => k.name === 'read:projects');
    expect(row).toMatchObject({ prefix: expect.any(String), scopes: ['read:projects'], revoked_at: null, last_used_at: expect.any(String), owner: { id: plain.user.id, email: plain.email } });
    expect(JSON.stringify(list.body)).not.toMatch(/secret|hash/i);
    expect((await admin.client.get(`/api/admin/api-keys?q=${row.prefix}`)).body.items.map((k: { id: string }) => k.id)).toEqual([row.id]);

    expect((await admin.client.post(`/api/admin/api-keys/${row.id}/revoke`)).body).toEqual({ ok: true });
    expect((await key.get('/api/projects')).status).toBe(401);
    expect((await admin.client.post(`/api/admin/api-keys/${row.id}/revoke`)).status).toBe(409);
    const revoked = await admin.client.get(`/api/admin/api-keys?status=revoked&user_id=${plain.user.id}`);
    expect(revoked.body.items.map((k: { id: string }) => k.id)).toContain(row.id);
    const events = await admin.client.get(`/api/admin/security-events?type=api_key_revoked&user_id=${plain.user.id}`);
    expect(events.body.items[0].details).toMatchObject({ key_id: row.id, prefix: row.prefix, by_admin: admin.user.id });
  });
});

describe('settings', () => {
  afterAll(async () => {
    await admin.client.put('/api/admin/settings', { registration: null, allowed_email_domains: null, session_lifetime_hours: null, default_plan: null });
  });

  it('closes registration, makes it invite-only, limits domains and sets the session lifetime', async () => {
    const got = await admin.client.get('/api/admin/settings');
    expect(got.body).toEqual({
      settings: { registration: 'open', default_plan: null, allowed_email_domains: [], session_lifetime_hours: 24 },
      defaults: { registration: 'open', default_plan: null, allowed_email_domains: [], session_lifetime_hours: 24 },
    });
    const register = (email: string, extra: Record<string, string> = {}) => anon().post('/api/auth/register', { email, name: 'New', password: 'a long password', ...extra });

    expect((await admin.client.put('/api/admin/settings', { registration: 'closed' })).body.settings.registration).toBe('closed');
    const closed = await register(uniqueEmail('closed'));
    expect(closed.status).toBe(403);
    expect(closed.body.detail).toMatch(/Registration is closed/);

    await admin.client.put('/api/admin/settings', { registration: 'invite_only' });
    const invited = uniqueEmail('invited');
    expect((await register(invited)).body.detail).toMatch(/by invitation only/);
    const projectId = await createProject(admin.client, 'Invites');
    expect((await admin.client.post('/api/auth/invite', { project_id: projectId, email: invited, role: 'viewer' })).status).toBe(201);
    const mail = await stack.mail.waitFor(invited, /invitations\/accept\?token=/, 15_000);
    const token = new URL(linkIn(mail, '/app/invitations/accept?token=')).searchParams.get('token')!;
    expect((await register(uniqueEmail('other'), { invitation_token: token })).status).toBe(403);
    expect((await register(invited, { invitation_token: 'x'.repeat(40) })).status).toBe(403);
    expect((await register(invited, { invitation_token: token })).status).toBe(201);

    const put = await admin.client.put('/api/admin/settings', { registration: 'open', allowed_email_domains: ['@Corp.Example'] });
    expect(put.body.settings.allowed_email_domains).toEqual(['corp.example']);
    const refused = await register(uniqueEmail('outsider'));
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/email domain/);
    expect((await register(`staff-${Date.now()}@corp.example`)).status).toBe(201);
    expect((await register(`lab-${Date.now()}@eu.corp.example`)).status).toBe(201);

    await admin.client.put('/api/admin/settings', { allowed_email_domains: null, session_lifetime_hours: 2 });
    const c = anon();
    expect((await c.post('/api/auth/login', { email: plain.email, password: plain.password })).status).toBe(200);
    const sessions = await c.get('/api/auth/sessions');
    const mine = sessions.body.items.find((s: { current: boolean }) => s.current);
    const hours = (Date.parse(mine.expires_at) - Date.parse(mine.created_at)) / 3_600_000;
    expect(hours).toBeCloseTo(2, 1);
  });
});

describe('service logs', () => {
  it('shows a warning the test provoked, searchable by text and level', async () => {
    // A body that is not JSON is refused by the body parser, which the API logs as a warning.
    const bad = await plain.client.post('/api/projects', undefined, { headers: { 'content-type': 'application/json' }, rawBody: '{"name": "broken' });
    expect(bad.status).toBe(400);
    const entry = await eventually(async () => {
      const r = await admin.client.get(`/api/admin/logs?level=warn&q=${encodeURIComponent('body parser')}&from=${encodeURIComponent(new Date(Date.now() - 600_000).toISOString())}`);
      return r.body.items?.[0];
    }, 15_000);
    expect(entry).toMatchObject({ level: 'warn', process: 'test', msg: 'request refused by the database or the body parser', pid: expect.any(Number), fields: expect.any(Object) });
    expect((await admin.client.get('/api/admin/logs?level=error&q=body%20parser')).body.items).toEqual([]);
    expect((await admin.client.get('/api/admin/logs?process=no-such-process')).body.total).toBe(0);
  });
});
