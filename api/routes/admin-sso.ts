import { z } from 'zod';
import { requireSuperuser } from '../admin-guard';
import type { RouteDeps } from '../context';
import { presentSsoProvider } from '../presenters/sso-provider';
import { ssoProviderSchema } from '../presenters/sso-provider.schema';
import { route, RouteDef } from '../route';
import { createSsoProviderBody, ssoProviderInput, ssoProviderParams, updateSsoProviderBody } from './admin-sso.schema';

const NOT_SUPERUSER = { description: '`Superuser access required`' };
const PROVIDER_404 = { description: '`SSO provider not found`' };
const SLUG_TAKEN = { description: '`An SSO provider with this slug already exists`' };

/**
 * The admin area's single sign-on providers (issue 34): OpenID Connect and OAuth 2.0 providers, their client
 * credentials (the secret is written, never answered: `***`), allowed domains and group mappings. Every handler calls
 * `requireSuperuser` first.
 */
export function adminSsoRoutes({ services, config }: RouteDeps): RouteDef[] {
  const { ssoProviders } = services;
  const admin = { tag: 'admin', auth: 'user', scope: 'admin' } as const;
  const present = (p: Parameters<typeof presentSsoProvider>[0]) => presentSsoProvider(p, config.appBaseUrl);
  return [
    route({
      ...admin,
      method: 'get',
      path: '/api/admin/sso-providers',
      summary: 'Every SSO provider, by display name (superusers); secrets masked',
      responses: { 200: { description: '{items, total}', schema: z.object({ items: z.array(ssoProviderSchema), total: z.number().int() }) }, 403: NOT_SUPERUSER },
      handler: async (ctx) => {
        requireSuperuser(ctx);
        const items = await ssoProviders.list();
        return { items: items.map(present), total: items.length };
      },
    }),
    route({
      ...admin,
      method: 'post',
      path: '/api/admin/sso-providers',
      summary: 'Configure an SSO provider (superusers): `oidc` needs `issuer`; `oauth2` needs its authorize, token and userinfo URLs',
      body: createSsoProviderBody,
      responses: { 201: { description: '{id, provider}', schema: z.object({ id: z.string(), provider: ssoProviderSchema }) }, 403: NOT_SUPERUSER, 409: SLUG_TAKEN },
      handler: async (ctx, { body }) => {
        requireSuperuser(ctx);
        const { slug, display_name, kind, client_id, client_secret } = body;
        const provider = await ssoProviders.create({ ...ssoProviderInput(body), slug, displayName: display_name, kind, clientId: client_id, clientSecret: client_secret });
        ctx.status = 201;
        return { id: provider.id, provider: present(provider) };
      },
    }),
    route({
      ...admin,
      method: 'get',
      path: '/api/admin/sso-providers/:provider_id',
      summary: 'One SSO provider (superusers); the secret masked',
      params: ssoProviderParams,
      responses: { 200: { description: '{provider}', schema: z.object({ provider: ssoProviderSchema }) }, 403: NOT_SUPERUSER, 404: PROVIDER_404 },
      handler: async (ctx, { params }) => {
        requireSuperuser(ctx);
        return { provider: present(await ssoProviders.get(params.provider_id)) };
      },
    }),
    route({
      ...admin,
      method: 'put',
      path: '/api/admin/sso-providers/:provider_id',
      summary: 'Change an SSO provider (superusers); omitted fields are kept, and so is the secret when omitted or sent back as `***`',
      params: ssoProviderParams,
      body: updateSsoProviderBody,
      responses: { 200: { description: '{provider}', schema: z.object({ provider: ssoProviderSchema }) }, 403: NOT_SUPERUSER, 404: PROVIDER_404, 409: SLUG_TAKEN },
      handler: async (ctx, { params, body }) => {
        requireSuperuser(ctx);
        return { provider: present(await ssoProviders.update(params.provider_id, ssoProviderInput(body))) };
      },
    }),
    route({
      ...admin,
      method: 'delete',
      path: '/api/admin/sso-providers/:provider_id',
      summary: 'Remove an SSO provider (superusers): its users keep their accounts, their links to it go',
      params: ssoProviderParams,
      responses: { 200: { description: 'Done: `{ok: true}`', schema: z.object({ ok: z.literal(true) }) }, 403: NOT_SUPERUSER, 404: PROVIDER_404 },
      handler: async (ctx, { params }) => {
        requireSuperuser(ctx);
        await ssoProviders.remove(params.provider_id);
        return { ok: true as const };
      },
    }),
  ];
}
