import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { SsoLoginState, type SsoProvider, type SsoProviderKind, type User } from '../../entities';
import type { Logger } from '../../platform/logger';
import { randomToken, sha256 } from '../../platform/secrets';
import type { AccountActivity, RequestMeta } from '../account-activity';
import type { Accounts } from '../accounts';
import { SsoProtocol, SsoRefusal } from './protocol';
import type { SsoProviderService } from './providers';
import type { SsoProvisioning } from './provisioning';

/** How long a started sign-in may take at the provider. */
export const SSO_STATE_TTL_MS = 10 * 60_000;

/** Each kind's path family: `/api/auth/sso/{slug}/…` for OpenID Connect, `/api/auth/oauth/{slug}/…` for OAuth 2.0. */
export const SSO_PATH_PREFIX: Record<SsoProviderKind, string> = { oidc: 'sso', oauth2: 'oauth' };

/** Where the web application goes after a sign-in by default. */
const DEFAULT_NEXT = '/app/projects';

/** A path of the web application (no scheme, no host, no `..`): where a sign-in may send the browser back to. */
export function safeNextPath(next: string | undefined): string {
  return next && /^\/(app|auth)(\/[A-Za-z0-9/_?=&.%-]*)?$/.test(next) && !next.includes('..') ? next : DEFAULT_NEXT;
}

/** The callback a provider sends the browser back to: registered at the provider by the admin. */
export function redirectUri(appBaseUrl: string, p: Pick<SsoProvider, 'kind' | 'slug'>): string {
  return `${appBaseUrl}/api/auth/${SSO_PATH_PREFIX[p.kind]}/${p.slug}/callback`;
}

/**
 * The sign-in flow: `start` makes the state (stored as its hash, bound to the browser's binding token, with the PKCE
 * verifier and the nonce, single use, SSO_STATE_TTL_MS) and the provider's URL; `finish` spends the state, exchanges
 * the code, validates what the provider sent, finds or creates the user and starts a session like a password login.
 */
export class SsoSignIn {
  constructor(
    private readonly ds: DataSource,
    private readonly appBaseUrl: string,
    private readonly providers: SsoProviderService,
    private readonly provisioning: SsoProvisioning,
    /** A getter: the accounts service is built beside this one in the composition root. */
    private readonly accounts: () => Accounts,
    private readonly activity: AccountActivity,
    private readonly log: Logger,
    private readonly protocol = new SsoProtocol(),
  ) {}

  /** The provider's authorization URL for a new sign-in of the browser holding `browserToken`. */
  async start(kind: SsoProviderKind, slug: string, browserToken: string, next: string | undefined): Promise<string> {
    const provider = await this.provider(kind, slug);
    const endpoints = await this.protocol.endpoints(provider);
    const state = randomToken();
    const nonce = randomToken();
    const codeVerifier = randomToken(48);
    const repo = this.ds.getRepository(SsoLoginState);
    // Sign-ins abandoned at the provider are dropped by the next ones.
    await repo.createQueryBuilder().delete().where('expires_at < now()').execute();
    await repo.insert(
      repo.create({
        providerId: provider.id,
        stateHash: sha256(state),
        browserHash: sha256(browserToken),
        codeVerifier,
        nonce,
        nextPath: safeNextPath(next),
        expiresAt: new Date(Date.now() + SSO_STATE_TTL_MS),
      }),
    );
    const codeChallenge = createHash('sha256').update(codeVerifier).digest('base64url');
    return this.protocol.authorizationUrl(provider, endpoints, { state, nonce, codeChallenge, redirectUri: redirectUri(this.appBaseUrl, provider) });
  }

  /**
   * Completes a sign-in from the provider's redirect. Every refusal is an {@link SsoRefusal} with a sentence for the
   * login page; nothing is written before the provider's answer is validated.
   */
  async finish(
    kind: SsoProviderKind,
    slug: string,
    q: { state?: string; code?: string; error?: string; iss?: string },
    browserToken: string | undefined,
    meta: RequestMeta,
  ): Promise<{ user: User; token: string; csrfToken: string; expiresAt: Date; nextPath: string }> {
    const provider = await this.provider(kind, slug);
    if (!q.state) throw new SsoRefusal('The sign-in came back without its state; start again');
    // Spent here whatever follows: a state is good for one callback only.
    const [rows] = (await this.ds.query('DELETE FROM sso_login_states WHERE state_hash = $1 AND provider_id = $2 RETURNING code_verifier, nonce, next_path, expires_at, browser_hash', [
      sha256(q.state),
      provider.id,
    ])) as [{ code_verifier: string; nonce: string; next_path: string; expires_at: Date; browser_hash: string }[], number];
    const row = rows[0];
    if (!row) throw new SsoRefusal('This sign-in link is not valid or was already used; start again');
    if (new Date(row.expires_at).getTime() < Date.now()) throw new SsoRefusal('The sign-in took too long and expired; start again');
    // The browser that comes back must be the one that left (login CSRF: an attacker's callback URL in a victim's browser).
    if (!browserToken || sha256(browserToken) !== row.browser_hash) throw new SsoRefusal('This sign-in was started in another browser; start again');
    if (q.error) throw new SsoRefusal(`${provider.displayName} refused the sign-in (${q.error.slice(0, 60)})`);
    if (!q.code) throw new SsoRefusal('The sign-in came back without a code; start again');
    // RFC 9207: a provider that names itself must be the one this sign-in went to (mix-up attacks).
    if (q.iss !== undefined && provider.kind === 'oidc' && q.iss !== provider.issuer) throw new SsoRefusal('The sign-in came back from another issuer; start again');

    const endpoints = await this.protocol.endpoints(provider);
    const callback = redirectUri(this.appBaseUrl, provider);
    const tokens = await this.protocol.exchangeCode(provider, endpoints, { code: q.code, codeVerifier: row.code_verifier, redirectUri: callback });
    const profile = provider.kind === 'oidc' ? await this.protocol.oidcProfile(provider, endpoints, tokens, row.nonce) : await this.protocol.oauthProfile(provider, endpoints, tokens.accessToken);

    let user: User;
    try {
      user = await this.ds.transaction((em) => this.provisioning.userFor(em, provider, profile, meta));
    } catch (err) {
      // Two first sign-ins of one subject or address at once: the loser is refused, not answered 500.
      if ((err as { code?: string }).code === '23505') throw new SsoRefusal('This account was linked by another sign-in at the same moment; try again');
      throw err;
    }
    const { session, token, csrfToken } = await this.accounts().createSession(user, { remember: false, userAgent: meta.userAgent ?? undefined, ip: meta.ip ?? 'unknown' });
    await this.activity.record(this.ds.manager, user.id, 'sso_login', meta, { provider: provider.slug, kind: provider.kind, session_id: session.id });
    this.log.info({ provider: provider.slug, userId: user.id }, 'sso sign-in');
    return { user, token, csrfToken, expiresAt: session.expiresAt, nextPath: row.next_path };
  }

  private async provider(kind: SsoProviderKind, slug: string): Promise<SsoProvider> {
    const p = await this.providers.enabledWithSecret(slug, kind);
    if (!p) throw new SsoRefusal('This sign-in provider is not available');
    return p;
  }
}
