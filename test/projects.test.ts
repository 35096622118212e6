import { ApiClient, createProject, signUp } from './support/client';
import { startStack, TestStack } from './support/stack';
import { readZip } from './support/zip';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ workers: [] });
});
afterAll(async () => stack?.stop());

describe('projects', () => {
  it('creates, reads, updates and deletes a project', async () => {
    const { client } = await signUp(stack.baseUrl, stack.mail);
    const c = await client.post('/api/projects', { name: '  Churn  ', description: 'customer churn' });
    expect(c.status).toBe(201);
    expect(c.body).toEqual({ id: c.body.project_id, project_id: expect.any(String), project: { id: c.body.project_id, name: 'Churn', description: 'customer churn', created_at: expect.any(String) } });
    const id = c.body.id;
    const g = await client.get(`/api/projects/${id}`);
    expect(g.body.project).toMatchObject({ id, name: 'Churn', description: 'customer churn', dataset_count: 0, experiment_count: 0, model_count: 0 });
    const u = await client.put(`/api/projects/${id}`, { name: 'Churn v2', description: 'new' });
    expect(u.body).toEqual({ project: { id, name: 'Churn v2', description: 'new' } });
    expect((await client.del(`/api/projects/${id}`)).body).toEqual({ ok: true });
    expect((await client.get(`/api/projects/${id}`)).status).toBe(404);
  });

  it('rejects blank names with the spec text and bad fields with 422', async () => {
    const { client } = await signUp(stack.baseUrl, stack.mail);
    for (const name of ['', '   ', '\t\n']) {
      const r = await client.post('/api/projects', { name });
      expect(r.status).toBe(422);
      expect(r.body).toEqual({ detail: 'Project name must not be empty' });
    }
    expect((await client.post('/api/projects', {})).status).toBe(422);
    expect((await client.post('/api/projects', { name: 5 })).status).toBe(422);
    expect((await client.post('/api/projects', { name: 'x'.repeat(201) })).status).toBe(422);
    const id = await createProject(client);
    expect((await client.put(`/api/projects/${id}`, { name: ' ' })).body).toEqual({ detail: 'Project name must not be empty' });
    expect((await client.put(`/api/projects/${id}`, { description: 'no name' })).status).toBe(422);
    expect((await client.get('/api/projects/not-a-uuid')).status).toBe(422);
  });

  it('lists with search, every sort field, and pagination', async () => {
    const { client } = await signUp(stack.baseUrl, stack.mail);
    for (const n of ['Bravo', 'alpha', 'Charlie', 'delta 100%']) await createProject(client, n);
    const all = await client.get('/api/projects?sort_field=name&sort_direction=asc');
    expect(all.body.items.map((p: { name: string }) => p.name)).toEqual(['alpha', 'Bravo', 'Charlie', 'delta 100%']);
    expect(all.body).toMatchObject({ total: 4, limit: 50, offset: 0 });
    const desc = await client.get('/api/projects?sort_field=created_at&sort_direction=desc');
    expect(desc.body.items[0].name).toBe('delta 100%');
    const page = await client.get('/api/projects?sort_field=name&sort_direction=asc&limit=2&offset=2');
    expect(page.body.items.map((p: { name: string }) => p.name)).toEqual(['Charlie', 'delta 100%']);
    expect(page.body).toMatchObject({ total: 4, limit: 2, offset: 2 });
    const s = await client.get('/api/projects?search=ALP');
    expect(s.body.items.map((p: { name: string }) => p.name)).toEqual(['alpha']);
    const byDesc = await client.get('/api/projects?search=Bravo%20description');
    expect(byDesc.body.total).toBe(1);
    // LIKE wildcards in the search are literal.
    expect((await client.get('/api/projects?search=%25')).body.items.map((p: { name: string }) => p.name)).toEqual(['delta 100%']);
    for (const f of ['dataset_count', 'model_count', 'experiment_count']) {
      expect((await client.get(`/api/projects?sort_field=${f}`)).body.total).toBe(4);
    }
    expect((await client.get('/api/projects?sort_field=password')).status).toBe(422);
    expect((await client.get('/api/projects?sort_direction=up')).status).toBe(422);
    expect((await client.get('/api/projects?limit=501')).status).toBe(422);
    expect((await client.get('/api/projects?limit=0')).status).toBe(422);
    expect((await client.get('/api/projects?offset=-1')).status).toBe(422);
    expect((await client.get('/api/projects?limit=abc')).status).toBe(422);
  });

  it("hides other users' projects behind 404", async () => {
    const a = await signUp(stack.baseUrl, stack.mail);
    const b = await signUp(stack.baseUrl, stack.mail);
    const id = await createProject(a.client, 'Private');
    expect((await b.client.get(`/api/projects/${id}`)).body).toEqual({ detail: 'Project not found' });
    expect((await b.client.put(`/api/projects/${id}`, { name: 'hijack' })).status).toBe(404);
    expect((await b.client.del(`/api/projects/${id}`)).status).toBe(404);
    expect((await b.client.get(`/api/projects/${id}/members`)).status).toBe(404);
    expect((await b.client.get(`/api/projects/${id}/timeline`)).status).toBe(404);
    expect((await b.client.get(`/api/projects/${id}/export`)).status).toBe(404);
    expect((await b.client.post(`/api/projects/${id}/members`, { email: b.email, role: 'owner' })).status).toBe(404);
    expect((await b.client.get('/api/projects')).body.total).toBe(0);
    expect((await b.client.get('/api/projects/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('members and roles', () => {
  it('the owner adds registered users, who have access at once; roles gate writes; only the owner deletes', async () => {
    const owner = await signUp(stack.baseUrl, stack.mail);
    const viewer = await signUp(stack.baseUrl, stack.mail, { name: 'Vera Viewer' });
    const editor = await signUp(stack.baseUrl, stack.mail);
    const id = await createProject(owner.client, 'Team');

    expect((await viewer.client.get(`/api/projects/${id}`)).status).toBe(404);
    const add = await owner.client.post(`/api/projects/${id}/members`, { email: viewer.email.toUpperCase(), role: 'viewer' });
    expect(add.status).toBe(201);
    expect(add.body).toEqual({ member: { user_id: viewer.user.id, email: viewer.email, name: 'Vera Viewer', role: 'viewer', created_at: expect.any(String) } });
    // Immediate access: no invitation to accept.
    expect((await viewer.client.get(`/api/projects/${id}`)).body.project).toMatchObject({ id, role: 'viewer' });
    const defaulted = await owner.client.post(`/api/projects/${id}/members`, { email: editor.email });
    expect(defaulted.body.member).toMatchObject({ user_id: editor.user.id, role: 'editor' });

    const members = await viewer.client.get(`/api/projects/${id}/members`);
    expect(members.body.total).toBe(3);
    expect(members.body.items.map((m: { role: string }) => m.role).sort()).toEqual(['editor', 'owner', 'viewer']);
    expect((await viewer.client.get(`/api/projects/${id}/members?limit=101`)).status).toBe(422);

    const vw = await viewer.client.put(`/api/projects/${id}`, { name: 'by viewer' });
    expect(vw.status).toBe(403);
    expect((await editor.client.put(`/api/projects/${id}`, { name: 'by editor' })).status).toBe(200);
    expect((await editor.client.del(`/api/projects/${id}`)).status).toBe(403);
    expect((await editor.client.post(`/api/projects/${id}/members`, { email: viewer.email, role: 'viewer' })).body).toEqual({ detail: 'Only the project owner can manage members' });

    // Role changes go through the same endpoint, with the same answer.
    const promoted = await owner.client.post(`/api/projects/${id}/members`, { email: viewer.email, role: 'admin' });
    expect([promoted.status, promoted.body.member]).toEqual([201, expect.objectContaining({ user_id: viewer.user.id, role: 'admin' })]);
    expect((await owner.client.get(`/api/projects/${id}/members`)).body.items.find((m: { user_id: string }) => m.user_id === viewer.user.id).role).toBe('admin');
    // An admin is not the owner, and no role above one's own can be given.
    const above = await viewer.client.post(`/api/projects/${id}/members`, { email: editor.email, role: 'owner' });
    expect([above.status, above.body]).toEqual([403, { detail: 'Cannot assign a role above your own' }]);
    expect((await viewer.client.post(`/api/projects/${id}/members`, { email: editor.email, role: 'viewer' })).status).toBe(403);

    // An address without an account is not a member to add (invitations are POST /api/auth/invite).
    const unknown = await owner.client.post(`/api/projects/${id}/members`, { email: 'nobody-here@example.test' });
    expect([unknown.status, unknown.body]).toEqual([404, { detail: 'User not found' }]);
    expect((await owner.client.post(`/api/projects/${id}/members`, { email: 'not an email' })).status).toBe(422);
    expect((await owner.client.post(`/api/projects/${id}/members`, { email: viewer.email, role: 'god' })).status).toBe(422);

    // The last owner cannot be demoted or removed.
    expect((await owner.client.post(`/api/projects/${id}/members`, { email: owner.email, role: 'editor' })).status).toBe(409);
    expect((await owner.client.del(`/api/projects/${id}/members/${owner.user.id}`)).status).toBe(409);
    // A member may leave; the owner may remove.
    expect((await editor.client.del(`/api/projects/${id}/members/${editor.user.id}`)).body).toEqual({ ok: true });
    expect((await editor.client.get(`/api/projects/${id}`)).status).toBe(404);
    expect((await owner.client.del(`/api/projects/${id}/members/${viewer.user.id}`)).body).toEqual({ ok: true });
    expect((await viewer.client.get(`/api/projects/${id}`)).status).toBe(404);
    expect((await owner.client.del(`/api/projects/${id}/members/${viewer.user.id}`)).status).toBe(404);

    expect((await owner.client.del(`/api/projects/${id}`)).status).toBe(200);
  });

  it('adding a member spends their pending invitation, and the route has its own tight rate-limit bucket', async () => {
    const owner = await signUp(stack.baseUrl, stack.mail);
    const invitee = await signUp(stack.baseUrl, stack.mail);
    const id = await createProject(owner.client, 'Bucket');
    expect((await owner.client.post('/api/auth/invite', { project_id: id, email: invitee.email, role: 'viewer' })).status).toBe(201);
    expect((await owner.client.get(`/api/projects/${id}/invitations`)).body.total).toBe(1);
    const add = await owner.client.post(`/api/projects/${id}/members`, { email: invitee.email, role: 'editor' });
    expect(add.status).toBe(201);
    expect((await owner.client.get(`/api/projects/${id}/invitations`)).body.total).toBe(0);
    expect((await invitee.client.get('/api/invitations')).body.items).toEqual([]);
    // The members bucket (30 a minute by default), not the general one (raised for tests).
    expect(add.headers.get('x-ratelimit-limit')).toBe(String(stack.config.rateLimits.members));
    expect(stack.config.rateLimits.members).toBe(30);
    const doc = (await new ApiClient(stack.baseUrl).get('/api/openapi.json')).body;
    expect(doc.paths['/api/projects/{project_id}/members'].post['x-rate-limit-bucket']).toBe('members');
    expect(doc.paths['/api/auth/invite'].post['x-rate-limit-bucket']).toBe('members');
    expect(doc.paths['/api/projects/{project_id}/members'].post.summary).toMatch(/30 a minute per user/);
  });
});

describe('timeline and export', () => {
  it('answers an empty timeline and a ZIP with the manifest', async () => {
    const { client } = await signUp(stack.baseUrl, stack.mail);
    const id = await createProject(client, 'Exportable');
    expect((await client.get(`/api/projects/${id}/timeline`)).body).toEqual({ project_id: id, events: [] });
    const zip = await client.get(`/api/projects/${id}/export`);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(zip.headers.get('content-disposition')).toMatch(/attachment; filename="Exportable-export.zip"/);
    const entries = readZip(zip.raw!);
    expect([...entries.keys()]).toEqual(['manifest.json']);
    expect(JSON.parse(entries.get('manifest.json')!.toString('utf8')).artifacts).toEqual([]);
  });

  it('includes stored artifacts in the archive', async () => {
    const { client } = await signUp(stack.baseUrl, stack.mail);
    const id = await createProject(client, 'WithFiles');
    const obj = await stack.store.put(id, 'notes.txt', Buffer.from('hello artifact'));
    await stack.ds.query(
      `INSERT INTO artifacts (id, project_id, kind, filename, content_type, size_bytes, sha256, storage_key) VALUES (gen_random_uuid(), $1, 'note', 'notes.txt', 'text/plain', $2, $3, $4)`,
      [id, obj.sizeBytes, obj.sha256, obj.storageKey],
    );
    const zip = readZip((await client.get(`/api/projects/${id}/export`)).raw!);
    const manifest = JSON.parse(zip.get('manifest.json')!.toString('utf8'));
    expect(manifest.project).toMatchObject({ id, name: 'WithFiles' });
    expect(manifest.members).toHaveLength(1);
    expect(manifest.artifacts).toEqual([expect.objectContaining({ filename: 'notes.txt', size_bytes: 14, sha256: obj.sha256 })]);
    expect(zip.get(manifest.artifacts[0].path)!.toString('utf8')).toBe('hello artifact');
  });
});

describe('anonymous access', () => {
  it('every project endpoint needs credentials', async () => {
    const c = new ApiClient(stack.baseUrl);
    const id = '00000000-0000-4000-8000-000000000000';
    for (const [m, p] of [
      ['GET', '/api/projects'],
      ['POST', '/api/projects'],
      ['GET', `/api/projects/${id}`],
      ['PUT', `/api/projects/${id}`],
      ['DELETE', `/api/projects/${id}`],
      ['GET', `/api/projects/${id}/members`],
      ['GET', `/api/projects/${id}/export`],
    ] as const) {
      const r = await c.request(m, p, m === 'GET' || m === 'DELETE' ? undefined : {});
      expect(r.status).toBe(401);
    }
  });
});
