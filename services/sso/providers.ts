import type { DataSource } from 'typeorm';
import { SsoProvider, type SsoGroupMapping, type SsoProviderKind, type SsoUserinfoFields } from '../../entities';
import type { Logger } from '../../platform/logger';
import { SecretBox, SecretKeyError } from '../../platform/secret-box';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import { SsoRefusal } from './protocol';

/** What an admin sends for a provider; on update an omitted field keeps its value. */
export interface SsoProviderInput {
  slug: string;
  displayName: string;
  kind: SsoProviderKind;
  enabled: boolean;
  trusted: boolean;
  issuer: string | null;
  discoveryUrl: string | null;
  clientId: string;
  /** Omitted (or the mask sent back) on update: the stored secret is kept. */
  clientSecret: string;
  scopes: string[];
  allowedEmailDomains: string[];
  groupsClaim: string | null;
  groupMappings: SsoGroupMapping[];
  authorizeUrl: string | null;
  tokenUrl: string | null;
  userinfoUrl: string | null;
  emailsUrl: string | null;
  userinfoFields: SsoUserinfoFields | null;
}

/** What answers show in place of the client secret. */
export const SECRET_MASK = '***' as const;

const NOT_FOUND = 'SSO provider not found';

/** What a client secret's ciphertext is bound to (platform/secret-box.ts): it opens in this column only. */
export const SSO_SECRET_CONTEXT = 'sso_providers.client_secret';

/** Defaults a new provider takes for what the admin left out. */
const DEFAULT_SCOPES: Record<SsoProviderKind, string[]> = { oidc: ['openid', 'email', 'profile'], oauth2: [] };
const DEFAULT_FIELDS: SsoUserinfoFields = { id: 'id', email: 'email', name: 'name', emailVerified: null };

/**
 * The single sign-on providers (superusers only, `/api/admin/sso-providers`). The client secret is written here,
 * encrypted (platform/secret-box.ts), and read and decrypted only by the sign-in flow (`enabledWithSecret`); nothing
 * that lists or shows a provider selects it.
 */
export class SsoProviderService {
  /**
   * @param secrets the encryption of client secrets; a function, so the key (file) is looked for only once a secret is
   * written or read, not by every process that builds the services.
   */
  constructor(
    private readonly ds: DataSource,
    private readonly secrets: () => SecretBox,
    private readonly log: Logger,
  ) {}

  list(): Promise<SsoProvider[]> {
    return this.ds.getRepository(SsoProvider).find({ order: { displayName: 'ASC', slug: 'ASC' } });
  }

  /** Enabled providers, for the login page (slug, name, kind only are shown). */
  listEnabled(): Promise<SsoProvider[]> {
    return this.ds.getRepository(SsoProvider).find({ where: { enabled: true }, order: { displayName: 'ASC', slug: 'ASC' } });
  }

  async get(id: string): Promise<SsoProvider> {
    const p = await this.ds.getRepository(SsoProvider).findOneBy({ id });
    if (!p) throw new NotFoundError(NOT_FOUND);
    return p;
  }

  /**
   * An enabled provider of this kind by slug, with its client secret decrypted: what the sign-in flow needs. A secret
   * this server cannot decrypt (another SECRETS_KEY) refuses the sign-in with a message saying so, and is logged for the
   * admins; the key itself is never named, only its id.
   */
  async enabledWithSecret(slug: string, kind: SsoProviderKind): Promise<SsoProvider | null> {
    const p = await this.ds.getRepository(SsoProvider).createQueryBuilder('p').addSelect('p.clientSecret').where('p.slug = :slug AND p.kind = :kind AND p.enabled', { slug, kind }).getOne();
    // A plaintext secret is one the start-up pass (sealStoredSecrets) has not encrypted yet: used as it is.
    if (!p || !SecretBox.isSealed(p.clientSecret)) return p;
    try {
      p.clientSecret = this.secrets().open(p.clientSecret, SSO_SECRET_CONTEXT);
    } catch (err) {
      if (!(err instanceof SecretKeyError)) throw err;
      this.log.error({ provider: slug }, `The client secret of SSO provider ${slug} cannot be decrypted. ${err.message}. Set the key it was saved with, or enter the secret again.`);
      throw new SsoRefusal('This sign-in provider’s client secret cannot be decrypted on this server (a secrets key mismatch); an administrator must fix its configuration');
    }
    return p;
  }

  /**
   * Encrypts, under the current key, every stored client secret that is not yet: plaintext from before encryption
   * existed, or sealed with an earlier key (SECRETS_KEY_PREVIOUS) after a rotation. Run at every API start: a row is
   * rewritten only when its value is still the one read (two processes starting at once write it once), and a row
   * sealed with a key this server does not have is left as it is and logged.
   *
   * Not a migration: migrations run without the service's key (`npm run migrate`, the PGlite import), and a rotation
   * needs the same pass again long after the migration ran once.
   */
  async sealStoredSecrets(): Promise<{ sealed: string[]; unreadable: string[] }> {
    const rows: { id: string; slug: string; client_secret: string }[] = await this.ds.query('SELECT id, slug, client_secret FROM sso_providers ORDER BY slug');
    const out = { sealed: [] as string[], unreadable: [] as string[] };
    if (!rows.length) return out;
    const box = this.secrets();
    for (const r of rows.filter((row) => box.needsSealing(row.client_secret))) {
      let plain: string;
      try {
        plain = SecretBox.isSealed(r.client_secret) ? box.open(r.client_secret, SSO_SECRET_CONTEXT) : r.client_secret;
      } catch (err) {
        if (!(err instanceof SecretKeyError)) throw err;
        this.log.error(
          { provider: r.slug },
          `The client secret of SSO provider ${r.slug} cannot be decrypted. ${err.message}. Its sign-ins are refused until that key is set (SECRETS_KEY or SECRETS_KEY_PREVIOUS) or the secret is entered again.`,
        );
        out.unreadable.push(r.slug);
        continue;
      }
      const written: unknown[] = await this.ds.query('UPDATE sso_providers SET client_secret = $1 WHERE id = $2 AND client_secret = $3 RETURNING id', [
        box.seal(plain, SSO_SECRET_CONTEXT),
        r.id,
        r.client_secret,
      ]);
      if (written.length) out.sealed.push(r.slug);
    }
    if (out.sealed.length) this.log.info({ providers: out.sealed, keyId: box.keyId }, 'SSO client secrets encrypted with the current secrets key');
    return out;
  }

  async create(input: Partial<SsoProviderInput> & Pick<SsoProviderInput, 'slug' | 'displayName' | 'kind' | 'clientId' | 'clientSecret'>): Promise<SsoProvider> {
    const repo = this.ds.getRepository(SsoProvider);
    const provider = repo.create({
      enabled: true,
      trusted: false,
      issuer: null,
      discoveryUrl: null,
      allowedEmailDomains: [],
      groupsClaim: input.kind === 'oidc' ? 'groups' : null,
      groupMappings: [],
      authorizeUrl: null,
      tokenUrl: null,
      userinfoUrl: null,
      emailsUrl: null,
      userinfoFields: input.kind === 'oauth2' ? DEFAULT_FIELDS : null,
      ...withoutUndefined(input),
      scopes: input.scopes ?? DEFAULT_SCOPES[input.kind],
    });
    if (provider.clientSecret === SECRET_MASK) throw ValidationError.field(['body', 'client_secret'], 'Send the client secret itself, not its mask');
    assertComplete(provider);
    provider.clientSecret = this.secrets().seal(provider.clientSecret, SSO_SECRET_CONTEXT);
    await this.save(provider);
    return this.get(provider.id);
  }

  async update(id: string, input: Partial<SsoProviderInput>): Promise<SsoProvider> {
    const provider = await this.get(id);
    const { clientSecret, ...rest } = withoutUndefined(input);
    Object.assign(provider, rest);
    // The form sends the mask back when the secret is not changed.
    if (clientSecret !== undefined && clientSecret !== SECRET_MASK) provider.clientSecret = this.secrets().seal(clientSecret, SSO_SECRET_CONTEXT);
    if (input.kind === 'oauth2' && !provider.userinfoFields) provider.userinfoFields = DEFAULT_FIELDS;
    assertComplete(provider);
    await this.save(provider);
    return this.get(id);
  }

  async remove(id: string): Promise<void> {
    const r = await this.ds.getRepository(SsoProvider).delete({ id });
    if (!r.affected) throw new NotFoundError(NOT_FOUND);
  }

  private async save(provider: SsoProvider): Promise<void> {
    try {
      await this.ds.getRepository(SsoProvider).save(provider);
    } catch (err) {
      if ((err as { code?: string }).code === '23505') throw new ConflictError('An SSO provider with this slug already exists');
      throw err;
    }
  }
}

/** Each kind's endpoints must be known: OIDC's from its issuer, OAuth 2.0's given one by one. */
function assertComplete(p: SsoProvider): void {
  const missing = (field: string) => ValidationError.field(['body', field], `Required for ${p.kind} providers`, 'missing');
  if (p.kind === 'oidc' && !p.issuer) throw missing('issuer');
  if (p.kind === 'oauth2') {
    if (!p.authorizeUrl) throw missing('authorize_url');
    if (!p.tokenUrl) throw missing('token_url');
    if (!p.userinfoUrl) throw missing('userinfo_url');
  }
}

function withoutUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
