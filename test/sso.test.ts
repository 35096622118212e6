import fs from 'node:fs';
import { createLogger } from '../platform/logger';
import { loadSecretBox } from '../platform/secret-box';
import { SSO_SECRET_CONTEXT } from '../services/sso/providers';
import { ApiClient, signUp } from './support/client';
import { signInAtProvider, startOidcProvider, startTokenForger, TestIdp } from './support/oidc';
import { startStack, TestStack } from './support/stack';
import { makeSuperuser } from './support/superuser';

// The stack's APP_BASE_URL: the callbacks registered at the provider are under it, and the test carries the
// provider's redirects back to the API itself.
const APP = 'http://app.test';
const OIDC_SECRET = 'oidc-client-secret-1234567890';
const OAUTH_SECRET = 'oauth-client-secret-0987654321';

const ACCOUNTS = {
  alice: { email: 'alice@corp.test', email_verified: true, name: 'Alice Corp', groups: ['ml-maintainers', 'staff'] },
  bob: { email: 'bob@other.test', email_verified: true, name: 'Bob Other', groups: [] },
  carol: { email: 'carol@corp.test', email_verified: false, name: 'Carol Unverified', groups: [] },
  dave: { email: 'dave@corp.test', email_verified: true, name: 'Dave Linked', groups: ['staff'] },
  erin: { email: 'erin@corp.test', email_verified: true, name: 'Erin Admin', groups: ['platform-admins'] },
  frank: { email: 'frank@corp.test', email_verified: true, name: 'Frank', groups: [] },
  gina: { email: 'gina@corp.test', email_verified: true, name: 'Gina', groups: [] },
  hugo: { email: 'hugo@corp.test', email_verified: true, name: 'Hugo', groups: [] },
  ivan: { email: 'ivan@corp.test', email_verified: true, name: 'Ivan', groups: [] },
  judy: { email: 'judy@corp.test', email_verified: true, name: 'Judy', groups: [] },
  ken: { email: 'ken@corp.test', email_verified: true, name: 'Ken', groups: [] },
};

let stack: TestStack;
let idp: TestIdp;
let admin: ApiClient;
let teamId: string;

beforeAll(async () => {
  stack = await startStack({ workers: [], env: { APP_BASE_URL: APP } });
  idp = await startOidcProvider({
    clients: [
      { client_id: 'mlsvc', client_secret: OIDC_SECRET, redirect_uris: ['corp', 'forged', 'closed'].map((s) => `${APP}/api/auth/sso/${s}/callback`) },
      { client_id: 'mlsvc-oauth', client_secret: OAUTH_SECRET, redirect_uris: [`${APP}/api/auth/oauth/hub/callback`], token_endpoint_auth_method: 'client_secret_post' },
    ],
    accounts: ACCOUNTS,
  });
  const a = await signUp(stack.baseUrl, stack.mail);
  await makeSuperuser(stack.ds, a.user.id);
  admin = a.client;
  const team = await admin.post('/api/admin/teams', { name: 'ML maintainers' });
  expect(team.status).toBe(201);
  teamId = team.body.id;
  const corp = await admin.post('/api/admin/sso-providers', {
    slug: 'corp',
    display_name: 'Corp SSO',
    kind: 'oidc',
    issuer: idp.issuer,
    client_id: 'mlsvc',
    client_secret: OIDC_SECRET,
    scopes: ['openid', 'email', 'profile', 'groups'],
    allowed_email_domains: ['corp.test'],
    group_mappings: [
      { group: 'ml-maintainers', team: 'ML maintainers', team_role: 'maintainer' },
      { group: 'staff', team: 'ml maintainers' },
      { group: 'platform-admins', team: null, superuser: true },
    ],
  });
  expect(corp.status).toBe(201);
}, 120_000);

afterAll(async () => {
  await idp?.stop();
  await stack?.stop();
});

/** Starts a sign-in in `browser`, signs in at the provider as `account`, and answers the callback URL (not yet opened). */
async function toCallback(browser: ApiClient, slug: string, account: string, prefix = 'sso'): Promise<string> {
  const start = await browser.get(`/api/auth/${prefix}/${slug}/authorize?next=${encodeURIComponent('/app/projects')}`);
  expect(start.status).toBe(302);
  const location = start.headers.get('location')!;
  expect(location.startsWith(idp.issuer)).toBe(true);
  const back = await signInAtProvider(location, account);
  expect(back.origin).toBe(APP);
  return back.pathname + back.search;
}

/** A stored client secret: encrypted (no plaintext in the column), and what it decrypts to with the stack's key file. */
function openStored(value: string): string {
  expect(value).toMatch(/^enc:v1:[0-9a-f]{8}:[\w-]+:[\w-]+:[\w-]+$/);
  for (const plain of [OIDC_SECRET, OAUTH_SECRET, 'very-secret-value', 'rotated-secret']) expect(value).not.toContain(plain);
  return loadSecretBox(stack.config.secrets, createLogger('silent', 'test')).open(value, SSO_SECRET_CONTEXT);
}

/** The login-page message a refused callback redirects to. */
function refusal(location: string | null): string {
  expect(location).toMatch(/^\/login\?sso_error=/);
  return new URL(location!, APP).searchParams.get('sso_error')!;
}

async function userByEmail(email: string): Promise<{ id: string; is_superuser: boolean; email_verified_at: Date | null } | undefined> {
  const rows = (await stack.ds.query('SELECT id, is_superuser, email_verified_at FROM users WHERE email = $1', [email])) as { id: string; is_superuser: boolean; email_verified_at: Date | null }[];
  return rows[0];
}

describe('single sign-on through a real OpenID Provider', () => {
  it('creates the user just in time, maps groups to a team role, starts a session and records sso_login', async () => {
    const browser = new ApiClient(stack.baseUrl);
    const authorize = await browser.get('/api/auth/sso/corp/authorize?next=%2Fapp%2Fprojects');
    expect(authorize.status).toBe(302);
    const url = new URL(authorize.headers.get('location')!);
    // Authorization code with PKCE S256, state and nonce; the verifier never leaves the server.
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ response_type: 'code', client_id: 'mlsvc', code_challenge_method: 'S256', redirect_uri: `${APP}/api/auth/sso/corp/callback` });
    for (const p of ['state', 'nonce', 'code_challenge']) expect(url.searchParams.get(p)).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    expect(url.searchParams.has('code_verifier')).toBe(false);
    expect(browser.cookies.get('sso_binding')).toBeTruthy();

    const back = await signInAtProvider(url.toString(), 'alice');
    const done = await browser.get(back.pathname + back.search);
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe('/app/projects');
    const me = await browser.get('/api/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ email: 'alice@corp.test', name: 'Alice Corp', is_superuser: false, email_verified_at: expect.any(String) });
    // ml-maintainers → maintainer wins over staff → member, both mapped to the same team (names case-insensitive).
    const member = (await stack.ds.query('SELECT role FROM team_members WHERE team_id = $1 AND user_id = $2', [teamId, me.body.user.id])) as { role: string }[];
    expect(member).toEqual([{ role: 'maintainer' }]);
    const activity = await browser.get('/api/auth/my-activity');
    const types = (activity.body.items as { type: string; details: Record<string, unknown> }[]).map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['registered', 'login', 'sso_login']));
    expect(activity.body.items.find((e: { type: string }) => e.type === 'sso_login').details).toMatchObject({ provider: 'corp', kind: 'oidc' });
    // A cookie write works with the session the sign-in started (CSRF cookie set too).
    expect((await browser.post('/api/projects', { name: 'From SSO' })).status).toBe(201);

    // The next sign-in of the same subject is the same user, not a second account.
    const again = new ApiClient(stack.baseUrl);
    const r = await again.get(await toCallback(again, 'corp', 'alice'));
    expect(r.headers.get('location')).toBe('/app/projects');
    expect((await again.get('/api/auth/me')).body.user.id).toBe(me.body.user.id);
    expect(Number((await stack.ds.query("SELECT count(*) AS n FROM users WHERE email = 'alice@corp.test'"))[0].n)).toBe(1);
  });

  it('a group mapped to superuser grants the flag', async () => {
    const browser = new ApiClient(stack.baseUrl);
    expect((await browser.get(await toCallback(browser, 'corp', 'erin'))).headers.get('location')).toBe('/app/projects');
    expect((await browser.get('/api/auth/me')).body.user.is_superuser).toBe(true);
    expect((await browser.get('/api/admin/sso-providers')).status).toBe(200);
  });

  it('links an existing account with the same verified email instead of creating one', async () => {
    const local = await signUp(stack.baseUrl, stack.mail, { email: 'dave@corp.test' });
    const browser = new ApiClient(stack.baseUrl);
    await browser.get(await toCallback(browser, 'corp', 'dave'));
    expect((await browser.get('/api/auth/me')).body.user.id).toBe(local.user.id);
    const links = (await stack.ds.query('SELECT subject FROM user_identities WHERE user_id = $1', [local.user.id])) as { subject: string }[];
    expect(links).toEqual([{ subject: 'dave' }]);
    // The password still works for the account that had proven its address.
    expect((await new ApiClient(stack.baseUrl).post('/api/auth/login', { email: 'dave@corp.test', password: local.password })).status).toBe(200);
  });

  it('refuses a wrong state, a callback from another browser, and a state used twice', async () => {
    const browser = new ApiClient(stack.baseUrl);
    const callback = await toCallback(browser, 'corp', 'frank');
    const wrong = new URL(callback, APP);
    wrong.searchParams.set('state', 'not-the-state-this-browser-was-given');
    expect(refusal((await browser.get(wrong.pathname + wrong.search)).headers.get('location'))).toMatch(/not valid or was already used/);
    // Another browser (no binding cookie) bringing a genuine callback: login CSRF.
    const stranger = new ApiClient(stack.baseUrl);
    const stolen = await stranger.get(callback);
    expect(refusal(stolen.headers.get('location'))).toMatch(/started in another browser/);
    expect(stranger.cookies.has('session_token')).toBe(false);
    // The state was spent by that attempt: the rightful browser must start again.
    expect(refusal((await browser.get(callback)).headers.get('location'))).toMatch(/not valid or was already used/);
    expect(browser.cookies.has('session_token')).toBe(false);
    expect(await userByEmail('frank@corp.test')).toBeUndefined();
  });

  it('refuses a replayed callback and a replayed code', async () => {
    const browser = new ApiClient(stack.baseUrl);
    const callback = await toCallback(browser, 'corp', 'gina');
    expect((await browser.get(callback)).headers.get('location')).toBe('/app/projects');
    // The same callback again: its state is spent.
    const replay = new ApiClient(stack.baseUrl);
    replay.cookies.set('sso_binding', browser.cookies.get('sso_binding')!);
    expect(refusal((await replay.get(callback)).headers.get('location'))).toMatch(/not valid or was already used/);
    // The spent code with a fresh state of this browser: the provider refuses the code.
    const fresh = new URL(await toCallback(replay, 'corp', 'gina'), APP);
    fresh.searchParams.set('code', new URL(callback, APP).searchParams.get('code')!);
    expect(refusal((await replay.get(fresh.pathname + fresh.search)).headers.get('location'))).toMatch(/refused the sign-in code/);
    expect(replay.cookies.has('session_token')).toBe(false);
  });

  it('refuses an ID token signed by a key the provider’s JWKS does not have', async () => {
    const forger = await startTokenForger(idp.issuer);
    try {
      const created = await admin.post('/api/admin/sso-providers', {
        slug: 'forged',
        display_name: 'Forged',
        kind: 'oidc',
        issuer: idp.issuer,
        discovery_url: forger.discoveryUrl,
        client_id: 'mlsvc',
        client_secret: OIDC_SECRET,
        scopes: ['openid', 'email'],
      });
      expect(created.status).toBe(201);
      const browser = new ApiClient(stack.baseUrl);
      const r = await browser.get(await toCallback(browser, 'forged', 'hugo'));
      expect(forger.forged()).toBe(1);
      expect(refusal(r.headers.get('location'))).toMatch(/ID token is not valid \(ERR_JWS_SIGNATURE_VERIFICATION_FAILED\)/);
      expect(browser.cookies.has('session_token')).toBe(false);
      expect(await userByEmail('hugo@corp.test')).toBeUndefined();
      expect((await admin.del(`/api/admin/sso-providers/${created.body.id}`)).status).toBe(200);
    } finally {
      await forger.stop();
    }
  });

  it('refuses an expired state', async () => {
    const browser = new ApiClient(stack.baseUrl);
    const callback = await toCallback(browser, 'corp', 'ivan');
    // Ten minutes pass at the provider.
    await stack.ds.query("UPDATE sso_login_states SET expires_at = now() - interval '1 second'");
    expect(refusal((await browser.get(callback)).headers.get('location'))).toMatch(/expired/);
    expect(await userByEmail('ivan@corp.test')).toBeUndefined();
  });

  it('refuses addresses outside the allowed domains and unverified addresses', async () => {
    const browser = new ApiClient(stack.baseUrl);
    expect(refusal((await browser.get(await toCallback(browser, 'corp', 'bob'))).headers.get('location'))).toBe('Accounts of other.test may not sign in with Corp SSO');
    expect(refusal((await browser.get(await toCallback(browser, 'corp', 'carol'))).headers.get('location'))).toBe('Corp SSO has not verified your email address');
    expect(await userByEmail('bob@other.test')).toBeUndefined();
    expect(await userByEmail('carol@corp.test')).toBeUndefined();
  });

  it('follows the registration setting unless the provider is trusted', async () => {
    // The admin area's setting (part admin): applies at once in this process.
    expect((await admin.put('/api/admin/settings', { registration: 'closed' })).status).toBe(200);
    try {
      const closed = await admin.post('/api/admin/sso-providers', { slug: 'closed', display_name: 'Closed', kind: 'oidc', issuer: idp.issuer, client_id: 'mlsvc', client_secret: OIDC_SECRET });
      expect(closed.status).toBe(201);
      const browser = new ApiClient(stack.baseUrl);
      expect(refusal((await browser.get(await toCallback(browser, 'closed', 'judy'))).headers.get('location'))).toMatch(/Registration is closed/);
      // Existing accounts still sign in (alice exists).
      expect((await browser.get(await toCallback(browser, 'closed', 'alice'))).headers.get('location')).toBe('/app/projects');
      expect((await admin.put(`/api/admin/sso-providers/${closed.body.id}`, { trusted: true })).body.provider.trusted).toBe(true);
      const other = new ApiClient(stack.baseUrl);
      expect((await other.get(await toCallback(other, 'closed', 'judy'))).headers.get('location')).toBe('/app/projects');
    } finally {
      expect((await admin.put('/api/admin/settings', { registration: null })).status).toBe(200);
    }
  });

  it('signs in through a generic OAuth 2.0 provider (userinfo fields) under /api/auth/oauth', async () => {
    const hub = await admin.post('/api/admin/sso-providers', {
      slug: 'hub',
      display_name: 'Hub',
      kind: 'oauth2',
      client_id: 'mlsvc-oauth',
      client_secret: OAUTH_SECRET,
      scopes: ['openid', 'email', 'profile'],
      authorize_url: `${idp.issuer}/auth`,
      token_url: `${idp.issuer}/token`,
      userinfo_url: `${idp.issuer}/me`,
      userinfo_fields: { id: 'sub', email: 'email', name: 'name', email_verified: 'email_verified' },
    });
    expect(hub.status).toBe(201);
    expect(hub.body.provider).toMatchObject({ redirect_uri: `${APP}/api/auth/oauth/hub/callback`, login_url: '/api/auth/oauth/hub/authorize', client_secret: '***' });
    // The OIDC path family does not serve an OAuth 2.0 provider.
    const wrongFamily = await new ApiClient(stack.baseUrl).get('/api/auth/sso/hub/authorize');
    expect(refusal(wrongFamily.headers.get('location'))).toBe('This sign-in provider is not available');
    const browser = new ApiClient(stack.baseUrl);
    expect((await browser.get(await toCallback(browser, 'hub', 'ken', 'oauth'))).headers.get('location')).toBe('/app/projects');
    expect((await browser.get('/api/auth/me')).body.user).toMatchObject({ email: 'ken@corp.test', name: 'Ken' });
  });

  it('lists enabled providers publicly, without secrets', async () => {
    const r = await new ApiClient(stack.baseUrl).get('/api/auth/sso/providers');
    expect(r.status).toBe(200);
    expect(r.body.items).toEqual(expect.arrayContaining([{ slug: 'corp', display_name: 'Corp SSO', kind: 'oidc', login_url: '/api/auth/sso/corp/authorize' }]));
    expect(JSON.stringify(r.body)).not.toContain(OIDC_SECRET);
    const unknown = await new ApiClient(stack.baseUrl).get('/api/auth/sso/nope/callback?state=x&code=y');
    expect(refusal(unknown.headers.get('location'))).toBe('This sign-in provider is not available');
  });
});

describe('SSO provider administration', () => {
  const body = () => ({ slug: `p-${Date.now().toString(36)}`, display_name: 'P', kind: 'oidc', issuer: 'https://idp.example.com', client_id: 'c', client_secret: 'very-secret-value' });

  it('never answers the client secret, and keeps it when the mask is sent back', async () => {
    const created = await admin.post('/api/admin/sso-providers', body());
    expect(created.status).toBe(201);
    expect(created.body.provider.client_secret).toBe('***');
    const id = created.body.id as string;
    for (const r of [
      created,
      await admin.get('/api/admin/sso-providers'),
      await admin.get(`/api/admin/sso-providers/${id}`),
      await admin.put(`/api/admin/sso-providers/${id}`, { client_secret: '***', display_name: 'Renamed' }),
    ]) {
      expect(r.status).toBe(200 + (r === created ? 1 : 0));
      expect(JSON.stringify(r.body)).not.toContain('very-secret-value');
    }
    const [stored] = await stack.ds.query('SELECT client_secret, display_name FROM sso_providers WHERE id = $1', [id]);
    expect(stored.display_name).toBe('Renamed');
    expect(openStored(stored.client_secret)).toBe('very-secret-value');
    expect((await admin.put(`/api/admin/sso-providers/${id}`, { client_secret: 'rotated-secret' })).status).toBe(200);
    expect(openStored((await stack.ds.query('SELECT client_secret FROM sso_providers WHERE id = $1', [id]))[0].client_secret)).toBe('rotated-secret');
    expect((await admin.post('/api/admin/sso-providers', { ...body(), slug: created.body.provider.slug })).status).toBe(409);
    expect((await admin.del(`/api/admin/sso-providers/${id}`)).body).toEqual({ ok: true });
    expect((await admin.get(`/api/admin/sso-providers/${id}`)).status).toBe(404);
    expect((await admin.del(`/api/admin/sso-providers/${id}`)).status).toBe(404);
  });

  it('refuses non-superusers (403), no credentials (401), a missing CSRF token (403) and a narrow key scope (403)', async () => {
    const plain = await signUp(stack.baseUrl, stack.mail);
    expect((await plain.client.get('/api/admin/sso-providers')).body).toEqual({ detail: 'Superuser access required' });
    expect((await plain.client.post('/api/admin/sso-providers', body())).status).toBe(403);
    expect((await new ApiClient(stack.baseUrl).get('/api/admin/sso-providers')).status).toBe(401);
    const noCsrf = new ApiClient(stack.baseUrl);
    admin.cookies.forEach((v, k) => noCsrf.cookies.set(k, v));
    noCsrf.sendCsrf = false;
    const refused = await noCsrf.post('/api/admin/sso-providers', body());
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: 'CSRF token missing or invalid' });
    const narrow = (await admin.post('/api/auth/api-keys', { name: 'narrow', scopes: ['read:projects'] })).body.api_key as string;
    expect((await new ApiClient(stack.baseUrl).withKey(narrow).get('/api/admin/sso-providers')).status).toBe(403);
    const broad = (await admin.post('/api/auth/api-keys', { name: 'admin', scopes: ['admin'] })).body.api_key as string;
    expect((await new ApiClient(stack.baseUrl).withKey(broad).get('/api/admin/sso-providers')).status).toBe(200);
  });

  it('answers hostile input with 422 and unknown ids with 404', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...body(), display_name: 'nul\u0000' }, 'display_name'],
      [{ ...body(), slug: 'Not A Slug' }, 'slug'],
      [{ ...body(), slug: 12 }, 'slug'],
      [{ ...body(), kind: 'saml' }, 'kind'],
      [{ ...body(), issuer: 'javascript:alert(1)' }, 'issuer'],
      [{ ...body(), issuer: undefined }, 'issuer'],
      [{ ...body(), allowed_email_domains: ['not a domain'] }, 'allowed_email_domains'],
      [{ ...body(), group_mappings: [{ group: 'g' }] }, 'group_mappings'],
      [{ ...body(), scopes: 'openid' }, 'scopes'],
      [{ ...body(), kind: 'oauth2', issuer: undefined }, 'authorize_url'],
      [{ ...body(), client_secret: '***' }, 'client_secret'],
    ];
    for (const [b, field] of cases) {
      const r = await admin.post('/api/admin/sso-providers', b);
      expect([r.status, b]).toEqual([422, b]);
      expect(JSON.stringify(r.body.detail)).toContain(field);
    }
    expect((await admin.get('/api/admin/sso-providers/2147483648')).status).toBe(422);
    expect((await admin.get('/api/admin/sso-providers/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await admin.put('/api/admin/sso-providers/00000000-0000-4000-8000-000000000000', { display_name: 'x' })).status).toBe(404);
    const nul = await new ApiClient(stack.baseUrl).get('/api/auth/sso/corp/callback?state=a%00b');
    expect(nul.status).toBe(422);
  });
});

describe('client secrets at rest', () => {
  it('stores every client secret encrypted, on create and on update, and sign-in still works with it', async () => {
    const rows = (await stack.ds.query('SELECT slug, client_secret FROM sso_providers')) as { slug: string; client_secret: string }[];
    expect(rows.map((r) => r.slug)).toEqual(expect.arrayContaining(['corp', 'hub']));
    for (const r of rows) openStored(r.client_secret);
    const [corp] = rows.filter((r) => r.slug === 'corp');
    expect(openStored(corp.client_secret)).toBe(OIDC_SECRET);
    // No SECRETS_KEY in the stack: the key was made once in DATA_DIR, readable by this user alone.
    expect(stack.config.secrets.key).toBeNull();
    expect(fs.statSync(stack.config.secrets.keyFile).mode & 0o777).toBe(0o600);

    // Entering the secret again seals it afresh (a new IV: another stored value), and the provider still signs users in.
    const id = ((await admin.get('/api/admin/sso-providers')).body.items as { id: string; slug: string }[]).find((p) => p.slug === 'corp')!.id;
    expect((await admin.put(`/api/admin/sso-providers/${id}`, { client_secret: OIDC_SECRET })).status).toBe(200);
    const [after] = await stack.ds.query("SELECT client_secret FROM sso_providers WHERE slug = 'corp'");
    expect(after.client_secret).not.toBe(corp.client_secret);
    expect(openStored(after.client_secret)).toBe(OIDC_SECRET);
    const browser = new ApiClient(stack.baseUrl);
    expect((await browser.get(await toCallback(browser, 'corp', 'alice'))).headers.get('location')).toBe('/app/projects');
    expect((await browser.get('/api/auth/me')).body.user.email).toBe('alice@corp.test');
  });
});
