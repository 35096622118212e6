import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose-node-cjs-runtime';
import type { SsoProvider } from '../../entities';
import { TtlCache } from '../../platform/ttl-cache';
import { RejectedError } from '../errors';

/** How long one call to a provider may take. */
const PROVIDER_TIMEOUT_MS = 10_000;
/** Discovery documents are re-read this often (a provider's endpoints rarely move; its keys are the JWKS's business). */
const DISCOVERY_TTL_MS = 5 * 60_000;
/** ID tokens are accepted this far past `exp` / before `iat` (clock skew between machines). */
const CLOCK_TOLERANCE_SECS = 30;

/** Where a provider is reached, from its discovery document (OIDC) or its configuration (OAuth 2.0). */
export interface ProviderEndpoints {
  authorize: string;
  token: string;
  userinfo: string | null;
  /** OIDC only. */
  jwks: string | null;
  issuer: string | null;
  /** How the client authenticates at the token endpoint. */
  tokenAuth: 'client_secret_basic' | 'client_secret_post';
}

/** Who signed in, as the provider vouches for it. */
export interface SsoProfile {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
  groups: string[];
}

interface DiscoveryDocument {
  issuer?: unknown;
  authorization_endpoint?: unknown;
  token_endpoint?: unknown;
  userinfo_endpoint?: unknown;
  jwks_uri?: unknown;
  token_endpoint_auth_methods_supported?: unknown;
}

/** A refusal the person signing in reads on the login page. */
export class SsoRefusal extends RejectedError {}

/**
 * The relying-party side of OpenID Connect and OAuth 2.0 (authorization code with PKCE): discovery, the code
 * exchange, ID-token validation against the provider's JWKS (signature, `iss`, `aud`, `exp`, `nonce`) with jose, and
 * the userinfo read. One per process: discovery documents and key sets are cached (jose's key set refetches on an
 * unknown `kid`, at most every 30 s).
 */
export class SsoProtocol {
  private readonly discoveries = new TtlCache<string, ProviderEndpoints>(DISCOVERY_TTL_MS, 1_000);
  private readonly keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

  async endpoints(p: SsoProvider): Promise<ProviderEndpoints> {
    if (p.kind === 'oauth2') {
      return { authorize: p.authorizeUrl!, token: p.tokenUrl!, userinfo: p.userinfoUrl, jwks: null, issuer: null, tokenAuth: 'client_secret_post' };
    }
    const issuer = p.issuer!;
    const url = p.discoveryUrl ?? `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    return this.discoveries.getOrLoad(`${issuer} ${url}`, async () => {
      const doc = (await getJson(url, 'discovery document')) as DiscoveryDocument;
      // OpenID Connect Discovery 1.0 §4.3: the document's issuer must be the one configured.
      if (doc.issuer !== issuer) throw new SsoRefusal('The provider’s discovery document names another issuer');
      const str = (v: unknown) => (typeof v === 'string' && /^https?:\/\//.test(v) ? v : null);
      const authorize = str(doc.authorization_endpoint);
      const token = str(doc.token_endpoint);
      const jwks = str(doc.jwks_uri);
      if (!authorize || !token || !jwks) throw new SsoRefusal('The provider’s discovery document lacks its endpoints');
      const methods = Array.isArray(doc.token_endpoint_auth_methods_supported) ? doc.token_endpoint_auth_methods_supported : ['client_secret_basic'];
      return { authorize, token, userinfo: str(doc.userinfo_endpoint), jwks, issuer, tokenAuth: methods.includes('client_secret_basic') ? 'client_secret_basic' : 'client_secret_post' };
    });
  }

  /** The provider's authorization URL for one sign-in (authorization code, PKCE S256). */
  authorizationUrl(p: SsoProvider, ep: ProviderEndpoints, o: { state: string; nonce: string; codeChallenge: string; redirectUri: string }): string {
    const u = new URL(ep.authorize);
    u.searchParams.set('response_type', 'code');
    u.searchParams.set('client_id', p.clientId);
    u.searchParams.set('redirect_uri', o.redirectUri);
    if (p.scopes.length) u.searchParams.set('scope', p.scopes.join(' '));
    u.searchParams.set('state', o.state);
    u.searchParams.set('code_challenge', o.codeChallenge);
    u.searchParams.set('code_challenge_method', 'S256');
    if (p.kind === 'oidc') u.searchParams.set('nonce', o.nonce);
    return u.toString();
  }

  /** Trades the code for tokens; a spent, foreign or PKCE-mismatched code is the provider's refusal. */
  async exchangeCode(p: SsoProvider, ep: ProviderEndpoints, o: { code: string; codeVerifier: string; redirectUri: string }): Promise<{ accessToken: string; idToken: string | null }> {
    const form = new URLSearchParams({ grant_type: 'authorization_code', code: o.code, redirect_uri: o.redirectUri, code_verifier: o.codeVerifier });
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    if (ep.tokenAuth === 'client_secret_basic') {
      // RFC 6749 §2.3.1: both parts form-urlencoded before Basic encoding.
      headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(p.clientId)}:${encodeURIComponent(p.clientSecret)}`).toString('base64')}`;
    } else {
      form.set('client_id', p.clientId);
      form.set('client_secret', p.clientSecret);
    }
    const res = await providerFetch(ep.token, { method: 'POST', headers, body: form.toString() }, 'token endpoint');
    const body = (await res.json().catch(() => ({}))) as { access_token?: unknown; id_token?: unknown; error?: unknown };
    if (!res.ok || typeof body.access_token !== 'string') {
      const why = typeof body.error === 'string' ? ` (${body.error.slice(0, 60)})` : '';
      throw new SsoRefusal(`The provider refused the sign-in code${why}; start again`);
    }
    if (p.kind === 'oidc' && typeof body.id_token !== 'string') throw new SsoRefusal('The provider sent no ID token');
    return { accessToken: body.access_token, idToken: typeof body.id_token === 'string' ? body.id_token : null };
  }

  /** Validates the ID token (signature by a key of the provider's JWKS, iss, aud, exp, nonce) and reads the profile. */
  async oidcProfile(p: SsoProvider, ep: ProviderEndpoints, tokens: { accessToken: string; idToken: string | null }, nonce: string): Promise<SsoProfile> {
    let keys = this.keySets.get(ep.jwks!);
    if (!keys) {
      keys = createRemoteJWKSet(new URL(ep.jwks!), { timeoutDuration: PROVIDER_TIMEOUT_MS });
      this.keySets.set(ep.jwks!, keys);
    }
    let claims: JWTPayload;
    try {
      ({ payload: claims } = await jwtVerify(tokens.idToken!, keys, { issuer: ep.issuer!, audience: p.clientId, clockTolerance: CLOCK_TOLERANCE_SECS, requiredClaims: ['sub', 'exp', 'iat'] }));
    } catch (err) {
      throw new SsoRefusal(`The provider’s ID token is not valid (${(err as { code?: string }).code ?? 'unreadable'})`);
    }
    if (claims.nonce !== nonce) throw new SsoRefusal('The provider’s ID token does not belong to this sign-in (nonce)');
    // With several audiences, the token must have been issued to this client (OIDC Core §3.1.3.7).
    if (Array.isArray(claims.aud) && claims.aud.length > 1 && claims.azp !== p.clientId) throw new SsoRefusal('The provider’s ID token was issued to another client');
    let merged: Record<string, unknown> = claims;
    if (ep.userinfo) {
      const info = await getJson(ep.userinfo, 'userinfo endpoint', tokens.accessToken);
      // OIDC Core §5.3.2: a userinfo answer for another subject must not be used.
      if (info.sub === claims.sub) merged = { ...info, ...claims };
    }
    return {
      subject: String(claims.sub),
      email: typeof merged.email === 'string' ? merged.email : null,
      emailVerified: merged.email_verified === true || merged.email_verified === 'true',
      name: typeof merged.name === 'string' ? merged.name : null,
      groups: p.groupsClaim ? groupsOf(at(merged, p.groupsClaim)) : [],
    };
  }

  /** A plain OAuth 2.0 provider's profile from its userinfo URL (and, when configured, its list of emails). */
  async oauthProfile(p: SsoProvider, ep: ProviderEndpoints, accessToken: string): Promise<SsoProfile> {
    const f = p.userinfoFields ?? { id: 'id', email: 'email', name: 'name', emailVerified: null };
    const info = await getJson(ep.userinfo!, 'userinfo endpoint', accessToken);
    const id = at(info, f.id);
    if (typeof id !== 'string' && typeof id !== 'number') throw new SsoRefusal('The provider’s account has no id');
    let email = typeof at(info, f.email) === 'string' ? (at(info, f.email) as string) : null;
    let emailVerified = f.emailVerified ? at(info, f.emailVerified) === true : false;
    if (p.emailsUrl) {
      // GitHub-style `[{email, primary, verified}]`: the primary verified address, else any verified one.
      const list = await getJson(p.emailsUrl, 'emails endpoint', accessToken);
      const entries = (Array.isArray(list) ? list : []) as { email?: unknown; primary?: unknown; verified?: unknown }[];
      const verified = entries.filter((e) => e.verified === true && typeof e.email === 'string');
      const pick = verified.find((e) => e.primary === true) ?? verified[0];
      if (pick) {
        email = pick.email as string;
        emailVerified = true;
      }
    }
    return {
      subject: String(id),
      email,
      emailVerified,
      name: typeof at(info, f.name) === 'string' ? (at(info, f.name) as string) : null,
      groups: p.groupsClaim ? groupsOf(at(info, p.groupsClaim)) : [],
    };
  }
}

/** A value at a dotted path of a JSON object (`a.b`); a key with dots in it is read whole first. */
function at(o: unknown, path: string): unknown {
  if (o && typeof o === 'object' && path in o) return (o as Record<string, unknown>)[path];
  let v: unknown = o;
  for (const k of path.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
  return v;
}

/** Groups as providers send them: a list of names, or one name. */
function groupsOf(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  return Array.isArray(v) ? v.filter((g): g is string => typeof g === 'string') : [];
}

async function providerFetch(url: string, init: RequestInit, what: string): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
  } catch {
    throw new SsoRefusal(`The provider’s ${what} could not be reached`);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a provider's JSON, read field by field with checks
async function getJson(url: string, what: string, bearer?: string): Promise<any> {
  const res = await providerFetch(url, { headers: { accept: 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) } }, what);
  const body: unknown = await res.json().catch(() => undefined);
  if (!res.ok || body === undefined || body === null || typeof body !== 'object') throw new SsoRefusal(`The provider’s ${what} answered ${res.status}`);
  return body;
}
