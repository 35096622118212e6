import { z } from 'zod';
import { KNOWN_SCOPES } from '../../services/scopes';
import { callerId, requestMeta, type RouteDeps } from '../context';
import { presentApiKey } from '../presenters/account';
import { apiKeySchema, createdApiKeySchema } from '../presenters/account.schema';
import { route, RouteDef } from '../route';
import { apiKeyParams, createApiKeyBody } from './api-keys.schema';

/** API key management: session login only; the secret is shown once. */
export function apiKeyRoutes({ services, keyCache }: RouteDeps): RouteDef[] {
  const { apiKeys } = services;
  const tag = 'api-keys';
  return [
    route({
      method: 'post',
      path: '/api/auth/api-keys',
      tag,
      auth: 'session',
      summary: `Create a key; scopes from: ${KNOWN_SCOPES.join(', ')}`,
      body: createApiKeyBody,
      responses: { 201: { description: '{id, key_id, prefix, api_key, scopes}; api_key is shown only here', schema: createdApiKeySchema } },
      handler: async (ctx, { body }) => {
        const { key, token } = await apiKeys.create(callerId(ctx), body.name, body.scopes, requestMeta(ctx));
        ctx.status = 201;
        return { id: key.id, key_id: key.id, name: key.name, prefix: key.prefix, api_key: token, scopes: key.scopes };
      },
    }),
    route({
      method: 'get',
      path: '/api/auth/api-keys',
      tag,
      auth: 'session',
      summary: "The caller's live keys (bare array; prefixes only, no secrets)",
      responses: {
        200: {
          description: 'array of {id, name, prefix, scopes, last_used_at, created_at}',
          schema: z.array(apiKeySchema),
        },
      },
      handler: async (ctx) => (await apiKeys.live(callerId(ctx))).map(presentApiKey),
    }),
    route({
      method: 'post',
      path: '/api/auth/api-keys/:key_id/revoke',
      tag,
      auth: 'session',
      summary: 'Revoke a key; later requests with it get 401',
      params: apiKeyParams,
      responses: { 200: { description: '{ok}' }, 404: { description: 'API key not found' } },
      handler: async (ctx, { params }) => {
        const revoked = await apiKeys.revoke(callerId(ctx), params.key_id, requestMeta(ctx));
        await keyCache.forget(revoked.prefix);
        return { ok: true };
      },
    }),
  ];
}
