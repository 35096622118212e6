import { ApiClient, createProject, signUp, addMember } from './support/client';
import { makeSuperuser } from './support/superuser';
import { startStack, TestStack } from './support/stack';

/** The audit log (issue 34): entries written with each change, secrets masked, read by superusers and project owners. */
let stack: TestStack;
let admin: Awaited<ReturnType<typeof signUp>>;
beforeAll(async () => {
  stack = await startStack({ workers: [] });
  admin = await signUp(stack.baseUrl, stack.mail, { name: 'Audit Admin' });
  await makeSuperuser(stack.ds, admin.user.id);
});
afterAll(async () => stack?.stop());

interface Entry {
  id: string;
  action: string;
  resource_type: string;
  resource_id: string | null;
  project_id: string | null;
  actor_user_id: string | null;
  actor_key_prefix: string | null;
  changes: Record<string, { before?: unknown; after?: unknown }> | null;
  request_id: string | null;
  route: string | null;
  ip: string | null;
  user_agent: string | null;
}

/** The entries of one request, from the table itself. */
async function entriesOf(requestId: string | null): Promise<Entry[]> {
  return stack.ds.query('SELECT * FROM audit_log WHERE request_id = $1', [requestId]);
}

describe('audit log', () => {
  it('records a project update with the changed fields before and after, its actor, address, route and request id', async () => {
    const owner = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(owner.client, 'Before name');
    const r = await owner.client.request('PUT', `/api/projects/${projectId}`, { name: 'After name', description: 'Before name description' }, { headers: { 'user-agent': 'audit-test/1.0' } });
    expect(r.status).toBe(200);
    const requestId = r.headers.get('x-request-id');
    const page = await admin.client.get(`/api/admin/audit-log?project_id=${projectId}&action=project.update`);
    expect(page.status).toBe(200);
    expect(page.body.total).toBe(1);
    const entry: Entry = page.body.items[0];
    expect(entry).toMatchObject({
      action: 'project.update',
      resource_type: 'project',
      resource_id: projectId,
      project_id: projectId,
      actor_user_id: owner.user.id,
      actor_key_prefix: null,
      request_id: requestId,
      route: 'PUT /api/projects/:project_id',
      user_agent: 'audit-test/1.0',
    });
    expect(entry.ip).toEqual(expect.any(String));
    // Only what changed: the description was sent unchanged.
    expect(entry.changes).toEqual({ name: { before: 'Before name', after: 'After name' } });

    // The creation is there too, newest first after the update.
    const all = await admin.client.get(`/api/admin/audit-log?project_id=${projectId}`);
    const actions = (all.body.items as Entry[]).map((e) => e.action);
    expect(actions[0]).toBe('project.update');
    expect(actions).toEqual(expect.arrayContaining(['project.create', 'project_member.create']));
  });

  it('masks secrets: an API key creation and a password change store neither the key secret nor a password', async () => {
    const user = await signUp(stack.baseUrl, stack.mail, { password: 'first secret password' });
    const key = await user.client.post('/api/auth/api-keys', { name: 'ci', scopes: ['*'] });
    expect(key.status).toBe(201);
    const secretPart = (key.body.api_key as string).split('.')[1];
    const changed = await user.client.put('/api/auth/change-password', { current_password: 'first secret password', new_password: 'second secret password' });
    expect(changed.status).toBe(200);
    // A request through the key names the key's prefix.
    const keyClient = new ApiClient(stack.baseUrl).withKey(key.body.api_key);
    const viaKey = await keyClient.post('/api/projects', { name: 'Via key' });
    expect(viaKey.status).toBe(201);

    const mine = await admin.client.get(`/api/admin/audit-log?actor_user_id=${user.user.id}&limit=200`);
    expect(mine.status).toBe(200);
    const text = JSON.stringify(mine.body);
    for (const secret of [secretPart, 'first secret password', 'second secret password']) expect(text).not.toContain(secret);
    const raw = JSON.stringify(await stack.ds.query('SELECT * FROM audit_log'));
    for (const secret of [secretPart, 'first secret password', 'second secret password']) expect(raw).not.toContain(secret);

    const items = mine.body.items as Entry[];
    const keyEntry = items.find((e) => e.action === 'api_key.create')!;
    expect(keyEntry.resource_id).toBe(key.body.id);
    expect(keyEntry.changes!.secret_hash).toEqual({ after: '***' });
    expect(keyEntry.changes!.prefix).toEqual({ after: key.body.prefix });
    const passwordEntries = items.filter((e) => e.request_id === changed.headers.get('x-request-id'));
    expect(passwordEntries.length).toBeGreaterThan(0);
    expect(passwordEntries.some((e) => e.changes?.password_hash)).toBe(true);
    for (const e of passwordEntries) if (e.changes?.password_hash) expect(Object.values(e.changes.password_hash).every((v) => v === '***')).toBe(true);
    const projectEntry = items.find((e) => e.action === 'project.create' && e.resource_id === viaKey.body.id)!;
    expect(projectEntry.actor_key_prefix).toBe(key.body.prefix);
  });

  it("shows a project's owners that project's entries only; members below owner get 403, others 404", async () => {
    const owner = await signUp(stack.baseUrl, stack.mail);
    const editor = await signUp(stack.baseUrl, stack.mail);
    const stranger = await signUp(stack.baseUrl, stack.mail);
    const mineId = await createProject(owner.client, 'Mine');
    const otherId = await createProject(stranger.client, 'Theirs');
    await addMember(owner.client, editor, mineId, 'editor');
    const own = await owner.client.get(`/api/projects/${mineId}/audit-log`);
    expect(own.status).toBe(200);
    expect(own.body.total).toBeGreaterThanOrEqual(3);
    expect((own.body.items as Entry[]).every((e) => e.project_id === mineId)).toBe(true);
    expect((own.body.items as Entry[]).some((e) => e.action === 'project_member.create' && e.changes?.user_id?.after === editor.user.id)).toBe(true);

    expect((await editor.client.get(`/api/projects/${mineId}/audit-log`)).status).toBe(403);
    const notMine = await owner.client.get(`/api/projects/${otherId}/audit-log`);
    expect(notMine.status).toBe(404);
    expect(notMine.body).toEqual({ detail: 'Project not found' });
    expect((await owner.client.get('/api/projects/00000000-0000-4000-8000-000000000000/audit-log')).status).toBe(404);
    // Filters apply within the project.
    const filtered = await owner.client.get(`/api/projects/${mineId}/audit-log?resource_type=project_member`);
    expect((filtered.body.items as Entry[]).every((e) => e.resource_type === 'project_member')).toBe(true);
  });

  it('refuses the admin log to everyone but superusers, and hostile queries with 422', async () => {
    const user = await signUp(stack.baseUrl, stack.mail);
    const r = await user.client.get('/api/admin/audit-log');
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ detail: 'Superuser access required' });
    expect((await new ApiClient(stack.baseUrl).get('/api/admin/audit-log')).status).toBe(401);
    expect((await new ApiClient(stack.baseUrl).get(`/api/projects/00000000-0000-4000-8000-000000000000/audit-log`)).status).toBe(401);
    // A key needs the admin alias; admin:projects is not enough for the admin area but is for a project's log.
    const narrow = new ApiClient(stack.baseUrl).withKey((await admin.client.post('/api/auth/api-keys', { name: 'narrow', scopes: ['admin:projects'] })).body.api_key);
    const narrowAnswer = await narrow.get('/api/admin/audit-log');
    expect(narrowAnswer.status).toBe(403);
    expect(narrowAnswer.body).toEqual({ detail: 'Insufficient scope' });
    const broad = new ApiClient(stack.baseUrl).withKey((await admin.client.post('/api/auth/api-keys', { name: 'broad', scopes: ['admin'] })).body.api_key);
    expect((await broad.get('/api/admin/audit-log?limit=1')).status).toBe(200);
    const readOnly = new ApiClient(stack.baseUrl).withKey((await user.client.post('/api/auth/api-keys', { name: 'ro', scopes: ['read:projects'] })).body.api_key);
    const projectId = await createProject(user.client, 'Scoped');
    expect((await readOnly.get(`/api/projects/${projectId}/audit-log`)).status).toBe(403);

    for (const q of [
      'limit=0',
      'limit=201',
      'offset=2147483648',
      'offset=-1',
      'actor_user_id=nope',
      'project_id=%00',
      'from=yesterday',
      'to=2026-13-01T00:00:00Z',
      'action=a%00b',
      'resource_id=' + 'x'.repeat(201),
    ]) {
      const bad = await admin.client.get(`/api/admin/audit-log?${q}`);
      expect([q, bad.status]).toEqual([q, 422]);
      expect(Array.isArray(bad.body.detail)).toBe(true);
    }
    expect((await user.client.get('/api/projects/not-a-uuid/audit-log')).status).toBe(422);
    expect((await user.client.get(`/api/projects/${projectId}/audit-log?from=2026-01-01T00:00:00Z&to=2020-01-01T00:00:00Z`)).body.total).toBe(0);
  });

  it('filters by actor, action, resource, time and pages newest first', async () => {
    const user = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(user.client, 'Paged');
    for (const name of ['One', 'Two', 'Three']) expect((await user.client.put(`/api/projects/${projectId}`, { name })).status).toBe(200);
    const first = await admin.client.get(`/api/admin/audit-log?resource_id=${projectId}&action=project.update&limit=2`);
    expect(first.body).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect((first.body.items as Entry[]).map((e) => e.changes!.name.after)).toEqual(['Three', 'Two']);
    const second = await admin.client.get(`/api/admin/audit-log?resource_id=${projectId}&action=project.update&limit=2&offset=2`);
    expect((second.body.items as Entry[]).map((e) => e.changes!.name.after)).toEqual(['One']);
    const future = await admin.client.get(`/api/admin/audit-log?resource_id=${projectId}&from=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`);
    expect(future.body.total).toBe(0);
    const byType = await admin.client.get(`/api/admin/audit-log?actor_user_id=${user.user.id}&resource_type=project`);
    expect((byType.body.items as Entry[]).every((e) => e.resource_type === 'project' && e.actor_user_id === user.user.id)).toBe(true);
  });

  it('is append-only: the trigger refuses UPDATE, DELETE and TRUNCATE unless the retention flag is set', async () => {
    const user = await signUp(stack.baseUrl, stack.mail);
    await createProject(user.client, 'Kept');
    const [{ id }] = await stack.ds.query(`SELECT id FROM audit_log WHERE actor_user_id = $1 AND action = 'project.create'`, [user.user.id]);
    await expect(stack.ds.query(`UPDATE audit_log SET action = 'forged' WHERE id = $1`, [id])).rejects.toThrow(/append-only/);
    await expect(stack.ds.query('DELETE FROM audit_log WHERE id = $1', [id])).rejects.toThrow(/append-only/);
    await expect(stack.ds.query('TRUNCATE audit_log')).rejects.toThrow(/append-only/);
    expect(await stack.ds.query('SELECT action FROM audit_log WHERE id = $1', [id])).toEqual([{ action: 'project.create' }]);
    // The retention helper deletes what is older than its date, and only that.
    const { deleteAuditEntriesBefore } = await import('../services/audit/retention');
    const [{ created_at }] = await stack.ds.query('SELECT created_at FROM audit_log WHERE id = $1', [id]);
    const before = Number((await stack.ds.query('SELECT count(*) AS n FROM audit_log'))[0].n);
    const older = Number((await stack.ds.query('SELECT count(*) AS n FROM audit_log WHERE created_at < $1', [created_at]))[0].n);
    expect(await deleteAuditEntriesBefore(stack.ds.manager, new Date(created_at))).toBe(older);
    expect(Number((await stack.ds.query('SELECT count(*) AS n FROM audit_log'))[0].n)).toBe(before - older);
    // The flag was local to that transaction.
    await expect(stack.ds.query('DELETE FROM audit_log WHERE id = $1', [id])).rejects.toThrow(/append-only/);
  });

  it('a failed mutation leaves neither the change nor an entry: a 422 before any write, and a fault mid-transaction', async () => {
    const user = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(user.client, 'Stable');
    const invalid = await user.client.put(`/api/projects/${projectId}`, { name: '' });
    expect(invalid.status).toBe(422);
    expect(await entriesOf(invalid.headers.get('x-request-id'))).toEqual([]);

    // A fault after the project row is written, in the same transaction: its owner's membership is refused.
    await stack.ds.query(`CREATE FUNCTION audit_test_fault() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'injected fault' USING ERRCODE = '23514'; END $$`);
    await stack.ds.query(`CREATE TRIGGER audit_test_fault BEFORE INSERT ON project_members FOR EACH ROW WHEN (NEW.user_id = '${user.user.id}') EXECUTE FUNCTION audit_test_fault()`);
    try {
      const failed = await user.client.post('/api/projects', { name: 'Never there' });
      expect(failed.status).toBeGreaterThanOrEqual(400);
      expect(failed.status).toBeLessThan(500);
      expect(await stack.ds.query(`SELECT id FROM projects WHERE name = 'Never there'`)).toEqual([]);
      expect(await stack.ds.query('SELECT id FROM audit_log WHERE request_id = $1', [failed.headers.get('x-request-id')])).toEqual([]);
    } finally {
      await stack.ds.query('DROP TRIGGER audit_test_fault ON project_members');
      await stack.ds.query('DROP FUNCTION audit_test_fault()');
    }
    const ok = await user.client.post('/api/projects', { name: 'There' });
    expect(ok.status).toBe(201);
    expect((await stack.ds.query('SELECT action FROM audit_log WHERE request_id = $1 ORDER BY action', [ok.headers.get('x-request-id')])).map((r: { action: string }) => r.action)).toEqual([
      'project.create',
      'project_member.create',
    ]);
  });

  it('a mutation that changes no entity it can see gets one request-level entry; a GET gets none', async () => {
    const user = await signUp(stack.baseUrl, stack.mail);
    const out = await user.client.post('/api/auth/logout');
    expect(out.status).toBe(200);
    const entries = await stack.ds.query('SELECT action, route, actor_user_id FROM audit_log WHERE request_id = $1', [out.headers.get('x-request-id')]);
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((e: { route: string; actor_user_id: string }) => e.route === 'POST /api/auth/logout' && e.actor_user_id === user.user.id)).toBe(true);
    const list = await admin.client.get('/api/projects');
    expect(await stack.ds.query('SELECT id FROM audit_log WHERE request_id = $1', [list.headers.get('x-request-id')])).toEqual([]);
  });
});
