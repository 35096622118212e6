import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { decodeJwt, decodeProtectedHeader, generateKeyPair, SignJWT } from 'jose-node-cjs-runtime';

/** A running test OpenID Provider (test/support/oidc-provider.mjs). */
export interface TestIdp {
  issuer: string;
  stop(): Promise<void>;
}

/** The checkout's root (where package.json is), from a compiled test folder (dist/ or .build-*). */
function repoRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error('package.json not found above ' + __dirname);
    dir = up;
  }
  return dir;
}

/** Starts the real `oidc-provider` as a child process with these clients and accounts; resolves once it listens. */
export async function startOidcProvider(o: { clients: object[]; accounts: Record<string, object> }): Promise<TestIdp> {
  const child: ChildProcess = spawn(process.execPath, [path.join(repoRoot(), 'test', 'support', 'oidc-provider.mjs')], {
    env: { ...process.env, OIDC_CLIENTS: JSON.stringify(o.clients), OIDC_ACCOUNTS: JSON.stringify(o.accounts) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const issuer = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`oidc-provider did not start: ${stderr}`)), 30_000);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /READY (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`oidc-provider exited (${code}): ${stderr}`)));
  });
  return {
    issuer,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}

/**
 * Plays the person at the provider: follows the authorization URL with the provider's own cookies, signs in on its
 * login form as `account`, and returns the URL the provider sends the browser back to (the service's callback).
 */
export async function signInAtProvider(authorizationUrl: string, account: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = new URL(authorizationUrl);
  const origin = url.origin;
  let method = 'GET';
  let body: string | undefined;
  for (let hop = 0; hop < 10; hop += 1) {
    const res = await fetch(url, {
      method,
      body,
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    });
    for (const c of res.headers.getSetCookie()) {
      const pair = c.split(';')[0];
      jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
    const location = res.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      if (next.origin !== origin) return next;
      url = next;
      method = 'GET';
      body = undefined;
      continue;
    }
    const html = await res.text();
    const action = /<form method="post" action="([^"]+)"/.exec(html);
    if (res.status !== 200 || !action) throw new Error(`unexpected provider answer ${res.status}: ${html.slice(0, 300)}`);
    url = new URL(action[1], url);
    method = 'POST';
    body = new URLSearchParams({ account }).toString();
  }
  throw new Error('too many redirects at the provider');
}

/**
 * A man in the middle of a provider's token endpoint: serves the provider's discovery document with its own token
 * endpoint, forwards the code exchange, and answers with the ID token re-signed by a key the provider's JWKS does not
 * have (same claims, same `kid`). A relying party configured with this discovery URL must refuse the token.
 */
export async function startTokenForger(issuer: string): Promise<{ discoveryUrl: string; forged: () => number; stop(): Promise<void> }> {
  const { privateKey } = await generateKeyPair('RS256');
  let forgedCount = 0;
  const server = http.createServer((req, res) => {
    void (async () => {
      const self = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      if (req.url === '/.well-known/openid-configuration') {
        const doc = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ...doc, token_endpoint: `${self}/token` }));
        return;
      }
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const real = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: { 'content-type': String(req.headers['content-type']), ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) },
        body: Buffer.concat(chunks),
      });
      const answer = (await real.json()) as Record<string, unknown>;
      if (typeof answer.id_token === 'string') {
        const { kid } = decodeProtectedHeader(answer.id_token);
        answer.id_token = await new SignJWT(decodeJwt(answer.id_token)).setProtectedHeader({ alg: 'RS256', kid }).sign(privateKey);
        forgedCount += 1;
      }
      res.writeHead(real.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    })().catch((err: unknown) => {
      res.writeHead(500);
      res.end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    discoveryUrl: `http://127.0.0.1:${port}/.well-known/openid-configuration`,
    forged: () => forgedCount,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
