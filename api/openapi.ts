import { z } from 'zod';
import type { RouteDef } from './route';

type Json = Record<string, unknown>;

function toSchema(schema: z.ZodType, io: 'input' | 'output' = 'input'): Json {
  return z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
}

function parametersOf(schema: z.ZodType | undefined, where: 'path' | 'query'): Json[] {
  if (!schema) return [];
  const json = toSchema(schema);
  const props = (json.properties ?? {}) as Record<string, Json>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(props).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' ? true : required.has(name) && s.default === undefined,
    schema: s,
  }));
}

/**
 * The OpenAPI 3.1 document, generated from the same zod schemas that validate requests.
 * Each operation carries the scope an API key needs (`x-required-scope`).
 */
export function buildOpenApi(defs: RouteDef[], version: string): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const def of defs) {
    const p = def.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    const op: Json = {
      summary: def.summary,
      tags: [def.tag],
      operationId: `${def.method}_${p.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '')}`,
      parameters: [...parametersOf(def.params, 'path'), ...parametersOf(def.query, 'query')],
      responses: Object.fromEntries(
        Object.entries({ ...standardErrors(def), ...def.responses } as Record<string, { description: string; contentType?: string }>).map(([code, r]) => [
          code,
          {
            description: r.description,
            content: { [r.contentType ?? 'application/json']: r.contentType && r.contentType !== 'application/json' ? {} : { schema: { type: 'object' } } },
          },
        ]),
      ),
      security: def.auth === 'public' ? [] : def.auth === 'session' ? [{ sessionCookie: [] }] : [{ sessionCookie: [] }, { bearerApiKey: [] }],
      'x-required-scope': def.auth === 'user' ? (def.scope ?? null) : null,
      ...(def.auth === 'user' && def.scopeRule ? { 'x-scope-rule': def.scopeRule } : {}),
      'x-rate-limit-bucket': def.rateLimit ?? (def.auth === 'public' ? 'none' : 'general'),
    };
    if (def.body) {
      op.requestBody = {
        required: true,
        content: { [def.requestContentType ?? 'application/json']: { schema: toSchema(def.body) } },
      };
    }
    (paths[p] ??= {})[def.method] = op;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'ML lifecycle service',
      version,
      description:
        'Projects, datasets, AutoML experiments, models and jobs. Errors are `{detail}`; validation errors are `{detail: [{loc, msg, type}]}`. ' +
        'Cookie-authenticated writes need `X-CSRF-Token` equal to the `csrf_token` cookie. API keys need every scope named in `x-required-scope`, or what `x-scope-rule` says. ' +
        'Request bodies are JSON (`application/json`) unless the operation says otherwise; other content types get 415.',
    },
    paths,
    components: {
      securitySchemes: {
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'session_token' },
        bearerApiKey: { type: 'http', scheme: 'bearer', description: '`<prefix>.<secret>` API key' },
      },
    },
  };
}

function standardErrors(def: RouteDef): Record<number, { description: string }> {
  const out: Record<number, { description: string }> = {};
  if (def.body || def.query || def.params) out[422] = { description: 'Validation failure: `detail` is `[{loc, msg, type}]` or a text' };
  if (def.auth !== 'public') {
    out[401] = { description: 'Missing or invalid credentials' };
    out[403] = { description: 'Insufficient scope, role, or missing CSRF token' };
  }
  if (def.rateLimit !== 'none' && (def.auth !== 'public' || def.rateLimit)) out[429] = { description: 'Rate limit exceeded (Retry-After)' };
  return out;
}
