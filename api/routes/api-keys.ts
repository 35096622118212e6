import { z } from 'zod';
import { ApiKey } from '../../entities';
import type { AppDeps } from '../context';
import { notFound, unprocessable } from '../errors';
import { route, RouteDef } from '../route';
import { isKnownScope, KNOWN_SCOPES } from '../scopes';
import { randomToken, sha256 } from '../services/secrets';
import { nonBlank, uuidParam } from '../validation';

/** API key management: session login only; the secret is shown once. */
export function apiKeyRoutes(deps: AppDeps): RouteDef[] {
  const tag = 'api-keys';
  const repo = () => deps.ds.getRepository(ApiKey);
  return [
    route({
      method: 'post', path: '/api/auth/api-keys', tag, auth: 'session',
      summary: `Create a key; scopes from: ${KNOWN_SCOPES.join(', ')}`,
      body: z.object({ name: nonBlank(200), scopes: z.array(z.string().max(100).meta({ enum: KNOWN_SCOPES })).max(100).meta({ minItems: 1 }) }),
      responses: { 201: { description: '{id, key_id, prefix, api_key, scopes}; api_key is shown only here' } },
      handler: async (ctx, { body }) => {
        if (body.scopes.length === 0) throw unprocessable([{ loc: ['body', 'scopes'], msg: 'At least one scope is required', type: 'value_error' }]);
        const unknown = body.scopes.filter((s) => !isKnownScope(s));
        if (unknown.length) throw unprocessable([{ loc: ['body', 'scopes'], msg: `Unknown scope(s): ${unknown.join(', ')}`, type: 'value_error' }]);
        const prefix = `mlk_${randomToken(6)}`;
        const secret = randomToken(32);
        const scopes = [...new Set(body.scopes)];
        const key = repo().create({ userId: ctx.state.principal!.user.id, name: body.name, prefix, secretHash: sha256(secret), scopes, lastUsedAt: null, revokedAt: null });
        await repo().insert(key);
        ctx.status = 201;
        return { id: key.id, key_id: key.id, name: key.name, prefix, api_key: `${prefix}.${secret}`, scopes };
      },
    }),
    route({
      method: 'get', path: '/api/auth/api-keys', tag, auth: 'session',
      summary: 'The caller\'s live keys (bare array; prefixes only, no secrets)',
      responses: { 200: { description: 'array of {id, name, prefix, scopes, last_used_at, created_at}', schema: z.array(z.object({ id: z.uuid(), name: z.string(), prefix: z.string(), scopes: z.array(z.string()) }).loose()) } },
      handler: async (ctx) => {
        const keys = await repo()
          .createQueryBuilder('k')
          .where('k.user_id = :u AND k.revoked_at IS NULL', { u: ctx.state.principal!.user.id })
          .orderBy('k.created_at', 'DESC')
          .getMany();
        return keys.map((k) => ({ id: k.id, name: k.name, prefix: k.prefix, scopes: k.scopes, last_used_at: k.lastUsedAt, created_at: k.createdAt }));
      },
    }),
    route({
      method: 'post', path: '/api/auth/api-keys/:key_id/revoke', tag, auth: 'session',
      summary: 'Revoke a key; later requests with it get 401', params: z.object({ key_id: uuidParam }),
      responses: { 200: { description: '{ok}' }, 404: { description: 'API key not found' } },
      handler: async (ctx, { params }) => {
        const r = await repo()
          .createQueryBuilder()
          .update()
          .set({ revokedAt: () => 'now()' })
          .where('id = :id AND user_id = :u AND revoked_at IS NULL', { id: params.key_id, u: ctx.state.principal!.user.id })
          .execute();
        if (!r.affected) throw notFound('API key not found');
        const revoked = await repo().findOneBy({ id: params.key_id });
        if (revoked) deps.keyCache?.forget(revoked.prefix);
        return { ok: true };
      },
    }),
  ];
}
