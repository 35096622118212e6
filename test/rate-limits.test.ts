import { ApiClient, signUp, uniqueEmail } from './support/client';
import { startStack, TestStack } from './support/stack';

let stack: TestStack;
beforeAll(async () => {
  // Spec limits for auth (10/min); a small general limit keeps the test short.
  stack = await startStack({ workers: [], env: { RATE_LIMIT_AUTH: '10', RATE_LIMIT_GENERAL: '100' } });
});
afterAll(async () => stack?.stop());

describe('rate limits', () => {
  it('limits login attempts per client address to 10 a minute with headers and Retry-After', async () => {
    const c = new ApiClient(stack.baseUrl);
    const email = uniqueEmail('rl');
    let last;
    for (let i = 0; i < 10; i++) {
      last = await c.post('/api/auth/login', { email, password: 'wrong password' });
      expect(last.status).toBe(401);
      expect(last.headers.get('x-ratelimit-limit')).toBe('10');
      expect(last.headers.get('x-ratelimit-remaining')).toBe(String(9 - i));
      expect(Number(last.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    }
    const limited = await c.post('/api/auth/login', { email, password: 'wrong password' });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ detail: 'Rate limit exceeded' });
    const retry = Number(limited.headers.get('retry-after'));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    // The same bucket covers register and forgot-password.
    expect((await c.post('/api/auth/register', { email: uniqueEmail(), name: 'x', password: 'longenough' })).status).toBe(429);
    expect((await c.post('/api/auth/forgot-password', { email })).status).toBe(429);
  });

  it('limits each authenticated user to 100 requests a minute, independently of others', async () => {
    await stack.ds.query('DELETE FROM rate_limit_windows');
    const a = await signUp(stack.baseUrl, stack.mail);
    const b = await signUp(stack.baseUrl, stack.mail);
    let r;
    for (let i = 0; i < 100; i++) r = await a.client.get('/api/projects');
    expect(r!.status).toBe(200);
    expect(r!.headers.get('x-ratelimit-remaining')).toBe('0');
    const over = await a.client.get('/api/projects');
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBeTruthy();
    expect((await b.client.get('/api/projects')).status).toBe(200);
  });

  it('windows are shared through PostgreSQL, so a second API process sees the same counts', async () => {
    const [{ n }] = await stack.ds.query("SELECT count(*)::int AS n FROM rate_limit_windows WHERE bucket_key LIKE 'general:user:%'");
    expect(n).toBeGreaterThanOrEqual(2);
  });
});
