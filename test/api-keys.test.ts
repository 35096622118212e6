import { ApiClient, signUp } from './support/client';
import { startStack, TestStack } from './support/stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ workers: [] });
});
afterAll(async () => stack?.stop());

describe('API keys', () => {
  it('creates a key shown once, lists it by prefix only, and authenticates with it', async () => {
    const { client } = await signUp(stack.baseUrl, stack.mail);
    const r = await client.post('/api/auth/api-keys', { name: 'ci', scopes: ['read:projects', 'write:projects'] });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ id: expect.any(String), prefix: expect.any(String), scopes: ['read:projects', 'write:projects'] });
    expect(r.body.api_key).toMatch(new RegExp(`^${r.body.prefix}\\.[A-Za-z0-9_-]{20,}$`));

    const list = await client.get('/api/auth/api-keys');
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body)).toBe(true);
    expect(list.body[0]).toEqual({ id: r.body.id, name: 'ci', prefix: r.body.prefix, scopes: ['read:projects', 'write:projects'], last_used_at: null, created_at: expect.any(String) });
    expect(JSON.stringify(list.body)).not.toContain(r.body.api_key.split('.')[1]);

    const keyClient = new ApiClient(stack.baseUrl).withKey(r.body.api_key);
    const me = await keyClient.get('/api/auth/me');
    expect(me.status).toBe(200);
    // Bearer requests need no CSRF header.
    expect((await keyClient.post('/api/projects', { name: 'via key' })).status).toBe(201);
    const after = await client.get('/api/auth/api-keys');
    expect(after.body[0].last_used_at).not.toBeNull();
  });

  it('rejects empty, unknown and malformed scope lists', async () => {
    const { client } = await signUp(stack.baseUrl, stack.mail);
    const empty = await client.post('/api/auth/api-keys', { name: 'k', scopes: [] });
    expect(empty.status).toBe(422);
    expect(empty.body.detail[0].loc).toEqual(['body', 'scopes']);
    const unknown = await client.post('/api/auth/api-keys', { name: 'k', scopes: ['read:projects', 'fly:rockets'] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0].msg).toContain('fly:rockets');
    expect((await client.post('/api/auth/api-keys', { name: 'k', scopes: 'read' })).status).toBe(422);
    expect((await client.post('/api/auth/api-keys', { scopes: ['read'] })).status).toBe(422);
    expect((await client.post('/api/auth/api-keys', { name: 'k' })).status).toBe(422);
  });

  it('accepts every documented alias', async () => {
    const { client } = await signUp(stack.baseUrl, stack.mail);
    for (const s of ['read', 'write', 'predict', 'admin', '*', 'read:deployments', 'predict:deployments', 'write:studio']) {
      expect((await client.post('/api/auth/api-keys', { name: s, scopes: [s] })).status).toBe(201);
    }
  });

  it('a key without the needed scope gets 403 Insufficient scope', async () => {
    const { client } = await signUp(stack.baseUrl, stack.mail);
    const readOnly = new ApiClient(stack.baseUrl).withKey((await client.post('/api/auth/api-keys', { name: 'ro', scopes: ['read:projects'] })).body.api_key);
    expect((await readOnly.get('/api/projects')).status).toBe(200);
    const w = await readOnly.post('/api/projects', { name: 'nope' });
    expect(w.status).toBe(403);
    expect(w.body).toEqual({ detail: 'Insufficient scope' });
    const other = new ApiClient(stack.baseUrl).withKey((await client.post('/api/auth/api-keys', { name: 'dep', scopes: ['predict:deployments'] })).body.api_key);
    expect((await other.get('/api/projects')).body).toEqual({ detail: 'Insufficient scope' });
    const broad = new ApiClient(stack.baseUrl).withKey((await client.post('/api/auth/api-keys', { name: 'w', scopes: ['write'] })).body.api_key);
    expect((await broad.get('/api/projects')).status).toBe(200);
    expect((await broad.post('/api/projects', { name: 'yes' })).status).toBe(201);
  });

  it("a revoked key gets 401; revoking twice or another user's key is 404", async () => {
    const a = await signUp(stack.baseUrl, stack.mail);
    const b = await signUp(stack.baseUrl, stack.mail);
    const created = (await a.client.post('/api/auth/api-keys', { name: 'temp', scopes: ['*'] })).body;
    const key = new ApiClient(stack.baseUrl).withKey(created.api_key);
    expect((await key.get('/api/auth/me')).status).toBe(200);
    expect((await b.client.post(`/api/auth/api-keys/${created.id}/revoke`)).status).toBe(404);
    expect((await a.client.post(`/api/auth/api-keys/${created.id}/revoke`)).body).toEqual({ ok: true });
    const r = await key.get('/api/auth/me');
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ detail: 'Missing or invalid credentials' });
    expect((await a.client.post(`/api/auth/api-keys/${created.id}/revoke`)).status).toBe(404);
    expect((await a.client.get('/api/auth/api-keys')).body).toEqual([]);
    // A forged secret with a real prefix is refused too.
    const forged = new ApiClient(stack.baseUrl).withKey(`${created.prefix}.forgedsecretforgedsecret`);
    expect((await forged.get('/api/auth/me')).status).toBe(401);
  });

  it('key management refuses Bearer keys: a session login is required', async () => {
    const { client } = await signUp(stack.baseUrl, stack.mail);
    const star = new ApiClient(stack.baseUrl).withKey((await client.post('/api/auth/api-keys', { name: 'all', scopes: ['*'] })).body.api_key);
    expect((await star.get('/api/auth/api-keys')).status).toBe(403);
    expect((await star.post('/api/auth/api-keys', { name: 'x', scopes: ['read'] })).status).toBe(403);
    expect((await new ApiClient(stack.baseUrl).get('/api/auth/api-keys')).status).toBe(401);
  });
});
