import { z } from 'zod';
import type { SsoProviderInput } from '../../services/sso';
import { nonBlank, uuidParam } from '../validation';

/** The request schemas of the SSO provider routes (api/routes/admin-sso.ts) and of the sign-in routes (api/routes/sso.ts). */

/** A provider's slug: its path segment in `/api/auth/sso/{slug}/…`. */
export const ssoSlug = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'Lower-case letters, digits and dashes, starting with a letter or digit, at most 63 characters')
  .meta({ description: 'Lower-case letters, digits and dashes' });

const httpUrl = z
  .string()
  .max(2000)
  .regex(/^https?:\/\/[^\s/?#]+[^\s]*$/, 'An http or https URL')
  .refine((s) => URL.canParse(s), 'An http or https URL');

const domain = z
  .string()
  .max(253)
  .regex(/^@?(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/, 'A domain name such as example.com')
  .transform((d) => d.replace(/^@/, '').toLowerCase());

/** A field of a userinfo answer, as a dotted path (`id`, `profile.email`). */
const fieldPath = z
  .string()
  .regex(/^[A-Za-z0-9_:-]+(?:\.[A-Za-z0-9_:-]+)*$/, 'A field name, or a dotted path')
  .max(200);

/** OAuth scope tokens (RFC 6749 §3.3). */
const scope = z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]{1,200}$/, 'A scope token: printable ASCII, no spaces, quotes or backslashes');

const groupMapping = z
  .object({
    group: nonBlank(200),
    team: nonBlank(200).nullable().default(null),
    team_role: z.enum(['member', 'maintainer']).default('member'),
    superuser: z.boolean().default(false),
  })
  .refine((m) => m.team !== null || m.superuser, 'Map the group to a team, to superuser, or both');

const providerFields = {
  slug: ssoSlug,
  display_name: nonBlank(100),
  kind: z.enum(['oidc', 'oauth2']),
  enabled: z.boolean(),
  trusted: z.boolean().meta({ description: 'Its emails count as verified and it creates accounts whatever the registration setting says (default false)' }),
  issuer: httpUrl.nullable().meta({ description: 'OIDC: the issuer; required for oidc providers' }),
  discovery_url: httpUrl.nullable().meta({ description: 'OIDC: the discovery document, when not at `<issuer>/.well-known/openid-configuration`' }),
  client_id: nonBlank(500),
  client_secret: z.string().min(1).max(2000).meta({ description: 'Written only; answers show `***`. On update, omit it or send `***` to keep the stored one' }),
  scopes: z.array(scope).max(50).meta({ description: 'Default: `openid email profile` (oidc), none (oauth2)' }),
  allowed_email_domains: z.array(domain).max(100).meta({ description: 'Only addresses of these domains may sign in with the provider; empty: any' }),
  groups_claim: fieldPath.nullable().meta({ description: 'The claim or userinfo field holding the groups (default `groups` for oidc); null: groups are not read' }),
  group_mappings: z.array(groupMapping).max(200),
  authorize_url: httpUrl.nullable().meta({ description: 'OAuth 2.0: required' }),
  token_url: httpUrl.nullable().meta({ description: 'OAuth 2.0: required' }),
  userinfo_url: httpUrl.nullable().meta({ description: 'OAuth 2.0: required (GitHub: https://api.github.com/user)' }),
  emails_url: httpUrl.nullable().meta({ description: 'OAuth 2.0, optional: a GitHub-style list of `{email, primary, verified}` for private addresses' }),
  userinfo_fields: z
    .object({ id: fieldPath.default('id'), email: fieldPath.default('email'), name: fieldPath.default('name'), email_verified: fieldPath.nullable().default(null) })
    .nullable()
    .meta({ description: 'OAuth 2.0: where the userinfo answer keeps the account id, email, name and (optional) email-verified flag' }),
};

export const createSsoProviderBody = z.object({
  ...providerFields,
  enabled: providerFields.enabled.optional(),
  trusted: providerFields.trusted.optional(),
  issuer: providerFields.issuer.optional(),
  discovery_url: providerFields.discovery_url.optional(),
  scopes: providerFields.scopes.optional(),
  allowed_email_domains: providerFields.allowed_email_domains.optional(),
  groups_claim: providerFields.groups_claim.optional(),
  group_mappings: providerFields.group_mappings.optional(),
  authorize_url: providerFields.authorize_url.optional(),
  token_url: providerFields.token_url.optional(),
  userinfo_url: providerFields.userinfo_url.optional(),
  emails_url: providerFields.emails_url.optional(),
  userinfo_fields: providerFields.userinfo_fields.optional(),
});

/** An update: every field optional, an omitted one kept. */
export const updateSsoProviderBody = z.object(providerFields).partial();

export const ssoProviderParams = z.object({ provider_id: uuidParam });

/** The service's input from either body (snake_case to the entity's names). */
export function ssoProviderInput(b: z.infer<typeof updateSsoProviderBody>): Partial<SsoProviderInput> {
  return {
    slug: b.slug,
    displayName: b.display_name,
    kind: b.kind,
    enabled: b.enabled,
    trusted: b.trusted,
    issuer: b.issuer,
    discoveryUrl: b.discovery_url,
    clientId: b.client_id,
    clientSecret: b.client_secret,
    scopes: b.scopes,
    allowedEmailDomains: b.allowed_email_domains ? [...new Set(b.allowed_email_domains)] : undefined,
    groupsClaim: b.groups_claim,
    groupMappings: b.group_mappings?.map((m) => ({ group: m.group, team: m.team, teamRole: m.team_role, superuser: m.superuser })),
    authorizeUrl: b.authorize_url,
    tokenUrl: b.token_url,
    userinfoUrl: b.userinfo_url,
    emailsUrl: b.emails_url,
    userinfoFields:
      b.userinfo_fields === undefined
        ? undefined
        : b.userinfo_fields && { id: b.userinfo_fields.id, email: b.userinfo_fields.email, name: b.userinfo_fields.name, emailVerified: b.userinfo_fields.email_verified },
  };
}

/** The sign-in routes: the provider's path segment, where to go afterwards, and what the provider sends back. */
export const ssoSlugParams = z.object({ slug: z.string().max(100) });
export const ssoAuthorizeQuery = z.object({ next: z.string().max(500).optional().meta({ description: 'A path of the web application to open after the sign-in' }) });
export const ssoCallbackQuery = z.object({
  state: z.string().max(500).optional(),
  code: z.string().max(4000).optional(),
  error: z.string().max(500).optional(),
  error_description: z.string().max(2000).optional(),
  iss: z.string().max(2000).optional(),
});
