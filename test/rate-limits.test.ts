import { randomUUID } from 'node:crypto';
import type { AppContext } from '../api/context';
import { RateLimiter } from '../api/middleware/rate-limit';
import { ApiClient, signUp, uniqueEmail } from './support/client';
import { startStack, TestStack } from './support/stack';

let stack: TestStack;
let a: Awaited<ReturnType<typeof signUp>>;
let b: Awaited<ReturnType<typeof signUp>>;
beforeAll(async () => {
  // Spec limits for auth (10/min); a small general limit keeps the test short.
  stack = await startStack({ workers: [], env: { RATE_LIMIT_AUTH: '10', RATE_LIMIT_GENERAL: '100' } });
  // Signed up before the login test spends this address's auth window.
  a = await signUp(stack.baseUrl, stack.mail);
  b = await signUp(stack.baseUrl, stack.mail);
}, 30_000);
afterAll(async () => stack?.stop());

/** Windows are whole minutes: a test that counts through one starts early in it. */
async function earlyInWindow(): Promise<void> {
  const into = Date.now() % 60_000;
  if (into > 45_000) await new Promise((r) => setTimeout(r, 60_050 - into));
}

describe('rate limits', () => {
  it('limits login attempts per client address to 10 a minute with headers and Retry-After', async () => {
    const c = new ApiClient(stack.baseUrl);
    const email = uniqueEmail('rl');
    await earlyInWindow();
    let last = await c.post('/api/auth/login', { email, password: 'wrong password' });
    const remaining = Number(last.headers.get('x-ratelimit-remaining'));
    expect(remaining).toBeGreaterThan(0); // the sign-ups above spent a few
    for (let i = 0; i < remaining; i++) {
      last = await c.post('/api/auth/login', { email, password: 'wrong password' });
      expect(last.status).toBe(401);
      expect(last.headers.get('x-ratelimit-limit')).toBe('10');
      expect(last.headers.get('x-ratelimit-remaining')).toBe(String(remaining - i - 1));
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
    await earlyInWindow();
    let r = await a.client.get('/api/projects');
    const remaining = Number(r.headers.get('x-ratelimit-remaining'));
    expect(remaining).toBeGreaterThan(50); // sign-up spent a few
    for (let i = 0; i < remaining; i++) {
      r = await a.client.get('/api/projects');
      expect(r.headers.get('x-ratelimit-remaining')).toBe(String(remaining - i - 1));
    }
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
    // Two limiters on one database stand for two API processes.
    const limits = { ...stack.config.rateLimits, general: 5 };
    const one = new RateLimiter(stack.ds, limits);
    const two = new RateLimiter(stack.ds, limits);
    const ctx = () => ({ set: () => undefined }) as unknown as AppContext;
    const subject = `user:${randomUUID()}`;
    for (let i = 0; i < 3; i++) await one.hit(ctx(), 'general', subject);
    await one.flush(); // what the 100 ms write-behind does
    await two.hit(ctx(), 'general', subject);
    await two.hit(ctx(), 'general', subject);
    await expect(two.hit(ctx(), 'general', subject)).rejects.toMatchObject({ status: 429 });
    await two.flush();
    const [{ count }] = await stack.ds.query('SELECT count FROM rate_limit_windows WHERE bucket_key = $1', [`general:${subject}`]);
    expect(count).toBe(6);
  });
});
