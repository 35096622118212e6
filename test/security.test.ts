import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { ApiClient, createProject, eventually, signUp, uniqueEmail, type Res } from './support/client';
import { linkIn } from './support/smtp-sink';
import { startStack, TestStack } from './support/stack';
import { readZip } from './support/zip';

/**
 * Regression tests of the security review (issue 13): API-key scopes, account enumeration,
 * password resets, secrets in logs, login CSRF and names from users' data.
 */

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ env: { RATE_LIMIT_TRAIN: '1000', RATE_LIMIT_PREDICT: '1000' } });
});
afterAll(async () => stack?.stop());

const anon = () => new ApiClient(stack.baseUrl);

/** A client authenticated by a new API key of `owner` with `scopes`. */
async function keyClient(owner: ApiClient, scopes: string[]): Promise<ApiClient> {
  const r = await owner.post('/api/auth/api-keys', { name: scopes.join(' '), scopes });
  if (r.status !== 201) throw new Error(`key creation failed: ${r.status}`);
  return new ApiClient(stack.baseUrl).withKey(r.body.api_key);
}

async function upload(client: ApiClient, projectId: string, name: string, csv: string) {
  const r = await client.upload('/api/datasets/upload', { project_id: projectId, name }, { name: `${name}.csv`, data: csv });
  if (r.status !== 201) throw new Error(`upload failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as { id: string; dataset_version_id: string; artifact_id: string };
}

async function waitJob(client: ApiClient, jobId: string) {
  return eventually(
    async () => {
      const j = (await client.get(`/api/jobs/${jobId}`)).body.job;
      return ['succeeded', 'failed', 'canceled'].includes(j.status) ? j : undefined;
    },
    120_000,
    200,
  );
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}

describe('API-key scopes', () => {
  it('PUT /api/auth/profile is for sessions: no API key renames the account, whatever its scopes', async () => {
    const { client } = await signUp(stack.baseUrl, stack.mail);
    for (const scopes of [['read:datasets'], ['write:projects'], ['*']]) {
      const key = await keyClient(client, scopes);
      const r = await key.put('/api/auth/profile', { name: 'Renamed by a key' });
      expect([scopes, r.status]).toEqual([scopes, 403]);
    }
    expect((await client.get('/api/auth/me')).body.user.name).toBe('Test User');
    expect((await client.put('/api/auth/profile', { name: 'By session' })).status).toBe(200);
  });

  it('a dataset file needs read:datasets, whichever route hands it out', async () => {
    const { client } = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(client, 'Scopes');
    const d = await upload(client, projectId, 'people', 'a,b\n1,x\n2,y\n');
    const projectsOnly = await keyClient(client, ['read:projects']);
    for (const p of [`/api/artifacts/${d.artifact_id}/download`, `/api/artifacts/${d.artifact_id}/preview`, `/api/datasets/${d.id}/download`]) {
      const r = await projectsOnly.get(p);
      expect([p, r.status, r.body]).toEqual([p, 403, { detail: 'Insufficient scope' }]);
    }
    const datasets = await keyClient(client, ['read:datasets']);
    expect((await datasets.get(`/api/artifacts/${d.artifact_id}/download`)).status).toBe(200);
    expect((await datasets.get(`/api/artifacts/${d.artifact_id}/preview`)).body.rows).toEqual([
      { a: 1, b: 'x' },
      { a: 2, b: 'y' },
    ]);
    // A model key reads no dataset file; the broad alias reads everything.
    expect((await (await keyClient(client, ['read:models'])).get(`/api/artifacts/${d.artifact_id}/download`)).status).toBe(403);
    expect((await (await keyClient(client, ['read'])).get(`/api/artifacts/${d.artifact_id}/download`)).status).toBe(200);
    // Unknown artifacts stay 404 for any key.
    expect((await datasets.get('/api/artifacts/00000000-0000-4000-8000-000000000000/download')).status).toBe(404);
  });

  it('the project export needs the read scopes of what the archive holds', async () => {
    const { client } = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(client, 'Export scopes');
    await upload(client, projectId, 'inside', 'a\n1\n');
    for (const scopes of [['read:projects'], ['read:projects', 'read:datasets'], ['read:projects', 'read:datasets', 'read:models', 'read:reports', 'read:privacy'], ['write:projects']]) {
      const r = await (await keyClient(client, scopes)).get(`/api/projects/${projectId}/export`);
      expect([scopes, r.status]).toEqual([scopes, 403]);
    }
    for (const scopes of [['read:projects', 'read:datasets', 'read:models', 'read:reports', 'read:privacy', 'read:synthgen'], ['read']]) {
      const r = await (await keyClient(client, scopes)).get(`/api/projects/${projectId}/export`);
      expect([scopes, r.status, r.headers.get('content-type')]).toEqual([scopes, 200, 'application/zip']);
    }
  });

  it('an export job needs a write scope and the editor role; its archive needs the archive scopes', async () => {
    const owner = await signUp(stack.baseUrl, stack.mail);
    const viewer = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(owner.client, 'Export jobs');
    await upload(owner.client, projectId, 'data', 'a,b\n1,2\n');
    expect((await owner.client.post(`/api/projects/${projectId}/members`, { email: viewer.email, role: 'viewer' })).status).toBe(201);

    expect((await (await keyClient(owner.client, ['read:projects'])).post(`/api/projects/${projectId}/export/jobs`)).body).toEqual({ detail: 'Insufficient scope' });
    expect((await viewer.client.post(`/api/projects/${projectId}/export/jobs`)).status).toBe(403);
    expect((await (await keyClient(viewer.client, ['write:projects'])).post(`/api/projects/${projectId}/export/jobs`)).status).toBe(403);

    const writer = await keyClient(owner.client, ['write:projects']);
    const started = await writer.post(`/api/projects/${projectId}/export/jobs`);
    expect(started.status).toBe(201);
    // Cancelling needs the write scope of what the job acts on (a project here), not another one.
    const cancelByDatasetKey = await (await keyClient(owner.client, ['write:datasets'])).post(`/api/jobs/${started.body.job_id}/cancel`);
    expect(cancelByDatasetKey.body).toEqual({ detail: 'Insufficient scope' });
    const job = await waitJob(owner.client, started.body.job_id);
    expect(job.status).toBe('succeeded');
    const archive = job.result.artifact_id as string;
    expect((await writer.get(`/api/artifacts/${archive}/download`)).status).toBe(403);
    const reader = await keyClient(owner.client, ['read:projects', 'read:datasets', 'read:models', 'read:reports', 'read:privacy', 'read:synthgen']);
    const zip = await reader.get(`/api/artifacts/${archive}/download`);
    expect(zip.status).toBe(200);
    expect([...readZip(zip.raw!).keys()]).toContain('manifest.json');
    expect((await writer.post(`/api/jobs/${started.body.job_id}/cancel`)).status).toBe(409);
  });

  it('every operation open to API keys names its scope or its scope rule', async () => {
    const doc = (await anon().get('/api/openapi.json')).body;
    const open: string[] = [];
    for (const [p, ops] of Object.entries(doc.paths as Record<string, Record<string, { security: Record<string, unknown>[]; 'x-required-scope': unknown; 'x-scope-rule'?: string }>>)) {
      for (const [m, op] of Object.entries(ops)) {
        const keys = op.security.some((s) => 'bearerApiKey' in s);
        if (keys && !op['x-required-scope'] && !op['x-scope-rule']) open.push(`${m} ${p}`);
      }
    }
    expect(open).toEqual([]);
    expect(doc.paths['/api/projects/{project_id}/export'].get['x-required-scope']).toEqual(['read:projects', 'read:datasets', 'read:models', 'read:reports', 'read:privacy', 'read:synthgen']);
    expect(doc.paths['/api/projects/{project_id}/export/jobs'].post['x-required-scope']).toBe('write:projects');
    // Session only: the cookie (with its CSRF pair), never a Bearer key.
    const security: Record<string, unknown>[] = doc.paths['/api/auth/profile'].put.security;
    expect(security.length).toBeGreaterThan(0);
    for (const s of security) expect(Object.keys(s)).toContain('sessionCookie');
    expect(JSON.stringify(security)).not.toMatch(/bearer/i);
  });
});

describe('account enumeration', () => {
  it('login answers unknown emails as wrong passwords, after an argon2 verification of the same cost', async () => {
    const { email } = await signUp(stack.baseUrl, stack.mail);
    const known: number[] = [];
    const unknown: number[] = [];
    // Interleaved, so a busy moment on a shared machine weighs on both sides.
    for (let i = 0; i < 5; i++) {
      const k = await timed(() => anon().post('/api/auth/login', { email, password: 'not the password' }));
      const u = await timed(() => anon().post('/api/auth/login', { email: uniqueEmail('ghost'), password: 'not the password' }));
      expect([k.value.status, k.value.body]).toEqual([401, { detail: 'Invalid email or password' }]);
      expect([u.value.status, u.value.body]).toEqual([401, { detail: 'Invalid email or password' }]);
      known.push(k.ms);
      unknown.push(u.ms);
    }
    // Without the dummy verification an unknown email costs one SELECT: a few percent of argon2.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.4);
  });

  it('forgot-password and resend-verification answer before any mail is sent, alike for every email', async () => {
    const { email } = await signUp(stack.baseUrl, stack.mail);
    const unverified = uniqueEmail('unverified');
    expect((await anon().post('/api/auth/register', { email: unverified, name: 'U', password: 'longenough' })).status).toBe(201);
    await stack.mail.waitFor(unverified, /verify-email/);
    stack.mail.delayMs = 3000;
    try {
      const before = stack.mail.mails.length;
      for (const [route, known] of [
        ['/api/auth/forgot-password', email],
        ['/api/auth/resend-verification', unverified],
      ]) {
        const k = await timed(() => anon().post(route, { email: known }));
        const u = await timed(() => anon().post(route, { email: uniqueEmail('ghost') }));
        expect([route, k.value.status, k.value.body]).toEqual([route, 200, { ok: true }]);
        expect([route, u.value.status, u.value.body]).toEqual([route, 200, { ok: true }]);
        // The mail server takes 3 s to accept a message; the answer must not wait for it.
        expect([route, k.ms < 1500]).toEqual([route, true]);
      }
      await stack.mail.waitFor(email, /reset-password\?token=/, 15_000);
      await eventually(async () => stack.mail.mails.length >= before + 2, 15_000, 100);
    } finally {
      stack.mail.delayMs = 0;
    }
  });

  it('an invitation answers alike, and before any mail, for registered and unknown addresses; only the invited account sees it', async () => {
    const owner = await signUp(stack.baseUrl, stack.mail);
    const invitee = await signUp(stack.baseUrl, stack.mail, { name: 'Secret Name' });
    const stranger = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(owner.client, 'Invites');
    const nobody = uniqueEmail('nobody');

    stack.mail.delayMs = 3000;
    let registered!: { ms: number; value: Res };
    let unknown!: { ms: number; value: Res };
    try {
      registered = await timed(() => owner.client.post('/api/auth/invite', { project_id: projectId, email: invitee.email, role: 'viewer' }));
      unknown = await timed(() => owner.client.post('/api/auth/invite', { project_id: projectId, email: nobody, role: 'viewer' }));
      // The mail server takes 3 s to accept a message: neither answer waits for it, nor looks up an account.
      expect([registered.ms < 1500, unknown.ms < 1500]).toEqual([true, true]);
      await stack.mail.waitFor(invitee.email, /invited you to the project "Invites"/, 15_000);
      await stack.mail.waitFor(nobody, /invited you to the project "Invites"/, 15_000);
    } finally {
      stack.mail.delayMs = 0;
    }
    const neutral = (r: { status: number; body: { invitation: Record<string, unknown> } }) => {
      const { email: _email, id: _id, created_at: _c, expires_at: _e, ...rest } = r.body.invitation;
      return [r.status, Object.keys(r.body).sort(), Object.keys(r.body.invitation).sort(), rest];
    };
    expect(neutral(registered.value)).toEqual(neutral(unknown.value));
    expect(registered.value.body.invitation).toMatchObject({ email: invitee.email, role: 'viewer', project_id: projectId });
    expect(JSON.stringify(registered.value.body)).not.toContain('Secret Name');
    expect(JSON.stringify(registered.value.body)).not.toContain(invitee.user.id);
    // Both mails carry a link with its own token; no token is stored as sent.
    const tokens = [invitee.email, nobody].map((e) =>
      new URL(
        linkIn(
          stack.mail.mails.find((m) => m.to.includes(e) && /invite/.test(m.text))!,
          'invitations/accept?token=',
        ),
      ).searchParams.get('token')!,
    );
    expect(new Set(tokens).size).toBe(2);
    const stored: { token_hash: string }[] = await stack.ds.query('SELECT token_hash FROM project_invitations WHERE project_id = $1', [projectId]);
    for (const t of tokens) expect(JSON.stringify(stored)).not.toContain(t);

    // Nobody joined yet: the member list tells nothing; the invitation list (owner only) shows addresses only.
    expect((await owner.client.get(`/api/projects/${projectId}/members`)).body.total).toBe(1);
    const invitations = (await owner.client.get(`/api/projects/${projectId}/invitations`)).body;
    expect(invitations.items.map((i: { email: string }) => i.email).sort()).toEqual([invitee.email, nobody].sort());
    for (const i of invitations.items) expect(Object.keys(i).sort()).toEqual(['created_at', 'email', 'expires_at', 'id', 'role']);

    // The invitee (and only the invitee) sees it and accepts it by id.
    const id = registered.value.body.invitation_id as string;
    const mine = (await invitee.client.get('/api/invitations')).body.items;
    expect(mine).toEqual([expect.objectContaining({ id, project_id: projectId, project_name: 'Invites', role: 'viewer', invited_by_name: 'Test User' })]);
    expect((await stranger.client.get('/api/invitations')).body.items).toEqual([]);
    expect((await stranger.client.post(`/api/invitations/${id}/accept`)).status).toBe(404);
    expect((await invitee.client.get(`/api/projects/${projectId}`)).status).toBe(404);
    expect((await invitee.client.post(`/api/invitations/${id}/accept`)).body).toEqual({ ok: true, project_id: projectId, role: 'viewer' });
    expect((await invitee.client.get(`/api/projects/${projectId}`)).status).toBe(200);
    expect((await invitee.client.post(`/api/invitations/${id}/accept`)).status).toBe(404);
    // Accepting by id spent the invitation: its link no longer works either.
    expect((await invitee.client.post('/api/auth/invite/accept', { token: tokens[0] })).status).toBe(400);
    expect((await owner.client.get(`/api/projects/${projectId}/members`)).body.total).toBe(2);

    // An address that registers later finds its invitation waiting; the owner may withdraw one.
    const late = await signUp(stack.baseUrl, stack.mail, { email: nobody });
    expect((await late.client.get('/api/invitations')).body.items).toHaveLength(1);
    expect((await owner.client.del(`/api/projects/${projectId}/invitations/${unknown.value.body.invitation_id}`)).body).toEqual({ ok: true });
    expect((await late.client.get('/api/invitations')).body.items).toEqual([]);
  });
});

describe('password reset', () => {
  const resetTokens = (email: string) =>
    stack.mail.mails.filter((m) => m.to.includes(email) && /reset-password\?token=/.test(m.text)).map((m) => new URL(linkIn(m, 'reset-password?token=')).searchParams.get('token')!);

  it('a reset spends every older reset link and revokes every API key', async () => {
    const { client, email } = await signUp(stack.baseUrl, stack.mail);
    const key = await keyClient(client, ['read:projects']);
    expect((await key.get('/api/projects')).status).toBe(200);
    await anon().post('/api/auth/forgot-password', { email });
    await eventually(async () => resetTokens(email).length === 1, 15_000, 50);
    await anon().post('/api/auth/forgot-password', { email });
    await eventually(async () => resetTokens(email).length === 2, 15_000, 50);
    const [older, newer] = resetTokens(email);

    expect((await anon().post('/api/auth/reset-password', { token: newer, password: 'the new password' })).body).toEqual({ ok: true });
    const stale = await anon().post('/api/auth/reset-password', { token: older, password: 'the attacker password' });
    expect([stale.status, stale.body]).toEqual([400, { detail: 'Invalid or expired reset token' }]);
    expect((await key.get('/api/projects')).status).toBe(401);
    expect((await client.get('/api/auth/api-keys')).status).toBe(401);
    await stack.mail.waitFor(email, /every API key was revoked/);
    expect((await anon().post('/api/auth/login', { email, password: 'the new password' })).status).toBe(200);
  });

  it('a password change spends outstanding reset links and keeps API keys, naming them in a notice', async () => {
    const { client, email, password } = await signUp(stack.baseUrl, stack.mail);
    const created = (await client.post('/api/auth/api-keys', { name: 'ci', scopes: ['read:projects'] })).body;
    await anon().post('/api/auth/forgot-password', { email });
    await eventually(async () => resetTokens(email).length === 1, 15_000, 50);
    const [token] = resetTokens(email);

    expect((await client.put('/api/auth/change-password', { current_password: password, new_password: 'changed password 1' })).body).toEqual({ ok: true });
    expect((await anon().post('/api/auth/reset-password', { token, password: 'the attacker password' })).status).toBe(400);
    expect((await new ApiClient(stack.baseUrl).withKey(created.api_key).get('/api/projects')).status).toBe(200);
    const notice = await stack.mail.waitFor(email, /password of your account was changed/);
    expect(notice.text).toContain(`ci (${created.prefix})`);
  });
});

describe('secrets in logs', () => {
  let logged: TestStack;
  let lines: string[] = [];

  beforeAll(async () => {
    const capture = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        cb();
      },
    });
    // No SMTP_URL: mails go to the outbox folder.
    logged = await startStack({ workers: [], env: { LOG_LEVEL: 'info', SMTP_URL: '' }, logTo: capture });
  });
  afterAll(async () => logged?.stop());
  beforeEach(() => {
    lines = [];
  });

  /** The newest outbox mail to `to` (written as JSON without SMTP). */
  const outboxMail = (to: string): { to: string; subject: string; text: string } | undefined => {
    const dir = logged.config.mail.outboxDir;
    const files = fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
    const mails = files.map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { to: string; subject: string; text: string });
    return mails.reverse().find((m) => m.to === to);
  };

  it('without SMTP the log names recipient and subject only; the link stays in the outbox file', async () => {
    const email = uniqueEmail('outbox');
    const c = new ApiClient(logged.baseUrl);
    expect((await c.post('/api/auth/register', { email, name: 'O', password: 'longenough' })).status).toBe(201);
    const mail = outboxMail(email)!;
    expect(mail.text).toMatch(/verify-email\?token=/);
    const entry = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'mail written to outbox (SMTP_URL not set)');
    expect(entry).toMatchObject({ to: email, subject: 'Activate your account' });
    expect(entry.text).toBeUndefined();
    expect(lines.join('\n')).not.toMatch(/token=/);
    const token = new URL(mail.text.match(/https?:\/\/\S+/)![0]).searchParams.get('token')!;
    expect(lines.join('\n')).not.toContain(token);
  });

  it('a failing database write is logged without its parameters: no password hash, no key hash', async () => {
    await logged.ds.query("ALTER TABLE users ADD CONSTRAINT test_no_boom CHECK (name <> 'boom')");
    await logged.ds.query("ALTER TABLE api_keys ADD CONSTRAINT test_no_boom_key CHECK (name <> 'boom')");
    try {
      const c = new ApiClient(logged.baseUrl);
      const failed = await c.post('/api/auth/register', { email: uniqueEmail('boom'), name: 'boom', password: 'a secret password' });
      // A check violation is the request's data (422 with a fixed text): the database's words never reach the client.
      expect([failed.status, failed.body]).toEqual([422, { detail: 'A value is outside what is allowed' }]);

      // A logged-in user whose key creation fails the same way.
      const email = uniqueEmail('keys');
      await c.post('/api/auth/register', { email, name: 'K', password: 'longenough' });
      const link = new URL(outboxMail(email)!.text.match(/https?:\/\/\S+/)![0]);
      expect((await c.get(link.pathname + link.search)).status).toBe(200);
      expect((await c.post('/api/auth/login', { email, password: 'longenough' })).status).toBe(200);
      expect((await c.post('/api/auth/api-keys', { name: 'boom', scopes: ['read'] })).status).toBe(422);

      const text = lines.join('\n');
      const failures = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request refused by the database or the body parser');
      expect(failures).toHaveLength(2);
      for (const f of failures) {
        expect(f.err).toMatchObject({ type: 'QueryFailedError', code: '23514', constraint: expect.stringMatching(/^test_no_boom/) });
        expect(f.err.parameters).toBeUndefined();
        expect(f.err.driverError.detail).toBeUndefined();
      }
      expect(text).not.toContain('$argon2');
      // Key secrets, session and mailed tokens are stored as SHA-256 hex: none may reach the log.
      expect(text).not.toMatch(/\b[0-9a-f]{64}\b/);
      expect(text).not.toContain('a secret password');
    } finally {
      await logged.ds.query('ALTER TABLE users DROP CONSTRAINT test_no_boom');
      await logged.ds.query('ALTER TABLE api_keys DROP CONSTRAINT test_no_boom_key');
    }
  });
});

describe('login CSRF: JSON routes take JSON only', () => {
  it('a form-encoded or text/plain login from another origin gets 415 and no cookie', async () => {
    const { email, password } = await signUp(stack.baseUrl, stack.mail);
    const form = await anon().post('/api/auth/login', undefined, {
      rawBody: new URLSearchParams({ email, password }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
    });
    expect([form.status, form.body]).toEqual([415, { detail: 'Expected application/json' }]);
    expect(form.headers.getSetCookie()).toEqual([]);
    const text = await anon().post('/api/auth/login', undefined, { rawBody: JSON.stringify({ email, password }), headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    expect(text.headers.getSetCookie()).toEqual([]);
    expect(
      (await anon().post('/api/auth/forgot-password', undefined, { rawBody: `email=${encodeURIComponent(email)}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status,
    ).toBe(415);

    const json = anon();
    expect((await json.post('/api/auth/login', { email, password })).status).toBe(200);
    // Bodiless writes still pass, and vendor JSON types are JSON.
    expect((await json.post('/api/auth/logout')).status).toBe(200);
    expect((await anon().post('/api/auth/login', undefined, { rawBody: JSON.stringify({ email, password }), headers: { 'content-type': 'application/vnd.api+json' } })).status).toBe(200);
  });

  it('a JSON body with a __proto__ key is refused with a readable 400', async () => {
    const r = await anon().post('/api/auth/login', undefined, { rawBody: '{"email":"a@b.test","password":"x","__proto__":{"admin":true}}', headers: { 'content-type': 'application/json' } });
    expect([r.status, r.body]).toEqual([400, { detail: 'JSON keys named __proto__ are not accepted' }]);
  });
});

describe("names from users' data", () => {
  /** Column names and values that are also members of Object.prototype. */
  const tricky = (rows: number, shift = 0) => {
    const lines = ['__proto__,constructor,toString,label'];
    for (let i = 0; i < rows; i++) {
      const x = i + shift;
      lines.push(`${x % 17},${(x * 7) % 11},${['__proto__', 'constructor', 'toString'][x % 3]},${x % 17 < 8 ? '__proto__' : 'toString'}`);
    }
    return lines.join('\n') + '\n';
  };
  const columns = ['__proto__', 'constructor', 'toString', 'label'];

  it('previews, samples, statistics and comparisons keep columns named __proto__, constructor and toString', async () => {
    const { client } = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(client, 'Names');
    const d = await upload(client, projectId, 'tricky', tricky(60));

    const detail = await client.get(`/api/datasets/${d.id}`);
    expect(Object.keys(detail.body.preview[0])).toEqual(columns);
    expect(detail.body.preview[0]).toEqual(JSON.parse('{"__proto__":0,"constructor":0,"toString":"__proto__","label":"__proto__"}'));
    const artifact = await client.get(`/api/artifacts/${d.artifact_id}/preview?rows=2`);
    expect(Object.keys(artifact.body.rows[1])).toEqual(columns);
    const sample = await client.get(`/api/dataset-versions/${d.dataset_version_id}/sample?n=5`);
    for (const row of sample.body.rows) expect(Object.keys(row)).toEqual(columns);

    const stats = (await client.get(`/api/datasets/${d.id}/analyze`)).body.statistics;
    expect(Object.keys(stats.columns).sort()).toEqual([...columns].sort());
    expect(stats.columns.__proto__).toMatchObject({ type: 'numeric', min: 0, max: 16 });
    expect(Object.keys(stats.columns.toString.top_values).sort()).toEqual(['__proto__', 'constructor', 'toString']);
    expect(Object.keys(stats.columns.label.top_values).sort()).toEqual(['__proto__', 'toString']);
    expect(Object.keys(stats.correlations).sort()).toEqual(['__proto__', 'constructor']);
    expect(Object.keys(stats.correlations.__proto__).sort()).toEqual(['__proto__', 'constructor']);

    expect((await client.upload(`/api/datasets/${d.id}/versions`, { description: 'v1' }, { name: 'v1.csv', data: tricky(60, 5) })).status).toBe(201);
    const compare = (await client.get(`/api/datasets/${d.id}/compare?v1=0&v2=1`)).body;
    expect(Object.keys(compare.column_diffs).sort()).toEqual([...columns].sort());
  });

  it('predict reads inputs as own properties, and class labels named __proto__ keep their probability', async () => {
    const { client } = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(client, 'Predict names');
    const d = await upload(client, projectId, 'tricky', tricky(80));
    const e = await client.post('/api/experiments', {
      project_id: projectId,
      dataset_version_id: d.dataset_version_id,
      name: 'tricky',
      target_column: 'label',
      problem_type: 'classification',
      config: { max_models: 1, nfolds: 2, seed: 1, exclude_algos: ['XGBoost', 'DRF', 'GLM', 'DeepLearning', 'StackedEnsemble'] },
    });
    expect(e.status).toBe(201);
    const done = await eventually(
      async () => {
        const s = await client.get(`/api/experiments/${e.body.id}/status`);
        return ['succeeded', 'failed', 'canceled'].includes(s.body.status) ? s.body : undefined;
      },
      240_000,
      500,
    );
    expect(done).toMatchObject({ status: 'succeeded' });
    const modelId = (await client.get(`/api/experiments/${e.body.id}`)).body.best_model_id as string;

    // No input at all: no feature is read from Object.prototype, so the row shares no column with the schema.
    const empty = await client.post(`/api/models/${modelId}/predict`, { inputs: {} });
    expect(empty.status).toBe(422);
    expect(empty.body.detail).toMatch(/^Prediction failed: inputs must match the training schema; row 0 has none of its columns \(expected: .*\b__proto__\b.*\)$/);
    const partial = await client.post(`/api/models/${modelId}/predict`, { inputs: [{ toString: 'constructor' }, { constructor: 3 }] });
    expect(partial.status).toBe(200);
    expect(partial.body.predictions).toHaveLength(2);
    expect(Object.keys(partial.body.predictions[0].probabilities).sort()).toEqual(['__proto__', 'toString']);
    expect(['__proto__', 'toString']).toContain(partial.body.predictions[0].prediction);
    // Features a row lacks are named, own keys only: row 0 sent toString, not constructor.
    expect(partial.body.warnings.find((w: { type: string }) => w.type === 'missing_features').columns).toContain('constructor');

    // The model's own files follow the model scope.
    const model = (await client.get(`/api/models/${modelId}`)).body.model;
    expect((await (await keyClient(client, ['read:datasets'])).get(`/api/artifacts/${model.artifact_id}/download`)).status).toBe(403);
    expect((await (await keyClient(client, ['read:models'])).get(`/api/artifacts/${model.artifact_id}/download`)).status).toBe(200);
  });
});
