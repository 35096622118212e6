import { ApiClient, createProject, signUp, uniqueEmail } from './support/client';
import { startStack, TestStack } from './support/stack';
import { makeSuperuser } from './support/superuser';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ workers: [] });
});
afterAll(async () => stack?.stop());

type Person = Awaited<ReturnType<typeof signUp>>;

const CSV = 'a,b\n1,2\n3,4\n5,6\n';

/** A superuser's client (the flag is read per request for cookie sessions). */
async function superuser(): Promise<Person> {
  const p = await signUp(stack.baseUrl, stack.mail, { name: 'Admin' });
  await makeSuperuser(stack.ds, p.user.id);
  return p;
}

async function newTeam(admin: ApiClient, name = `Team ${uniqueEmail('t')}`): Promise<string> {
  const r = await admin.post('/api/admin/teams', { name, description: 'd' });
  expect(r.status).toBe(201);
  return r.body.id as string;
}

async function addToTeam(admin: ApiClient, teamId: string, who: { email: string } | { user_id: string }, role = 'member') {
  const r = await admin.post(`/api/admin/teams/${teamId}/members`, { ...who, role });
  expect(r.status).toBe(201);
  return r.body.member;
}

function upload(client: ApiClient, projectId: string) {
  return client.upload('/api/datasets/upload', { project_id: projectId, name: 'rows' }, { name: 'rows.csv', data: CSV });
}

describe('teams (issue 34)', () => {
  it('superusers create, list, rename and delete teams; names are unique case-insensitively', async () => {
    const { client: admin } = await superuser();
    const name = `Data ${Date.now()}`;
    const created = await admin.post('/api/admin/teams', { name: `  ${name}  `, description: 'Analysts' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: created.body.team.id,
      team_id: created.body.team.id,
      team: { id: expect.any(String), name, description: 'Analysts', member_count: 0, project_count: 0, created_at: expect.any(String), updated_at: expect.any(String) },
    });
    const id = created.body.id as string;
    expect((await admin.post('/api/admin/teams', { name: name.toUpperCase() })).body).toEqual({ detail: 'A team with this name already exists' });

    const list = await admin.get(`/api/admin/teams?search=${encodeURIComponent(name)}`);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 1, limit: 50, offset: 0, items: [{ id, name }] });

    const renamed = await admin.put(`/api/admin/teams/${id}`, { name: `${name} renamed` });
    expect(renamed.status).toBe(200);
    expect(renamed.body.team).toMatchObject({ id, name: `${name} renamed`, description: 'Analysts' });
    expect((await admin.get(`/api/admin/teams/${id}`)).body).toMatchObject({ team: { id }, projects: [] });

    expect((await admin.del(`/api/admin/teams/${id}`)).body).toEqual({ ok: true });
    expect((await admin.get(`/api/admin/teams/${id}`)).body).toEqual({ detail: 'Team not found' });
    expect((await admin.del(`/api/admin/teams/${id}`)).status).toBe(404);
  });

  it('a team grant alone gives editor access: the project is listed, a dataset can be created; removal revokes at once', async () => {
    const { client: admin } = await superuser();
    const owner = await signUp(stack.baseUrl, stack.mail);
    const dev = await signUp(stack.baseUrl, stack.mail);
    const teamId = await newTeam(admin);
    await addToTeam(admin, teamId, { email: owner.email });
    const added = await addToTeam(admin, teamId, { user_id: dev.user.id });
    expect(added).toEqual({ user_id: dev.user.id, email: dev.email, name: 'Test User', role: 'member', created_at: expect.any(String) });

    const projectId = await createProject(owner.client, 'Teamed');
    expect((await dev.client.get(`/api/projects/${projectId}`)).status).toBe(404);
    expect((await upload(dev.client, projectId)).status).toBe(404);

    const granted = await owner.client.post(`/api/projects/${projectId}/teams`, { team_id: teamId, role: 'editor' });
    expect(granted.status).toBe(201);
    expect(granted.body.team).toMatchObject({ team_id: teamId, role: 'editor', member_count: 2 });

    const listed = await dev.client.get('/api/projects');
    expect(listed.body.items.map((p: { id: string; role: string }) => [p.id, p.role])).toEqual([[projectId, 'editor']]);
    const tenant = await dev.client.get('/api/auth/tenant-info');
    expect(tenant.body.projects).toEqual([expect.objectContaining({ id: projectId, role: 'editor' })]);
    expect((await upload(dev.client, projectId)).status).toBe(201);
    expect((await dev.client.get('/api/datasets')).body.total).toBe(1);
    // Editor, not owner: the project's own rules still hold.
    expect((await dev.client.del(`/api/projects/${projectId}`)).status).toBe(403);

    const mine = await dev.client.get('/api/auth/teams');
    expect(mine.body).toMatchObject({ total: 1, items: [{ id: teamId, role: 'member', project_count: 1 }] });
    expect((await owner.client.get(`/api/projects/${projectId}/teams`)).body.items).toEqual([
      { team_id: teamId, name: expect.any(String), description: 'd', role: 'editor', member_count: 2, created_at: expect.any(String) },
    ]);

    // The members list shows the team-derived access after the owner's own membership.
    const members = await owner.client.get(`/api/projects/${projectId}/members`);
    expect(members.body.total).toBe(2);
    expect(members.body.items[0]).toMatchObject({ user_id: owner.user.id, role: 'owner', via_team: false, effective_role: 'owner', teams: [{ team_id: teamId, role: 'editor' }] });
    expect(members.body.items[1]).toMatchObject({ user_id: dev.user.id, email: dev.email, role: 'editor', via_team: true, effective_role: 'editor', teams: [{ team_id: teamId, role: 'editor' }] });

    // Removing the user from the team takes effect on the next request.
    expect((await admin.del(`/api/admin/teams/${teamId}/members/${dev.user.id}`)).body).toEqual({ ok: true });
    expect((await dev.client.get(`/api/projects/${projectId}`)).status).toBe(404);
    expect((await dev.client.get('/api/projects')).body.total).toBe(0);
    expect((await upload(dev.client, projectId)).status).toBe(404);

    // So does removing the team from the project.
    await addToTeam(admin, teamId, { user_id: dev.user.id });
    expect((await dev.client.get(`/api/projects/${projectId}`)).status).toBe(200);
    expect((await owner.client.del(`/api/projects/${projectId}/teams/${teamId}`)).body).toEqual({ ok: true });
    expect((await dev.client.get(`/api/projects/${projectId}`)).status).toBe(404);
    expect((await owner.client.del(`/api/projects/${projectId}/teams/${teamId}`)).body).toEqual({ detail: 'Team not found' });
  });

  it('the highest role wins: own viewer + team editor = editor; own admin + team viewer = admin', async () => {
    const { client: admin } = await superuser();
    const owner = await signUp(stack.baseUrl, stack.mail);
    const a = await signUp(stack.baseUrl, stack.mail);
    const b = await signUp(stack.baseUrl, stack.mail);
    const editors = await newTeam(admin);
    const viewers = await newTeam(admin);
    for (const p of [owner, a]) await addToTeam(admin, editors, { email: p.email });
    for (const p of [owner, b]) await addToTeam(admin, viewers, { email: p.email });
    const projectId = await createProject(owner.client, 'Roles');
    expect((await owner.client.post(`/api/projects/${projectId}/members`, { email: a.email, role: 'viewer' })).status).toBe(201);
    expect((await owner.client.post(`/api/projects/${projectId}/members`, { email: b.email, role: 'admin' })).status).toBe(201);
    expect((await upload(a.client, projectId)).status).toBe(403);

    expect((await owner.client.post(`/api/projects/${projectId}/teams`, { team_id: editors, role: 'editor' })).status).toBe(201);
    expect((await owner.client.post(`/api/projects/${projectId}/teams`, { team_id: viewers, role: 'viewer' })).status).toBe(201);

    expect((await a.client.get(`/api/projects/${projectId}`)).body.project.role).toBe('editor');
    expect((await upload(a.client, projectId)).status).toBe(201);
    expect((await b.client.get(`/api/projects/${projectId}`)).body.project.role).toBe('admin');

    const members = (await owner.client.get(`/api/projects/${projectId}/members`)).body.items as { user_id: string; role: string; effective_role: string; via_team: boolean }[];
    expect(members.find((m) => m.user_id === a.user.id)).toMatchObject({ role: 'viewer', effective_role: 'editor', via_team: false });
    expect(members.find((m) => m.user_id === b.user.id)).toMatchObject({ role: 'admin', effective_role: 'admin', via_team: false });
  });

  it('owner and admin rules: no role above your own, never owner, editors cannot manage teams, only your own teams', async () => {
    const { client: admin } = await superuser();
    const owner = await signUp(stack.baseUrl, stack.mail);
    const adm = await signUp(stack.baseUrl, stack.mail);
    const editor = await signUp(stack.baseUrl, stack.mail);
    const teamId = await newTeam(admin);
    const foreignTeam = await newTeam(admin);
    for (const p of [owner, adm, editor]) await addToTeam(admin, teamId, { email: p.email });
    const projectId = await createProject(owner.client, 'Rules');
    await owner.client.post(`/api/projects/${projectId}/members`, { email: adm.email, role: 'admin' });
    await owner.client.post(`/api/projects/${projectId}/members`, { email: editor.email, role: 'editor' });

    const asOwner = await owner.client.post(`/api/projects/${projectId}/teams`, { team_id: teamId, role: 'owner' });
    expect(asOwner.status).toBe(422);
    expect(asOwner.body.detail[0].loc).toEqual(['body', 'role']);
    expect((await editor.client.post(`/api/projects/${projectId}/teams`, { team_id: teamId, role: 'viewer' })).body).toEqual({ detail: 'Only project owners and admins can manage teams' });
    expect((await editor.client.post(`/api/projects/${projectId}/teams`, { team_id: teamId, role: 'admin' })).body).toEqual({ detail: 'Cannot assign a role above your own' });
    // A team the caller does not belong to is not found (superusers aside).
    expect((await owner.client.post(`/api/projects/${projectId}/teams`, { team_id: foreignTeam, role: 'viewer' })).body).toEqual({ detail: 'Team not found' });
    expect((await owner.client.post(`/api/projects/${projectId}/teams`, { team_id: '00000000-0000-4000-8000-000000000000', role: 'viewer' })).status).toBe(404);

    expect((await editor.client.del(`/api/projects/${projectId}/teams/${teamId}`)).status).toBe(403);
    const byAdmin = await adm.client.post(`/api/projects/${projectId}/teams`, { team_id: teamId, role: 'admin' });
    expect(byAdmin.status).toBe(201);
    // Through the team the editor is now an admin, and admins manage teams (never members: owner only).
    expect((await editor.client.get(`/api/projects/${projectId}`)).body.project.role).toBe('admin');
    expect((await editor.client.post(`/api/projects/${projectId}/members`, { email: owner.email, role: 'viewer' })).status).toBe(403);
    // A team role never makes anyone an owner: deleting stays the owner's.
    expect((await adm.client.del(`/api/projects/${projectId}`)).status).toBe(403);
    expect((await adm.client.del(`/api/projects/${projectId}/teams/${teamId}`)).body).toEqual({ ok: true });
  });

  it("other projects' team ids and other users' teams are 404", async () => {
    const { client: admin } = await superuser();
    const alice = await signUp(stack.baseUrl, stack.mail);
    const bob = await signUp(stack.baseUrl, stack.mail);
    const aliceTeam = await newTeam(admin);
    const bobTeam = await newTeam(admin);
    await addToTeam(admin, aliceTeam, { email: alice.email }, 'maintainer');
    await addToTeam(admin, bobTeam, { email: bob.email }, 'maintainer');
    const aliceProject = await createProject(alice.client, 'A');
    const bobProject = await createProject(bob.client, 'B');
    expect((await bob.client.post(`/api/projects/${bobProject}/teams`, { team_id: bobTeam, role: 'viewer' })).status).toBe(201);

    // Bob's team is granted in Bob's project, not in Alice's.
    expect((await alice.client.del(`/api/projects/${aliceProject}/teams/${bobTeam}`)).body).toEqual({ detail: 'Team not found' });
    expect((await alice.client.del(`/api/projects/${bobProject}/teams/${bobTeam}`)).body).toEqual({ detail: 'Project not found' });
    expect((await alice.client.get(`/api/projects/${bobProject}/teams`)).status).toBe(404);
    // Maintainers manage their own team only.
    expect((await alice.client.get(`/api/teams/${bobTeam}/members`)).body).toEqual({ detail: 'Team not found' });
    expect((await alice.client.post(`/api/teams/${bobTeam}/members`, { email: alice.email })).body).toEqual({ detail: 'Team not found' });
    expect((await alice.client.del(`/api/teams/${bobTeam}/members/${bob.user.id}`)).status).toBe(404);
  });

  it('maintainers manage their team’s members; members may only leave', async () => {
    const { client: admin } = await superuser();
    const lead = await signUp(stack.baseUrl, stack.mail);
    const member = await signUp(stack.baseUrl, stack.mail);
    const newcomer = await signUp(stack.baseUrl, stack.mail);
    const teamId = await newTeam(admin);
    await addToTeam(admin, teamId, { email: lead.email }, 'maintainer');

    const added = await lead.client.post(`/api/teams/${teamId}/members`, { email: member.email });
    expect(added.status).toBe(201);
    expect(added.body.member).toMatchObject({ user_id: member.user.id, role: 'member' });
    expect((await lead.client.post(`/api/teams/${teamId}/members`, { email: uniqueEmail('nobody') })).body).toEqual({ detail: 'User not found' });

    expect((await member.client.post(`/api/teams/${teamId}/members`, { user_id: newcomer.user.id })).body).toEqual({ detail: 'Only team maintainers can manage members' });
    expect((await member.client.del(`/api/teams/${teamId}/members/${lead.user.id}`)).status).toBe(403);
    const seen = await member.client.get(`/api/teams/${teamId}/members`);
    expect(seen.body).toMatchObject({
      total: 2,
      items: [
        { user_id: lead.user.id, role: 'maintainer' },
        { user_id: member.user.id, role: 'member' },
      ],
    });

    expect((await lead.client.post(`/api/teams/${teamId}/members`, { user_id: newcomer.user.id, role: 'maintainer' })).body.member.role).toBe('maintainer');
    expect((await newcomer.client.del(`/api/teams/${teamId}/members/${member.user.id}`)).body).toEqual({ ok: true });
    expect((await lead.client.del(`/api/teams/${teamId}/members/${lead.user.id}`)).body).toEqual({ ok: true });
    expect((await lead.client.get(`/api/teams/${teamId}/members`)).status).toBe(404);
    expect((await admin.get(`/api/admin/teams/${teamId}/members`)).body.items.map((m: { user_id: string }) => m.user_id)).toEqual([newcomer.user.id]);
  });

  it('admin routes: 401 without credentials, 403 for non-superusers and narrow keys, 403 without CSRF', async () => {
    const { client: admin } = await superuser();
    const plain = await signUp(stack.baseUrl, stack.mail);
    const teamId = await newTeam(admin);
    const anon = new ApiClient(stack.baseUrl);
    expect((await anon.get('/api/admin/teams')).status).toBe(401);
    expect((await anon.post('/api/admin/teams', { name: 'x' })).status).toBe(401);
    expect((await anon.get('/api/auth/teams')).status).toBe(401);
    for (const [method, path, body] of [
      ['GET', '/api/admin/teams', undefined],
      ['POST', '/api/admin/teams', { name: 'not mine' }],
      ['GET', `/api/admin/teams/${teamId}`, undefined],
      ['PUT', `/api/admin/teams/${teamId}`, { name: 'not mine' }],
      ['DELETE', `/api/admin/teams/${teamId}`, undefined],
      ['GET', `/api/admin/teams/${teamId}/members`, undefined],
      ['POST', `/api/admin/teams/${teamId}/members`, { email: plain.email }],
      ['DELETE', `/api/admin/teams/${teamId}/members/${plain.user.id}`, undefined],
    ] as const) {
      const r = await plain.client.request(method, path, body);
      expect([method, path, r.status, r.body]).toEqual([method, path, 403, { detail: 'Superuser access required' }]);
    }
    const noCsrf = new ApiClient(stack.baseUrl);
    for (const [k, v] of admin.cookies) noCsrf.cookies.set(k, v);
    noCsrf.sendCsrf = false;
    expect((await noCsrf.post('/api/admin/teams', { name: 'csrf' })).status).toBe(403);
    expect((await noCsrf.del(`/api/admin/teams/${teamId}`)).status).toBe(403);
    expect((await admin.get(`/api/admin/teams/${teamId}`)).status).toBe(200);

    const narrow = admin.withKey((await admin.post('/api/auth/api-keys', { name: 'narrow', scopes: ['write:projects'] })).body.api_key);
    expect((await narrow.get('/api/admin/teams')).body).toEqual({ detail: 'Insufficient scope' });
    const broad = admin.withKey((await admin.post('/api/auth/api-keys', { name: 'broad', scopes: ['admin'] })).body.api_key);
    expect((await broad.get('/api/admin/teams')).status).toBe(200);
    const readOnly = plain.client.withKey((await plain.client.post('/api/auth/api-keys', { name: 'ro', scopes: ['read:projects'] })).body.api_key);
    expect((await readOnly.post(`/api/teams/${teamId}/members`, { email: plain.email })).body).toEqual({ detail: 'Insufficient scope' });
  });

  it('hostile input answers 422 (or 404), never 500', async () => {
    const { client: admin } = await superuser();
    const owner = await signUp(stack.baseUrl, stack.mail);
    const teamId = await newTeam(admin);
    await addToTeam(admin, teamId, { email: owner.email });
    const projectId = await createProject(owner.client, 'Hostile');
    const bad: [string, string, unknown][] = [
      ['POST', '/api/admin/teams', { name: '' }],
      ['POST', '/api/admin/teams', { name: '   ' }],
      ['POST', '/api/admin/teams', { name: 'a\u0000b' }],
      ['POST', '/api/admin/teams', { name: 42 }],
      ['POST', '/api/admin/teams', { name: 'x'.repeat(101) }],
      ['POST', '/api/admin/teams', { name: 'ok', description: '\ud800' }],
      ['PUT', `/api/admin/teams/${teamId}`, { name: ['x'] }],
      ['POST', `/api/admin/teams/${teamId}/members`, { email: owner.email, user_id: owner.user.id }],
      ['POST', `/api/admin/teams/${teamId}/members`, { email: 'not-an-email' }],
      ['POST', `/api/admin/teams/${teamId}/members`, { user_id: 2 ** 31 }],
      ['POST', `/api/admin/teams/${teamId}/members`, { user_id: owner.user.id, role: 'owner' }],
      ['POST', `/api/admin/teams/${teamId}/members`, {}],
      ['GET', '/api/admin/teams?limit=2147483648', undefined],
      ['GET', '/api/admin/teams?offset=-1', undefined],
      ['GET', '/api/admin/teams?search=%00', undefined],
      ['GET', '/api/admin/teams/2147483648', undefined],
      ['GET', '/api/admin/teams/not-a-uuid', undefined],
      ['POST', `/api/projects/${projectId}/teams`, { team_id: 'x', role: 'viewer' }],
      ['POST', `/api/projects/${projectId}/teams`, { team_id: teamId, role: 7 }],
      ['POST', `/api/projects/${projectId}/teams`, { team_id: `${teamId}\u0000` }],
      ['DELETE', `/api/projects/${projectId}/teams/2147483648`, undefined],
    ];
    for (const [method, path, body] of bad) {
      const client = path.startsWith('/api/admin') ? admin : owner.client;
      const r = await client.request(method, path, body);
      expect([method, path, r.status]).toEqual([method, path, 422]);
      expect(Array.isArray(r.body.detail) || typeof r.body.detail === 'string').toBe(true);
    }
    expect((await admin.post(`/api/admin/teams/${teamId}/members`, { user_id: '00000000-0000-4000-8000-000000000000' })).body).toEqual({ detail: 'User not found' });
    expect((await admin.get('/api/admin/teams/00000000-0000-4000-8000-000000000000')).body).toEqual({ detail: 'Team not found' });
    const raw = await admin.request('POST', '/api/admin/teams', undefined, { headers: { 'content-type': 'application/json' }, rawBody: '{"name":' });
    expect(raw.status).toBeGreaterThanOrEqual(400);
    expect(raw.status).toBeLessThan(500);
  });
});
