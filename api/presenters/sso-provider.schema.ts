import { z } from 'zod';
import { dateTimestamp } from './common.schema';

/** A group → team / superuser mapping as answers show it. */
export const ssoGroupMappingSchema = z.object({
  group: z.string(),
  team: z.string().nullable().meta({ description: 'A team name (resolved at each sign-in; a missing team is skipped)' }),
  team_role: z.enum(['member', 'maintainer']),
  superuser: z.boolean().meta({ description: 'Members of the group are made superusers (never revoked by a sign-in)' }),
});

/** A single sign-on provider as the admin area shows it (`presentSsoProvider`); the client secret is always `***`. */
export const ssoProviderSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    display_name: z.string(),
    kind: z.enum(['oidc', 'oauth2']),
    enabled: z.boolean(),
    trusted: z.boolean().meta({ description: 'Its emails count as verified and it creates accounts whatever the registration setting says' }),
    issuer: z.string().nullable(),
    discovery_url: z.string().nullable(),
    client_id: z.string(),
    client_secret: z.literal('***').meta({ description: 'Never answered: always the mask' }),
    scopes: z.array(z.string()),
    allowed_email_domains: z.array(z.string()),
    groups_claim: z.string().nullable(),
    group_mappings: z.array(ssoGroupMappingSchema),
    authorize_url: z.string().nullable(),
    token_url: z.string().nullable(),
    userinfo_url: z.string().nullable(),
    emails_url: z.string().nullable(),
    userinfo_fields: z.object({ id: z.string(), email: z.string(), name: z.string(), email_verified: z.string().nullable() }).nullable(),
    redirect_uri: z.string().meta({ description: 'The callback URL to register at the provider' }),
    login_url: z.string().meta({ description: 'Where a browser starts a sign-in with this provider' }),
    created_at: dateTimestamp,
    updated_at: dateTimestamp,
  })
  .loose();

/** What the login page needs of an enabled provider. */
export const publicSsoProviderSchema = z.object({ slug: z.string(), display_name: z.string(), kind: z.enum(['oidc', 'oauth2']), login_url: z.string() }).loose();
