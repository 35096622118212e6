import { ApiClient, createProject, eventually, signUp, uniqueEmail } from './support/client';
import { linkIn } from './support/smtp-sink';
import { startStack, TestStack } from './support/stack';

/**
 * The auth extras: invitations by mailed link (`POST /api/auth/invite`), the account activity log, the plan
 * with its quotas, and the tenant summary. Quotas are set low here so each can be reached.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({
    workers: [],
    env: { MAX_MODELS_PER_EXPERIMENT: '5', MAX_PROJECTS_PER_USER: '3', MAX_OPEN_JOBS_PER_USER: '1', MAX_OPEN_JOBS_PER_PROJECT: '1', MAX_STORAGE_BYTES_PER_PROJECT: '400000', RATE_LIMIT_TRAIN: '1000' },
  });
});
afterAll(async () => stack?.stop());

const anon = () => new ApiClient(stack.baseUrl);
const UA = { 'user-agent': 'account-test/1.0' };

/** The token of the newest invitation mail to `email` about `project`. */
async function inviteToken(email: string, project: string): Promise<string> {
  const mail = await stack.mail.waitFor(email, new RegExp(`invited you to the project "${project}"`), 15_000);
  const link = new URL(linkIn(mail, '/app/invitations/accept?token='));
  expect(link.origin).toBe('http://app.test');
  return link.searchParams.get('token')!;
}

async function keyClient(owner: ApiClient, scopes: string[]): Promise<ApiClient> {
  const r = await owner.post('/api/auth/api-keys', { name: scopes.join(' '), scopes });
  if (r.status !== 201) throw new Error(`key creation failed: ${r.status}`);
  return anon().withKey(r.body.api_key);
}

describe('invitations by link', () => {
  it('an invited address registers, verifies, and joins with the invited role by the link', async () => {
    const owner = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(owner.client, 'Invited');
    const email = uniqueEmail('invitee');

    const invited = await owner.client.post('/api/auth/invite', { project_id: projectId, email: email.toUpperCase(), role: 'viewer' });
    expect(invited.status).toBe(201);
    expect(invited.body).toEqual({
      id: invited.body.invitation.id,
      invitation_id: invited.body.invitation.id,
      invitation: { id: expect.any(String), email, role: 'viewer', project_id: projectId, created_at: expect.any(String), expires_at: expect.any(String) },
    });
    const days = (Date.parse(invited.body.invitation.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13.9);
    expect(days).toBeLessThanOrEqual(14);
    const token = await inviteToken(email, 'Invited');
    expect(token.length).toBeGreaterThanOrEqual(40);

    // The person has no account yet: they register (and verify by the mailed activation link), then accept.
    const invitee = await signUp(stack.baseUrl, stack.mail, { email });
    expect((await invitee.client.get(`/api/projects/${projectId}`)).status).toBe(404);
    const accepted = await invitee.client.post('/api/auth/invite/accept', { token });
    expect(accepted.body).toEqual({ ok: true, project_id: projectId, role: 'viewer' });
    expect((await invitee.client.get(`/api/projects/${projectId}`)).body.project).toMatchObject({ id: projectId, role: 'viewer' });
    const members = (await owner.client.get(`/api/projects/${projectId}/members`)).body.items;
    expect(members.find((m: { email: string }) => m.email === email)).toMatchObject({ user_id: invitee.user.id, role: 'viewer' });
    expect((await owner.client.get(`/api/projects/${projectId}/invitations`)).body.total).toBe(0);

    // The link works once.
    const again = await invitee.client.post('/api/auth/invite/accept', { token });
    expect([again.status, again.body]).toEqual([400, { detail: 'Invalid invitation link: it was withdrawn, replaced by a newer one, or already used' }]);
  });

  it('withdrawn, renewed, expired and wrong links are refused with a clear detail', async () => {
    const owner = await signUp(stack.baseUrl, stack.mail);
    const user = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(owner.client, 'Links');
    const invalid = { detail: 'Invalid invitation link: it was withdrawn, replaced by a newer one, or already used' };

    // Withdrawn by the owner.
    const revokedEmail = uniqueEmail('revoked');
    const revoked = await owner.client.post('/api/auth/invite', { project_id: projectId, email: revokedEmail });
    expect(revoked.body.invitation.role).toBe('editor');
    const revokedToken = await inviteToken(revokedEmail, 'Links');
    expect((await owner.client.del(`/api/projects/${projectId}/invitations/${revoked.body.id}`)).body).toEqual({ ok: true });
    const r1 = await user.client.post('/api/auth/invite/accept', { token: revokedToken });
    expect([r1.status, r1.body]).toEqual([400, invalid]);

    // Renewed: inviting the address again replaces the link (and the role).
    const renewEmail = uniqueEmail('renew');
    await owner.client.post('/api/auth/invite', { project_id: projectId, email: renewEmail, role: 'viewer' });
    const first = await inviteToken(renewEmail, 'Links');
    const renewed = await owner.client.post('/api/auth/invite', { project_id: projectId, email: renewEmail, role: 'admin' });
    expect(renewed.body.invitation.role).toBe('admin');
    const second = await eventually(async () => {
      const t = await inviteToken(renewEmail, 'Links');
      return t !== first ? t : undefined;
    }, 15_000);
    expect((await user.client.post('/api/auth/invite/accept', { token: first })).body).toEqual(invalid);

    // Expired.
    await stack.ds.query(`UPDATE project_invitations SET expires_at = now() - interval '1 minute' WHERE id = $1`, [renewed.body.id]);
    const expired = await user.client.post('/api/auth/invite/accept', { token: second });
    expect([expired.status, expired.body]).toEqual([400, { detail: 'Invitation link has expired; ask the project owner for a new one' }]);
    expect((await user.client.get(`/api/projects/${projectId}`)).status).toBe(404);

    // Wrong or malformed tokens.
    expect((await user.client.post('/api/auth/invite/accept', { token: 'x'.repeat(43) })).body).toEqual(invalid);
    expect((await user.client.post('/api/auth/invite/accept', { token: 'short' })).status).toBe(422);
    expect((await user.client.post('/api/auth/invite/accept', {})).status).toBe(422);
    expect((await anon().post('/api/auth/invite/accept', { token: second })).status).toBe(401);
  });

  it('only the owner invites and sees invitations; never a role above their own', async () => {
    const owner = await signUp(stack.baseUrl, stack.mail);
    const admin = await signUp(stack.baseUrl, stack.mail);
    const outsider = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(owner.client, 'Owners');
    expect((await owner.client.post(`/api/projects/${projectId}/members`, { email: admin.email, role: 'admin' })).status).toBe(201);

    const byAdmin = await admin.client.post('/api/auth/invite', { project_id: projectId, email: uniqueEmail(), role: 'viewer' });
    expect([byAdmin.status, byAdmin.body]).toEqual([403, { detail: 'Only the project owner can manage members' }]);
    const above = await admin.client.post('/api/auth/invite', { project_id: projectId, email: uniqueEmail(), role: 'owner' });
    expect([above.status, above.body]).toEqual([403, { detail: 'Cannot assign a role above your own' }]);
    expect((await admin.client.get(`/api/projects/${projectId}/invitations`)).status).toBe(403);
    expect((await outsider.client.post('/api/auth/invite', { project_id: projectId, email: uniqueEmail() })).body).toEqual({ detail: 'Project not found' });
    expect((await owner.client.post('/api/auth/invite', { project_id: projectId, email: 'not an email' })).status).toBe(422);
    expect((await owner.client.post('/api/auth/invite', { project_id: projectId, email: uniqueEmail(), role: 'god' })).status).toBe(422);
    // Session writes need the CSRF header, as every cookie-authenticated write.
    owner.client.sendCsrf = false;
    expect((await owner.client.post('/api/auth/invite', { project_id: projectId, email: uniqueEmail() })).status).toBe(403);
    owner.client.sendCsrf = true;
    // A key needs write:projects.
    expect((await (await keyClient(owner.client, ['read:projects'])).post('/api/auth/invite', { project_id: projectId, email: uniqueEmail() })).body).toEqual({ detail: 'Insufficient scope' });
    expect((await (await keyClient(owner.client, ['write:projects'])).post('/api/auth/invite', { project_id: projectId, email: uniqueEmail() })).status).toBe(201);
  });
});

describe('my activity', () => {
  it("lists the caller's logins, failed logins, key creation and revocation, newest first with address and user agent, and nobody else's", async () => {
    const a = await signUp(stack.baseUrl, stack.mail);
    const b = await signUp(stack.baseUrl, stack.mail);
    // A logs in again with a recognisable user agent; someone fails to log in as A.
    expect((await a.client.post('/api/auth/login', { email: a.email, password: a.password }, { headers: UA })).status).toBe(200);
    expect((await anon().post('/api/auth/login', { email: a.email, password: 'not the password' }, { headers: UA })).status).toBe(401);
    const key = await a.client.post('/api/auth/api-keys', { name: 'ci', scopes: ['read:projects'] }, { headers: UA });
    expect((await a.client.post(`/api/auth/api-keys/${key.body.id}/revoke`, undefined, { headers: UA })).status).toBe(200);
    expect((await a.client.put('/api/auth/profile', { name: 'Renamed' })).status).toBe(200);
    // B's own events: none of them may show in A's log.
    await b.client.post('/api/auth/api-keys', { name: 'b-key', scopes: ['read'] });

    // The failed login is written off the request path.
    const page = await eventually(async () => {
      const r = await a.client.get('/api/auth/my-activity');
      return r.body.items.some((e: { type: string }) => e.type === 'login_failed') ? r : undefined;
    }, 15_000);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ limit: 50, offset: 0 });
    const items: { id: string; type: string; created_at: string; ip: string | null; user_agent: string | null; details: Record<string, unknown> }[] = page.body.items;
    expect(page.body.total).toBe(items.length);
    const types = items.map((e) => e.type);
    // The failed login is written after its answer, so it may land anywhere after the second login.
    expect(types.filter((t) => t !== 'login_failed')).toEqual(
      ['profile_updated', 'api_key_revoked', 'api_key_created', 'login', 'email_verified', 'registered'].flatMap((t) => (t === 'login' ? ['login', 'login'] : [t])),
    );
    expect(types.filter((t) => t === 'login_failed')).toHaveLength(1);
    expect(types.indexOf('login_failed')).toBeLessThan(types.indexOf('login'));
    // Newest first.
    const times = items.map((e) => Date.parse(e.created_at));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    expect(types.indexOf('api_key_revoked')).toBeLessThan(types.indexOf('api_key_created'));
    const revoked = items.find((e) => e.type === 'api_key_revoked')!;
    expect(revoked).toMatchObject({ user_agent: 'account-test/1.0', details: { key_id: key.body.id, name: 'ci', prefix: key.body.prefix } });
    expect(revoked.ip).toMatch(/127\.0\.0\.1|::1/);
    expect(items.find((e) => e.type === 'login_failed')).toMatchObject({ user_agent: 'account-test/1.0', details: { reason: 'wrong_password' } });
    expect(items.filter((e) => e.type === 'login').map((e) => e.user_agent)).toContain('account-test/1.0');
    expect(items.find((e) => e.type === 'profile_updated')!.details).toEqual({ changes: { name: { from: 'Test User', to: 'Renamed' } } });
    // Never a secret, never another user's event.
    expect(JSON.stringify(items)).not.toContain(key.body.api_key.split('.')[1]);
    expect(JSON.stringify(items)).not.toContain('b-key');
    const bItems: { type: string; details: Record<string, unknown> }[] = (await b.client.get('/api/auth/my-activity')).body.items;
    expect(bItems.map((e) => e.type).sort()).toEqual(['api_key_created', 'email_verified', 'login', 'registered']);
    expect(JSON.stringify(bItems)).not.toContain(key.body.id);
  });

  it('records password changes and resets, revoked sessions, logout and logout-all, and never a secret', async () => {
    const { client, email, password } = await signUp(stack.baseUrl, stack.mail);
    const other = anon();
    expect((await other.post('/api/auth/login', { email, password })).status).toBe(200);
    expect((await client.put('/api/auth/change-password', { current_password: password, new_password: 'second password' })).status).toBe(200);
    const third = anon();
    expect((await third.post('/api/auth/login', { email, password: 'second password' })).status).toBe(200);
    const sessions = (await client.get('/api/auth/sessions')).body.items as { id: string; current: boolean }[];
    const thirdSession = sessions.find((x) => !x.current)!;
    expect((await client.post(`/api/auth/sessions/${thirdSession.id}/revoke`)).status).toBe(200);
    expect((await client.post('/api/auth/logout-all')).status).toBe(200);

    expect((await anon().post('/api/auth/forgot-password', { email })).status).toBe(200);
    const mail = await stack.mail.waitFor(email, /reset-password\?token=/, 15_000);
    const token = new URL(linkIn(mail, 'reset-password?token=')).searchParams.get('token')!;
    expect((await anon().post('/api/auth/reset-password', { token, password: 'third password' })).status).toBe(200);
    const again = anon();
    expect((await again.post('/api/auth/login', { email, password: 'third password' })).status).toBe(200);
    expect((await again.post('/api/auth/logout')).status).toBe(200);
    expect((await again.post('/api/auth/login', { email, password: 'third password' })).status).toBe(200);

    const items: { type: string; details: Record<string, unknown> }[] = (await again.get('/api/auth/my-activity')).body.items;
    const byType = (t: string) => items.filter((e) => e.type === t);
    expect(byType('password_changed').map((e) => e.details)).toEqual([{ sessions_revoked: 1 }]);
    expect(byType('session_revoked').map((e) => e.details)).toEqual([{ session_id: thirdSession.id }]);
    expect(byType('logout_all').map((e) => e.details)).toEqual([{ sessions_revoked: 1 }]);
    expect(byType('password_reset_requested')).toHaveLength(1);
    expect(byType('password_reset').map((e) => e.details)).toEqual([{ sessions_revoked: 0, api_keys_revoked: 0 }]);
    expect(byType('logout')).toHaveLength(1);
    expect(byType('login')).toHaveLength(5);
    // No token or password reaches the log.
    for (const secret of [token, password, 'second password', 'third password']) expect(JSON.stringify(items)).not.toContain(secret);
  });

  it('pages, refuses hostile queries with 422, and is for session logins only', async () => {
    const { client } = await signUp(stack.baseUrl, stack.mail);
    for (let i = 0; i < 3; i++) await client.put('/api/auth/profile', { name: `Name ${i}` });
    const all = (await client.get('/api/auth/my-activity')).body;
    expect(all.total).toBe(6); // registered, email_verified, login, 3 × profile_updated
    const first = (await client.get('/api/auth/my-activity?limit=4')).body;
    const second = (await client.get('/api/auth/my-activity?limit=4&offset=4')).body;
    expect([first.items.length, second.items.length, first.total, second.total, first.limit, second.offset]).toEqual([4, 2, 6, 6, 4, 4]);
    expect([...first.items, ...second.items].map((e: { id: string }) => e.id)).toEqual(all.items.map((e: { id: string }) => e.id));
    expect(first.items[0].details).toEqual({ changes: { name: { from: 'Name 1', to: 'Name 2' } } });
    expect((await client.get('/api/auth/my-activity?limit=100')).status).toBe(200);
    expect((await client.get('/api/auth/my-activity?offset=100')).body.items).toEqual([]);

    for (const q of ['limit=0', 'limit=101', 'limit=2147483648', 'limit=abc', 'limit=1e2', 'limit=-1', 'offset=-1', 'offset=2147483648', 'offset=x', 'limit=']) {
      const r = await client.get(`/api/auth/my-activity?${q}`);
      expect([q, r.status]).toEqual([q, 422]);
      expect(Array.isArray(r.body.detail)).toBe(true);
    }
    const key = await keyClient(client, ['*']);
    expect((await key.get('/api/auth/my-activity')).status).toBe(403);
    expect((await anon().get('/api/auth/my-activity')).status).toBe(401);
  });
});

describe('plan and tenant info', () => {
  it('a new account has the self-hosted plan with the configured quotas and nothing used', async () => {
    const { client } = await signUp(stack.baseUrl, stack.mail);
    const r = await client.get('/api/auth/plan');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      plan: {
        id: null,
        name: 'self_hosted',
        display_name: 'Self-hosted',
        // Plans (issue 34): no plan of their own, their teams' or a default one, so the built-in plan.
        source: 'built_in',
        team_plans: [],
        quotas: {
          max_models: 5,
          max_runtime_secs: 86_400,
          max_upload_bytes: stack.config.limits.maxDatasetUploadBytes,
          max_dataset_columns: stack.config.limits.maxDatasetColumns,
          max_projects: 3,
          max_concurrent_jobs: 1,
          max_open_jobs: 1,
          max_open_jobs_per_project: 1,
          max_running_jobs: 1,
          predictions_per_minute: null,
          max_storage_bytes: 100 * 1024 ** 3,
          max_storage_bytes_per_project: 400_000,
          max_synthgen_rows: stack.config.synthgen.maxRows,
        },
        usage: { projects_owned: 0, projects_member: 0, datasets: 0, experiments: 0, models: 0, storage_bytes: 0, open_jobs: 0, predictions_this_minute: 0 },
      },
    });
    expect(stack.config.limits.maxDatasetUploadBytes).toBe(100 * 1024 * 1024);

    const t = await client.get('/api/auth/tenant-info');
    expect(t.status).toBe(200);
    expect(t.body).toMatchObject({
      tenant: { user: { email: expect.any(String) }, plan: { name: 'self_hosted' } },
      projects: [],
      projects_total: 0,
      limits: { quotas: r.body.plan.quotas, rate_limits: { window_secs: 60, members: 30, auth: expect.any(Number), general: expect.any(Number) } },
      usage: r.body.plan.usage,
    });
    // Reading the account needs read:projects from a key.
    expect((await (await keyClient(client, ['read:projects'])).get('/api/auth/plan')).status).toBe(200);
    expect((await (await keyClient(client, ['read:models'])).get('/api/auth/tenant-info')).body).toEqual({ detail: 'Insufficient scope' });
    expect((await anon().get('/api/auth/plan')).status).toBe(401);
  });

  it("tenant info lists the account's projects with the caller's role in each; usage counts what it owns", async () => {
    const me = await signUp(stack.baseUrl, stack.mail);
    const other = await signUp(stack.baseUrl, stack.mail);
    const mine = await createProject(me.client, 'b-mine');
    const shared = await createProject(other.client, 'a-shared');
    await createProject(other.client, 'not mine');
    expect((await other.client.post(`/api/projects/${shared}/members`, { email: me.email, role: 'viewer' })).status).toBe(201);
    const up = await me.client.upload('/api/datasets/upload', { project_id: mine, name: 'tiny' }, { name: 'tiny.csv', data: 'a,b\n1,2\n3,4\n' });
    expect(up.status).toBe(201);

    const t = (await me.client.get('/api/auth/tenant-info')).body;
    expect(t.projects).toEqual([
      { id: shared, name: 'a-shared', role: 'viewer', created_at: expect.any(String) },
      { id: mine, name: 'b-mine', role: 'owner', created_at: expect.any(String) },
    ]);
    expect(t.projects_total).toBe(2);
    expect(t.usage).toMatchObject({ projects_owned: 1, projects_member: 2, datasets: 1, experiments: 0, models: 0 });
    expect(t.usage.storage_bytes).toBeGreaterThan(0);
  });

  it('enforces the quotas: projects owned, an experiment max_models cap, open jobs', async () => {
    const { client } = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(client, 'q1');
    await createProject(client, 'q2');
    await createProject(client, 'q3');
    const fourth = await client.post('/api/projects', { name: 'q4' });
    expect([fourth.status, fourth.body]).toEqual([409, { detail: 'Project quota reached: a user may own at most 3 projects' }]);

    const rows = Array.from({ length: 40 }, (_, i) => `${i},${(i * 7) % 11},${i % 2 ? 'yes' : 'no'}`).join('\n');
    const up = await client.upload('/api/datasets/upload', { project_id: projectId, name: 'labels' }, { name: 'labels.csv', data: `x,z,label\n${rows}\n` });
    expect(up.status).toBe(201);
    const experiment = (config?: Record<string, unknown>) =>
      client.post('/api/experiments', { project_id: projectId, dataset_version_id: up.body.dataset_version_id, name: 'capped', target_column: 'label', problem_type: 'classification', config });

    const over = await experiment({ max_models: 6 });
    expect(over.status).toBe(422);
    expect(over.body.detail).toEqual([
      { loc: ['body', 'config', 'max_models'], msg: 'max_models must be an integer between 1 and 5 (the account quota, max_models of the plan)', type: 'value_error' },
    ]);
    // One experiment holds a training slot for its whole budget: a day at most by default, not the engine's 7 days.
    const long = await experiment({ max_models: 2, max_runtime_secs: 86_401 });
    expect(long.status).toBe(422);
    expect(long.body.detail).toEqual([
      { loc: ['body', 'config', 'max_runtime_secs'], msg: 'max_runtime_secs must be an integer between 1 and 86400 (the account quota, max_runtime_secs of the plan)', type: 'value_error' },
    ]);
    const caps = (await client.get('/api/experiments/capabilities')).body;
    expect([caps.limits.max_models_cap, caps.config_defaults.max_models, caps.limits.max_runtime_secs_max]).toEqual([5, 5, 86_400]);

    // An omitted max_models takes the default within the cap.
    const within = await experiment();
    expect(within.status).toBe(201);
    expect((await client.get(`/api/experiments/${within.body.id}`)).body.experiment.max_models).toBe(5);
    // No worker runs here: the job stays queued, and the one open job the quota allows is used.
    const plan = (await client.get('/api/auth/plan')).body.plan;
    expect(plan.usage).toMatchObject({ projects_owned: 3, datasets: 1, experiments: 1, open_jobs: 1 });
    const second = await experiment({ max_models: 2 });
    expect([second.status, second.body]).toEqual([429, { detail: 'Too many open jobs: at most 1 may be queued or running at once per user; wait for one to finish or cancel one' }]);
    expect(second.headers.get('retry-after')).toBe('30');
    // The project's own cap counts every member's jobs: an editor with none open is still refused there.
    const editor = await signUp(stack.baseUrl, stack.mail);
    expect((await client.post(`/api/projects/${projectId}/members`, { email: editor.email, role: 'editor' })).status).toBe(201);
    const byEditor = await editor.client.post('/api/experiments', {
      project_id: projectId,
      dataset_version_id: up.body.dataset_version_id,
      name: 'editor',
      target_column: 'label',
      problem_type: 'classification',
      config: { max_models: 2 },
    });
    expect([byEditor.status, byEditor.body]).toEqual([429, { detail: 'Too many open jobs in this project: at most 1 may be queued or running at once; wait for one to finish or cancel one' }]);
    // Once it ends (no worker here to end it: the row is moved as the workflow would), another may start.
    await stack.ds.query(`UPDATE jobs SET status = 'failed' WHERE id = $1`, [within.body.job_id]);
    expect((await client.get('/api/auth/plan')).body.plan.usage.open_jobs).toBe(0);
    expect((await experiment({ max_models: 2 })).status).toBe(201);
  });

  it('enforces the storage quota: an upload or a job past it is refused with 403 before anything is written', async () => {
    const { client } = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(client, 'storage');
    const csv = (n: number) => `id,value,note\n${Array.from({ length: n }, (_, i) => `${i},${(i * 7919) % 10007},note-${i % 13}`).join('\n')}\n`;
    const first = await client.upload('/api/datasets/upload', { project_id: projectId, name: 'first' }, { name: 'first.csv', data: csv(2000) });
    expect(first.status).toBe(201);
    const used = Number((await client.get('/api/auth/plan')).body.plan.usage.storage_bytes);
    expect(used).toBeGreaterThan(0);
    // 400,000 bytes per project: a file of about 560 KB does not fit beside what is stored.
    const second = await client.upload('/api/datasets/upload', { project_id: projectId, name: 'second' }, { name: 'second.csv', data: csv(30_000) });
    expect(second.status).toBe(403);
    expect(second.body.detail).toMatch(
      /^Storage quota reached: this project would hold [\d.]+ (KB|MB) of at most 391 KB \(max_storage_bytes_per_project of the plan\); delete datasets, models, reports or exports to free space$/,
    );
    const datasets = (await client.get(`/api/datasets?project_id=${projectId}`)).body;
    expect(datasets.total).toBe(1);
    expect(Number((await client.get('/api/auth/plan')).body.plan.usage.storage_bytes)).toBe(used);
    // A job that writes files (an export here) is refused too once the project is full (its stored bytes as if grown).
    await stack.ds.query('UPDATE artifacts SET size_bytes = 450000 WHERE project_id = $1', [projectId]);
    const exported = await client.post(`/api/projects/${projectId}/export/jobs`);
    expect(exported.status).toBe(403);
    expect(exported.body.detail).toMatch(/^Storage quota reached: this project would hold 439 KB of at most 391 KB/);
    expect((await client.get(`/api/jobs?project_id=${projectId}&kind=project_export`)).body.total).toBe(0);
  });
});
