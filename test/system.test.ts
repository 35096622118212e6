import { ApiClient, eventually } from './support/client';
import { startStack, TestStack } from './support/stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ workers: [] });
});
afterAll(async () => stack?.stop());

describe('health and OpenAPI', () => {
  it('healthz is 200 when PostgreSQL and Temporal answer', async () => {
    // The first check opens the server's Temporal connection, and each check gives Temporal 3 s: late in a loaded
    // suite on 2 cores CI saw one 503 (the check's deadline passed). Healthy means it answers 200 within a minute.
    const r = await eventually(
      async () => {
        const h = await new ApiClient(stack.baseUrl).get('/healthz');
        return h.status === 200 ? h : undefined;
      },
      60_000,
      1000,
    );
    expect(r.body).toEqual({ status: 'ok', database: 'ok', temporal: 'ok' });
  });

  it('keeps idle connections open longer than a proxy would (65 s), so it never closes one a client is reusing', async () => {
    const r = await new ApiClient(stack.baseUrl).get('/healthz');
    expect(r.headers.get('keep-alive')).toBe('timeout=65');
  });

  it('publishes OpenAPI 3.1 with every route and the scope each needs', async () => {
    const r = await new ApiClient(stack.baseUrl).get('/api/openapi.json');
    expect(r.status).toBe(200);
    expect(r.body.openapi).toBe('3.1.0');
    const paths = r.body.paths;
    for (const [p, m] of [
      ['/api/auth/register', 'post'],
      ['/api/auth/login', 'post'],
      ['/api/auth/api-keys', 'post'],
      ['/api/auth/api-keys/{key_id}/revoke', 'post'],
      ['/api/projects', 'get'],
      ['/api/projects/{project_id}/members', 'post'],
      ['/api/projects/{project_id}/export/jobs', 'post'],
      ['/api/jobs', 'get'],
      ['/api/jobs/{job_id}/cancel', 'post'],
      ['/api/artifacts/{artifact_id}/download', 'get'],
      ['/healthz', 'get'],
    ]) {
      expect(paths[p]?.[m]).toBeDefined();
    }
    expect(paths['/api/projects'].post['x-required-scope']).toBe('write:projects');
    expect(paths['/api/projects'].get['x-required-scope']).toBe('read:projects');
    expect(paths['/api/projects'].get.parameters.map((x: { name: string }) => x.name)).toEqual(expect.arrayContaining(['limit', 'offset', 'search', 'sort_field', 'sort_direction']));
    expect(paths['/api/auth/register'].post.requestBody.content['application/json'].schema.required).toEqual(expect.arrayContaining(['email', 'name', 'password']));
    expect(paths['/api/auth/login'].post.security).toEqual([]);
  });

  it('answers unknown routes with a JSON 404 and wrong methods without a 500', async () => {
    const c = new ApiClient(stack.baseUrl);
    const r = await c.get('/api/nope');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ detail: 'Not found' });
    const m = await c.request('PATCH', '/api/auth/login', {});
    expect(m.status).toBeLessThan(500);
    expect(r.headers.get('x-request-id')).toBeTruthy();
  });
});
