import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createLogger } from '../platform/logger';
import { keyId, loadSecretBox, SecretBox } from '../platform/secret-box';
import { freePort } from '../platform/temporal-dev';
import { SSO_SECRET_CONTEXT } from '../services/sso/providers';
import { ApiClient, createProject, eventually, signUp } from './support/client';
import { spawnNpmStart, stopNpmStart, type NpmStart } from './support/npm-start';
import { startStack, TestStack } from './support/stack';
import { makeSuperuser } from './support/superuser';

/**
 * Two API processes on one database: process A is the test stack's own API, process B a second `npm start` (API only,
 * START_WORKERS=none) on the same database and DATA_DIR, as a deployment runs several behind a load balancer. A key
 * revocation, suspension or deletion made through A reaches B's key cache through PostgreSQL LISTEN/NOTIFY, so B
 * refuses the key on its very next request (its cache would otherwise trust it for seconds). B's start also encrypts
 * an SSO client secret stored in plaintext and takes the day's storage sample; further processes with another
 * SECRETS_KEY show what a wrong key and a rotation do.
 */

const LEGACY_SECRET = 'legacy-plaintext-client-secret';
/** The application name of the API processes' listening connections (platform/pg-listener.ts). */
const LISTENER = 'mlsvc listener mlsvc_key_revocations';

let stack: TestStack;
let b: NpmStart & { baseUrl: string };
let admin: Awaited<ReturnType<typeof signUp>>;
let storageOwner: Awaited<ReturnType<typeof signUp>>;
const others: NpmStart[] = [];

/** A second API process (`npm start` without workers) on the stack's database, DATA_DIR and Temporal. */
async function startApiProcess(env: Record<string, string> = {}): Promise<NpmStart & { baseUrl: string }> {
  const port = await freePort();
  const s = spawnNpmStart({ ...process.env, ...stack.workerEnv, HOST: '127.0.0.1', PORT: String(port), START_WORKERS: 'none', LOG_LEVEL: 'info', ...env });
  const baseUrl = `http://127.0.0.1:${port}`;
  await eventually(
    async () => {
      if (s.child.exitCode !== null) throw new Error(`API process exited ${s.child.exitCode}:\n${s.lines.slice(-20).join('\n')}`);
      return (await fetch(`${baseUrl}/healthz`).catch(() => undefined))?.status === 200;
    },
    90_000,
    250,
  );
  return { ...s, baseUrl };
}

/** A new key of `owner` with its id (the list shows the id; the creation answer does not). */
async function newKey(owner: ApiClient, name: string): Promise<{ id: string; key: string }> {
  const made = await owner.post('/api/auth/api-keys', { name, scopes: ['read:projects'] });
  expect(made.status).toBe(201);
  const listed = (await owner.get('/api/auth/api-keys')).body as { id: string; prefix: string }[];
  return { id: listed.find((k) => k.prefix === made.body.prefix)!.id, key: made.body.api_key as string };
}

/** `GET /api/projects` with the key on process B: the status. */
const onB = async (key: string) => (await new ApiClient(b.baseUrl).withKey(key).get('/api/projects')).status;

beforeAll(async () => {
  stack = await startStack({ workers: [] });
  admin = await signUp(stack.baseUrl, stack.mail);
  await makeSuperuser(stack.ds, admin.user.id);
  // An SSO provider stored before client secrets were encrypted (plaintext, as the earlier version wrote it).
  await stack.ds.query(
    `INSERT INTO sso_providers (id, slug, display_name, kind, issuer, client_id, client_secret) VALUES (gen_random_uuid(), 'legacy', 'Legacy', 'oidc', 'https://idp.invalid', 'legacy-client', $1)`,
    [LEGACY_SECRET],
  );
  // A project owner with a stored file, created after process A took its start-up storage sample.
  storageOwner = await signUp(stack.baseUrl, stack.mail);
  const projectId = await createProject(storageOwner.client, 'Stored');
  expect((await storageOwner.client.upload('/api/datasets/upload', { project_id: projectId, name: 'tiny' }, { name: 'tiny.csv', data: 'a,b\n1,2\n3,4\n' })).status).toBe(201);
  b = await startApiProcess();
}, 180_000);

afterAll(async () => {
  for (const p of [b, ...others]) if (p) await stopNpmStart(p);
  await stack?.stop();
});

describe('API-key revocations reach every API process at once', () => {
  it('a key used through process B and revoked through process A is refused by B on the very next request', async () => {
    const user = await signUp(stack.baseUrl, stack.mail);
    const own = await newKey(user.client, 'own');
    const byAdmin = await newKey(user.client, 'by-admin');
    // Both keys work on B and are now in B's cache.
    for (const k of [own, byAdmin]) for (let i = 0; i < 2; i++) expect(await onB(k.key)).toBe(200);

    expect((await user.client.post(`/api/auth/api-keys/${own.id}/revoke`)).status).toBe(200);
    expect(await onB(own.key)).toBe(401);
    expect(await onB(byAdmin.key)).toBe(200);

    expect((await admin.client.post(`/api/admin/api-keys/${byAdmin.id}/revoke`)).status).toBe(200);
    expect(await onB(byAdmin.key)).toBe(401);
  });

  it('a suspension, a reactivation and a deletion through process A apply on process B at once', async () => {
    const user = await signUp(stack.baseUrl, stack.mail);
    const { key } = await newKey(user.client, 'ci');
    expect(await onB(key)).toBe(200);

    expect((await admin.client.post(`/api/admin/users/${user.user.id}/suspend`)).status).toBe(200);
    const refused = await new ApiClient(b.baseUrl).withKey(key).get('/api/projects');
    expect(refused.status).toBe(401);
    expect(refused.body.detail).toMatch(/suspended/i);

    // B cached the suspended principal on that refusal: the reactivation drops it as well.
    expect((await admin.client.post(`/api/admin/users/${user.user.id}/reactivate`)).status).toBe(200);
    expect(await onB(key)).toBe(200);

    expect((await admin.client.del(`/api/admin/users/${user.user.id}`)).status).toBe(200);
    expect(await onB(key)).toBe(401);
  });

  it('keeps working after the listening connections are cut: both processes listen again and B still refuses at once', async () => {
    const user = await signUp(stack.baseUrl, stack.mail);
    const { id, key } = await newKey(user.client, 'ci');
    expect(await onB(key)).toBe(200);
    const listeners = async () => Number((await stack.ds.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`, [LISTENER]))[0].n);
    expect(await listeners()).toBe(2);
    // A database restart or a network cut, as the processes see it: their listening backends end.
    await stack.ds.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`, [LISTENER]);
    await eventually(async () => (await listeners()) === 2, 20_000, 100);
    expect(b.lines.some((l) => l.includes('notification listener connected again'))).toBe(true);
    expect((await user.client.post(`/api/auth/api-keys/${id}/revoke`)).status).toBe(200);
    expect(await onB(key)).toBe(401);
  });
});

describe("process B's start", () => {
  it('generated the secrets key in DATA_DIR and encrypted the plaintext client secret, once', async () => {
    expect(b.lines.some((l) => l.includes('SECRETS_KEY is unset: generated the key'))).toBe(true);
    const [row] = await stack.ds.query("SELECT client_secret FROM sso_providers WHERE slug = 'legacy'");
    expect(row.client_secret).toMatch(/^enc:v1:[0-9a-f]{8}:/);
    expect(row.client_secret).not.toContain(LEGACY_SECRET);
    const box = loadSecretBox(stack.config.secrets, createLogger('silent', 'test'));
    expect(row.client_secret.startsWith(`enc:v1:${box.keyId}:`)).toBe(true);
    expect(box.open(row.client_secret, SSO_SECRET_CONTEXT)).toBe(LEGACY_SECRET);
  });

  it("took the day's storage sample of an owner that process A's start had not seen", async () => {
    const rows = await eventually(async () => {
      const r = (await stack.ds.query(`SELECT quantity FROM usage_events WHERE user_id = $1 AND kind = 'storage_gb_hours'`, [storageOwner.user.id])) as { quantity: number }[];
      return r.length ? r : undefined;
    }, 20_000);
    expect(rows).toHaveLength(1);
    expect(rows[0].quantity).toBeGreaterThan(0);
  });
});

describe('a process with another SECRETS_KEY', () => {
  it('refuses to start on a malformed key, naming the variable and not its value', async () => {
    const bad = spawnNpmStart({ ...process.env, ...stack.workerEnv, START_WORKERS: 'none', SECRETS_KEY: 'not-a-real-key-0123456789' });
    expect(await bad.exited).toBe(1);
    const out = bad.lines.join('\n');
    expect(out).toContain('SECRETS_KEY');
    expect(out).not.toContain('not-a-real-key-0123456789');
  });

  it('refuses the sign-in with a clear message (not a 500) and never writes the key; a rotation re-encrypts under the new key', async () => {
    const wrong = randomBytes(32).toString('base64');
    const c = await startApiProcess({ SECRETS_KEY: wrong });
    others.push(c);
    const fileBox = loadSecretBox(stack.config.secrets, createLogger('silent', 'test'));
    // Its start leaves the row it cannot read as it is, and says why.
    const [before] = await stack.ds.query("SELECT client_secret FROM sso_providers WHERE slug = 'legacy'");
    expect(before.client_secret.startsWith(`enc:v1:${fileBox.keyId}:`)).toBe(true);
    expect(c.lines.some((l) => l.includes('client secret of SSO provider legacy cannot be decrypted') && l.includes(`encrypted with key ${fileBox.keyId}`))).toBe(true);

    const r = await new ApiClient(c.baseUrl).get('/api/auth/sso/legacy/authorize');
    expect(r.status).toBe(302);
    const error = new URL(r.headers.get('location')!, 'http://x').searchParams.get('sso_error');
    expect(error).toMatch(/client secret cannot be decrypted on this server/);
    const fileKey = fs.readFileSync(stack.config.secrets.keyFile, 'utf8').trim();
    for (const secret of [wrong, fileKey, LEGACY_SECRET]) expect(c.lines.join('\n')).not.toContain(secret);
    await stopNpmStart(c);

    // A rotation: the new key current, the earlier one still read; the start re-encrypts under the new key.
    const next = randomBytes(32);
    const d = await startApiProcess({ SECRETS_KEY: next.toString('base64'), SECRETS_KEY_PREVIOUS: fileKey });
    others.push(d);
    const [rotated] = await stack.ds.query("SELECT client_secret FROM sso_providers WHERE slug = 'legacy'");
    expect(rotated.client_secret.startsWith(`enc:v1:${keyId(next)}:`)).toBe(true);
    expect(new SecretBox(next).open(rotated.client_secret, SSO_SECRET_CONTEXT)).toBe(LEGACY_SECRET);
    expect(d.lines.join('\n')).not.toContain(fileKey);
  }, 180_000);
});
