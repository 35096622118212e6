import type { DataSource } from 'typeorm';
import { SsoProvider, type SsoGroupMapping, type SsoProviderKind, type SsoUserinfoFields } from '../../entities';
import { ConflictError, NotFoundError, ValidationError } from '../errors';

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

/** Defaults a new provider takes for what the admin left out. */
const DEFAULT_SCOPES: Record<SsoProviderKind, string[]> = { oidc: ['openid', 'email', 'profile'], oauth2: [] };
const DEFAULT_FIELDS: SsoUserinfoFields = { id: 'id', email: 'email', name: 'name', emailVerified: null };

/**
 * The single sign-on providers (superusers only, `/api/admin/sso-providers`). The client secret is written here and
 * read only by the sign-in flow (`withSecret`); nothing that lists or shows a provider selects it.
 */
export class SsoProviderService {
  constructor(private readonly ds: DataSource) {}

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

  /** An enabled provider of this kind by slug, with its client secret: what the sign-in flow needs. */
  async enabledWithSecret(slug: string, kind: SsoProviderKind): Promise<SsoProvider | null> {
    return this.ds.getRepository(SsoProvider).createQueryBuilder('p').addSelect('p.clientSecret').where('p.slug = :slug AND p.kind = :kind AND p.enabled', { slug, kind }).getOne();
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
    await this.save(provider);
    return this.get(provider.id);
  }

  async update(id: string, input: Partial<SsoProviderInput>): Promise<SsoProvider> {
    const provider = await this.get(id);
    const { clientSecret, ...rest } = withoutUndefined(input);
    Object.assign(provider, rest);
    // The form sends the mask back when the secret is not changed.
    if (clientSecret !== undefined && clientSecret !== SECRET_MASK) provider.clientSecret = clientSecret;
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
