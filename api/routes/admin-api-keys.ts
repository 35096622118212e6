import { requireSuperuser } from '../admin-guard';
import { callerId, requestMeta, type RouteDeps } from '../context';
import { presentAdminApiKey } from '../presenters/admin';
import { adminApiKeySchema } from '../presenters/admin.schema';
import { pageOf } from '../presenters/page.schema';
import { route, RouteDef } from '../route';
import { adminApiKeyParams, adminApiKeysQuery } from './admin-api-keys.schema';

/** Every user's API keys: list and revoke. Superusers only. */
export function adminApiKeyRoutes({ services, keyCache }: RouteDeps): RouteDef[] {
  const { apiKeys } = services.admin;
  const tag = 'admin';
  return [
    route({
      method: 'get',
      path: '/api/admin/api-keys',
      tag,
      auth: 'user',
      scope: 'admin',
      summary: "Every user's API keys (owner, prefix, scopes, created, last used, revoked; never a secret), newest first; `status` live (default), revoked or all",
      query: adminApiKeysQuery,
      responses: { 200: { description: 'Page of keys', schema: pageOf(adminApiKeySchema) } },
      handler: async (ctx, { query }) => {
        requireSuperuser(ctx);
        const page = await apiKeys.list(query);
        return { ...page, items: page.items.map(presentAdminApiKey) };
      },
    }),
    route({
      method: 'post',
      path: '/api/admin/api-keys/:key_id/revoke',
      tag,
      auth: 'user',
      scope: 'admin',
      summary: "Revoke any user's key: its next request answers 401 (an `api_key_revoked` security event of the owner's account, naming the admin)",
      params: adminApiKeyParams,
      responses: { 200: { description: '{ok}' }, 404: { description: 'API key not found' }, 409: { description: 'API key already revoked' } },
      handler: async (ctx, { params }) => {
        requireSuperuser(ctx);
        const key = await apiKeys.revoke(callerId(ctx), params.key_id, requestMeta(ctx));
        await keyCache.forget(key.prefix);
        return { ok: true };
      },
    }),
  ];
}
