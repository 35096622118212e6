// A real OpenID Provider for the SSO tests: panva's certified `oidc-provider` (ESM, hence a child process, since jest
// loads CommonJS only), on a free loopback port, with a freshly generated RSA signing key. Nothing of the protocol is
// mocked: discovery, JWKS, authorization with PKCE, the token endpoint (single-use codes) and userinfo are the
// library's own. The only part an application supplies, the login page ("interaction"), is a plain form here that
// logs in as one of the accounts given in the environment (no password: the tests are about the relying party).
//
// Environment: OIDC_CLIENTS (JSON array of oidc-provider client metadata), OIDC_ACCOUNTS (JSON object, account id →
// claims such as email, email_verified, name, groups). Prints `READY <issuer>` on stdout once it listens.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import http from 'node:http';
import Provider from 'oidc-provider';

const clients = JSON.parse(process.env.OIDC_CLIENTS ?? '[]');
const accounts = JSON.parse(process.env.OIDC_ACCOUNTS ?? '{}');

const server = http.createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: randomBytes(8).toString('hex'), alg: 'RS256', use: 'sig' };

const provider = new Provider(issuer, {
  clients,
  jwks: { keys: [signingKey] },
  cookies: { keys: [randomBytes(32).toString('hex')] },
  scopes: ['openid', 'email', 'profile', 'groups'],
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
  // The ID token carries the scopes' claims (as Keycloak and Okta do with group claims), not only `sub`.
  conformIdTokenClaims: false,
  pkce: { required: () => true },
  features: { devInteractions: { enabled: false } },
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  findAccount: async (_ctx, id) => (accounts[id] ? { accountId: id, claims: async () => ({ sub: id, ...accounts[id] }) } : undefined),
});

/** The login page: a form naming the account to log in as. */
async function interaction(req, res, uid) {
  if (req.method === 'GET') {
    await provider.interactionDetails(req, res);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="en"><head><title>Test identity provider</title><link rel="icon" href="data:,"></head><body><main><h1>Test identity provider</h1>` +
        `<form method="post" action="/interaction/${uid}/login"><label>Account <input name="account" autocomplete="username"></label>` +
        `<button type="submit">Sign in</button></form></main></body></html>`,
    );
    return;
  }
  const body = await new Promise((resolve) => {
    let s = '';
    req.on('data', (c) => (s += c));
    req.on('end', () => resolve(new URLSearchParams(s)));
  });
  const accountId = body.get('account') ?? '';
  if (!accounts[accountId]) {
    res.writeHead(400, { 'content-type': 'text/plain' });
    res.end('unknown account');
    return;
  }
  const details = await provider.interactionDetails(req, res);
  const grant = new provider.Grant({ accountId, clientId: details.params.client_id });
  grant.addOIDCScope(String(details.params.scope ?? 'openid'));
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
}

const handle = provider.callback();
server.on('request', (req, res) => {
  const m = /^\/interaction\/([^/?]+)/.exec(req.url ?? '');
  if (!m) return handle(req, res);
  interaction(req, res, m[1]).catch((err) => {
    res.writeHead(400, { 'content-type': 'text/plain' });
    res.end(String(err?.message ?? err));
  });
});
process.stdout.write(`READY ${issuer}\n`);
