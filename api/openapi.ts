import { z } from 'zod';
import type { RouteDef, RouteResponse } from './route';
import { MAX_JSON_DEPTH } from './validation';

type Json = Record<string, unknown>;

function toSchema(schema: z.ZodType, io: 'input' | 'output' = 'input'): Json {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  delete json.$schema;
  return json;
}

/** Text without NUL: the API refuses U+0000 in every string and key of a request (PostgreSQL cannot store it). */
const NO_NUL = '^[^\\u0000]*$';
const JSON_VALUE = { $ref: '#/components/schemas/JsonValue' };
const FORM_VALUE = { $ref: '#/components/schemas/FormValue' };

/** Where a request schema is used: a JSON body, a multipart form, or a path or query parameter. */
type Carrier = 'json' | 'form' | 'param';

/**
 * A request schema as the API enforces it beyond what zod states: no NUL in any string or object key; in JSON
 * bodies no `__proto__` key at any depth (the body parser refuses it, 400, so a prototype can never be set through
 * a request); values zod leaves open (`z.unknown()`, extra properties) are any JSON without those.
 */
function asEnforced(schema: unknown, carrier: Carrier): unknown {
  if (Array.isArray(schema)) return schema.map((s) => asEnforced(s, carrier));
  if (schema === null || typeof schema !== 'object') return schema;
  const node = schema as Json;
  if (Object.keys(node).length === 0) return carrier === 'form' ? FORM_VALUE : JSON_VALUE;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'properties' || k === '$defs') out[k] = Object.fromEntries(Object.entries(v as Json).map(([name, sub]) => [name, asEnforced(sub, carrier)]));
    else if (['items', 'prefixItems', 'anyOf', 'oneOf', 'allOf', 'not', 'additionalProperties'].includes(k)) out[k] = typeof v === 'object' ? asEnforced(v, carrier) : v;
    else out[k] = v;
  }
  const types = Array.isArray(out.type) ? out.type : [out.type];
  if (types.includes('string') && out.format !== 'binary' && out.enum === undefined && out.const === undefined) {
    // zod states an email's rule as its pattern; the `format` beside it would be a second, different rule.
    if (out.format === 'email' && out.pattern !== undefined) delete out.format;
    if (out.pattern === undefined) out.pattern = NO_NUL;
    else if (out.format !== 'uuid') out.allOf = [...((out.allOf as unknown[] | undefined) ?? []), { pattern: NO_NUL }];
  }
  if (types.includes('object') || out.properties !== undefined) {
    out.propertyNames = { ...((out.propertyNames as Json | undefined) ?? {}), ...keyRule(carrier) };
    if (out.additionalProperties === undefined || out.additionalProperties === true) out.additionalProperties = carrier === 'form' ? FORM_VALUE : JSON_VALUE;
  }
  return out;
}

function keyRule(carrier: Carrier): Json {
  return carrier === 'json' ? { pattern: NO_NUL, not: { const: '__proto__' } } : { pattern: NO_NUL };
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
    schema: asEnforced(s, 'param'),
  }));
}

const ERROR = { $ref: '#/components/schemas/Error' };
const VALIDATION_ERROR = { $ref: '#/components/schemas/ValidationError' };

/** `{detail}` errors every operation may answer, derived from what the route is: its auth mode, inputs and limits. */
function standardErrors(def: RouteDef): Record<number, RouteResponse> {
  const out: Record<number, RouteResponse> = {};
  const hasBody = def.body !== undefined || def.requestContentType !== undefined;
  const authenticated = def.auth !== 'public';
  if (hasBody) out[400] = { description: 'Malformed body: JSON that is not an object or array, a `__proto__` key, broken multipart, or a body its Content-Encoding does not decode' };
  if (authenticated) {
    out[401] = { description: 'Missing or invalid credentials' };
    out[403] = { description: 'Insufficient scope or role, an API key on a session-only route, or a missing CSRF token' };
  }
  // Ids in the path or the body name resources the caller may not reach: absent and inaccessible are both 404.
  if (authenticated && (def.params !== undefined || hasBody)) out[404] = { description: 'A resource named by the request does not exist or is not accessible' };
  if (authenticated && def.method !== 'get') out[409] = { description: 'Conflicts with the current state (for example a resource that was deleted meanwhile, or a duplicate)' };
  if (hasBody) out[413] = { description: 'Request body too large' };
  if (def.requestContentType === 'multipart/form-data' || def.requestContentType === 'text/csv') out[415] = { description: `Expected ${def.requestContentType}` };
  else if (hasBody) out[415] = { description: `Expected ${def.requestContentType ?? 'application/json'}, with no Content-Encoding or one of gzip, deflate and br` };
  if (hasBody || def.query !== undefined || def.params !== undefined) out[422] = { description: 'Validation failure: `detail` is `[{loc, msg, type}]` or a text' };
  if (def.rateLimit !== 'none' && (authenticated || def.rateLimit)) out[429] = { description: 'Rate limit exceeded (Retry-After)' };
  return out;
}

function contentOf(code: number, r: RouteResponse): Json {
  const types = r.contentType === undefined ? ['application/json'] : Array.isArray(r.contentType) ? r.contentType : [r.contentType];
  return Object.fromEntries(
    types.map((type) => {
      if (type === 'application/json') {
        const schema = r.schema ? toSchema(r.schema, 'output') : code >= 400 ? (code === 422 ? VALIDATION_ERROR : ERROR) : { type: 'object' };
        return [type, { schema }];
      }
      if (type.startsWith('text/')) return [type, { schema: { type: 'string' } }];
      return [type, { schema: { type: 'string', format: 'binary' } }];
    }),
  );
}

function requestBodyOf(def: RouteDef): Json | undefined {
  if (def.requestContentType === 'multipart/form-data') {
    return { required: true, content: { 'multipart/form-data': { schema: asEnforced(def.form ? toSchema(def.form) : { type: 'object' }, 'form') } } };
  }
  // Any bytes may be CSV: the content decides (422 when unreadable), so the schema constrains nothing.
  if (def.requestContentType === 'text/csv') return { required: true, content: { 'text/csv': { schema: { description: 'CSV text with a header row' } } } };
  if (!def.body) return undefined;
  // An absent JSON body is read as `{}`: where `{}` is valid, the body may be left out.
  return {
    required: !def.body.safeParse({}).success,
    content: { [def.requestContentType ?? 'application/json']: { schema: asEnforced(toSchema(def.body), def.requestContentType === 'application/x-www-form-urlencoded' ? 'form' : 'json') } },
  };
}

/**
 * Who may call: an API key (where the route takes one), or a session cookie, which for writes also needs the CSRF
 * pair (the `csrf_token` cookie echoed in `X-CSRF-Token`).
 */
function securityOf(def: RouteDef): Json[] {
  if (def.auth === 'public') return [];
  const session = def.method === 'get' ? { sessionCookie: [] } : { sessionCookie: [], csrfCookie: [], csrfHeader: [] };
  return def.auth === 'session' ? [session] : [{ bearerApiKey: [] }, session];
}

/**
 * The OpenAPI 3.1 document, generated from the same zod schemas that validate requests. Each operation carries
 * the scope an API key needs (`x-required-scope`) and every error answer it can give, with its `{detail}` shape.
 */
export function buildOpenApi(defs: RouteDef[], version: string): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const def of defs) {
    const p = def.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    const responses: Record<number, RouteResponse> = { ...standardErrors(def) };
    for (const [code, r] of Object.entries(def.responses)) responses[Number(code)] = { ...responses[Number(code)], ...r };
    const op: Json = {
      summary: def.summary,
      tags: [def.tag],
      operationId: `${def.method}_${p
        .replace(/[{}]/g, '')
        .replace(/[^A-Za-z0-9]+/g, '_')
        .replace(/^_|_$/g, '')}`,
      parameters: [...parametersOf(def.params, 'path'), ...parametersOf(def.query, 'query')],
      responses: Object.fromEntries(
        // `contentType: []`: an answer with no body (a 204), documented without content.
        Object.entries(responses).map(([code, r]) => [
          code,
          Array.isArray(r.contentType) && r.contentType.length === 0 ? { description: r.description } : { description: r.description, content: contentOf(Number(code), r) },
        ]),
      ),
      security: securityOf(def),
      'x-required-scope': def.auth === 'user' ? (def.scope ?? null) : null,
      ...(def.auth === 'user' && def.scopeRule ? { 'x-scope-rule': def.scopeRule } : {}),
      'x-rate-limit-bucket': def.rateLimit ?? (def.auth === 'public' ? 'none' : 'general'),
    };
    const body = requestBodyOf(def);
    if (body) op.requestBody = body;
    (paths[p] ??= {})[def.method] = op;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'ML lifecycle service',
      version,
      description:
        'Projects, datasets, AutoML experiments, models and jobs. Errors are `{detail}`; validation errors are `{detail: [{loc, msg, type}]}`. ' +
        `Text containing NUL (U+0000) or an unpaired UTF-16 surrogate (U+D800-U+DFFF) is refused with 422 wherever it appears, and so is JSON nested more than ${MAX_JSON_DEPTH} levels deep. ` +
        'A method a path does not support answers 405 with `Allow`. ' +
        'Cookie-authenticated writes need `X-CSRF-Token` equal to the `csrf_token` cookie. API keys need every scope named in `x-required-scope`, or what `x-scope-rule` says. ' +
        'Request bodies are JSON (`application/json`) unless the operation says otherwise; other content types get 415.',
    },
    paths,
    components: {
      securitySchemes: {
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'session_token', description: 'Set by `POST /api/auth/login`' },
        csrfCookie: { type: 'apiKey', in: 'cookie', name: 'csrf_token', description: 'Set by `POST /api/auth/login` beside the session' },
        csrfHeader: { type: 'apiKey', in: 'header', name: 'X-CSRF-Token', description: 'The `csrf_token` cookie, echoed on cookie-authenticated writes' },
        bearerApiKey: { type: 'http', scheme: 'bearer', description: '`<prefix>.<secret>` API key' },
      },
      schemas: {
        JsonValue: {
          description: `Any JSON value without NUL (U+0000) or unpaired surrogates in its strings or keys, without \`__proto__\` keys, nested at most ${MAX_JSON_DEPTH} levels deep in its body`,
          anyOf: [
            { type: ['null', 'boolean', 'number'] },
            { type: 'string', pattern: NO_NUL },
            { type: 'array', items: JSON_VALUE },
            { type: 'object', propertyNames: keyRule('json'), additionalProperties: JSON_VALUE },
          ],
        },
        FormValue: { description: 'A form field: text without NUL (U+0000)', type: 'string', pattern: NO_NUL },
        Error: { type: 'object', required: ['detail'], properties: { detail: { type: 'string' } } },
        ValidationError: {
          type: 'object',
          required: ['detail'],
          properties: {
            detail: {
              oneOf: [
                { type: 'string' },
                {
                  type: 'array',
                  items: {
                    type: 'object',
                    required: ['loc', 'msg', 'type'],
                    properties: { loc: { type: 'array', items: { type: ['string', 'integer'] } }, msg: { type: 'string' }, type: { type: 'string' } },
                  },
                },
              ],
            },
          },
        },
      },
    },
  };
}
