import type { Router, RouterMiddleware } from '@koa/router';
import { z } from 'zod';
import type { AppContext, RouteDeps } from './context';
import type { Closed } from './presenters/common.schema';
import { parseOrThrow, rejectUnfitInput } from './validation';
import type { RequiredScope } from '../services/scopes';
import type { RateBucket } from './middleware/rate-limit';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call a route: `public` (no credentials), `session` (cookie login only; API keys
 * refused), `user` (cookie or API key).
 */
export type AuthMode = 'public' | 'session' | 'user';

export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
}

export interface RouteResponse<R = unknown> {
  description: string;
  /** Content type(s) of the answer when not JSON (downloads, HTML pages). */
  contentType?: string | string[];
  /**
   * The JSON body's shape, published in the OpenAPI document (its output side: what JSON holds) and through it the
   * web UI's types. The handler must return its input side (`z.input`: Dates where the document says date-time), so
   * the compiler keeps the handler and its documented answer together.
   */
  schema?: z.ZodType<unknown, R>;
}

/** The body a handler returns for a response schema whose input type is `R` (see `Presented`). */
type Returned<R> = unknown extends R ? unknown : Closed<R>;

export interface RouteDef<P = unknown, Q = unknown, B = unknown, R = unknown> {
  method: HttpMethod;
  /** Koa path with `:param` segments. */
  path: string;
  summary: string;
  tag: string;
  auth: AuthMode;
  /** Scopes an API key needs (all of them); published in OpenAPI as `x-required-scope`. */
  scope?: RequiredScope | readonly RequiredScope[];
  /**
   * For `user` routes without a static scope: what decides it (checked by the service once the
   * resource is loaded, for example an artifact's owner type); published as `x-scope-rule`.
   */
  scopeRule?: string;
  /** Rate-limit bucket; authenticated routes default to `general`. */
  rateLimit?: RateBucket | 'none';
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /**
   * Request content type when not JSON: uploads (checked by the upload parser), the one browser
   * form, and a streamed CSV (read by its handler as it arrives). Any other route refuses a
   * non-JSON body with 415.
   */
  requestContentType?: 'multipart/form-data' | 'application/x-www-form-urlencoded' | 'text/csv';
  /** Keep the JSON body's exact text as `ctx.request.rawBody` besides parsing it: a webhook's signature covers those bytes. */
  rawBody?: boolean;
  /**
   * The fields of a multipart upload, for the OpenAPI document only: the upload handler reads and checks them
   * itself while it streams the file (`file` is a `z.file()`).
   */
  form?: z.ZodType;
  /** Success and route-specific answers; the errors every route can give are added by the document. */
  responses: Record<number, RouteResponse<R>>;
  /** Its return value is the JSON body (of the schema's input type where a response declares one); undefined when it wrote the answer itself. */
  handler: (ctx: AppContext, input: RouteInput<P, Q, B>) => Promise<NoInfer<Returned<R>> | undefined>;
  /**
   * Called with the refusal when the request fails validation, before it is answered: for a route
   * that must account for bad requests too (a deployment's predict logs them). Its own failures are
   * its to handle.
   */
  onInvalid?: (ctx: AppContext, err: unknown) => Promise<void>;
}

/** Keeps the generic types of a route definition while collecting it in a list. */
export function route<P = Record<string, never>, Q = Record<string, never>, B = undefined, R = unknown>(def: RouteDef<P, Q, B, R>): RouteDef {
  return def as unknown as RouteDef;
}

export type RouteModule = (deps: RouteDeps) => RouteDef[];

/**
 * Mounts route definitions: authentication, CSRF, rate limit and scope middleware in
 * that order, then validation (path and query schemas, no NUL or unpaired surrogate in what they read nor
 * anywhere in the body, no body nested past MAX_JSON_DEPTH, then the body schema), then the handler. A handler's
 * return value becomes the JSON body unless it wrote the response itself.
 */
export function mount(router: Router, defs: RouteDef[], guards: (def: RouteDef) => RouterMiddleware[]): void {
  for (const def of defs) {
    // A route API keys can call without a declared scope would be open to every key.
    if (def.auth === 'user' && !def.scope && !def.scopeRule) throw new Error(`${def.method.toUpperCase()} ${def.path}: a route open to API keys declares its scope or scopeRule`);
    router[def.method](def.path, ...guards(def), async (ctx) => {
      const c = ctx as unknown as AppContext;
      let input: RouteInput<unknown, unknown, unknown>;
      try {
        input = validated(def, ctx);
      } catch (err) {
        await def.onInvalid?.(c, err);
        throw err;
      }
      const out = await def.handler(c, input);
      if (out !== undefined) {
        if (ctx.status === 404 && ctx.body === undefined) ctx.status = 200;
        ctx.body = out;
      }
    });
  }
}

/** The request's path parameters, query and body, parsed by the route's schemas (422 otherwise). */
function validated(def: RouteDef, ctx: { params: Record<string, string>; query: unknown; request: unknown }): RouteInput<unknown, unknown, unknown> {
  const rawBody = (ctx.request as { body?: unknown }).body;
  const params = def.params ? parseOrThrow(def.params, ctx.params, 'path') : ctx.params;
  const query = def.query ? parseOrThrow(def.query, ctx.query, 'query') : ctx.query;
  // No NUL or unpaired surrogate reaches a handler, a query or a stored document, and no body nests past
  // MAX_JSON_DEPTH: in path and query what the route reads (unknown query parameters are ignored anyway), in the body
  // everything, so no key of a stored JSON document can hold one and nothing recursive meets a deep value.
  rejectUnfitInput({ path: params, query: def.query ? query : undefined, body: rawBody });
  return { params, query, body: def.body ? parseOrThrow(def.body, rawBody ?? {}, 'body') : undefined };
}
