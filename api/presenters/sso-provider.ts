import type { SsoProvider } from '../../entities';
import { redirectUri, SECRET_MASK, SSO_PATH_PREFIX } from '../../services/sso';
import type { Presented } from './common.schema';
import type { publicSsoProviderSchema, ssoProviderSchema } from './sso-provider.schema';

/** Where a browser starts a sign-in with the provider (a path of this service). */
function loginUrl(p: SsoProvider): string {
  return `/api/auth/${SSO_PATH_PREFIX[p.kind]}/${p.slug}/authorize`;
}

/** A provider for the admin area: everything but the client secret, which is masked. */
export function presentSsoProvider(p: SsoProvider, appBaseUrl: string): Presented<typeof ssoProviderSchema> {
  return {
    id: p.id,
    slug: p.slug,
    display_name: p.displayName,
    kind: p.kind,
    enabled: p.enabled,
    trusted: p.trusted,
    issuer: p.issuer,
    discovery_url: p.discoveryUrl,
    client_id: p.clientId,
    client_secret: SECRET_MASK,
    scopes: p.scopes,
    allowed_email_domains: p.allowedEmailDomains,
    groups_claim: p.groupsClaim,
    group_mappings: p.groupMappings.map((m) => ({ group: m.group, team: m.team, team_role: m.teamRole, superuser: m.superuser })),
    authorize_url: p.authorizeUrl,
    token_url: p.tokenUrl,
    userinfo_url: p.userinfoUrl,
    emails_url: p.emailsUrl,
    userinfo_fields: p.userinfoFields ? { id: p.userinfoFields.id, email: p.userinfoFields.email, name: p.userinfoFields.name, email_verified: p.userinfoFields.emailVerified } : null,
    redirect_uri: redirectUri(appBaseUrl, p),
    login_url: loginUrl(p),
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  };
}

/** A provider for the login page: its name and where to start. */
export function presentPublicSsoProvider(p: SsoProvider): Presented<typeof publicSsoProviderSchema> {
  return { slug: p.slug, display_name: p.displayName, kind: p.kind, login_url: loginUrl(p) };
}
