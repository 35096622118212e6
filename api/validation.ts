import { z } from 'zod';
import { HttpError, ValidationIssue } from './errors';

/** Parses `value` with `schema`, or throws 422 with `[{loc, msg, type}]` rooted at `where`. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, where: 'body' | 'query' | 'path'): z.infer<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issues: ValidationIssue[] = r.error.issues.map((i) => ({
    loc: [where, ...i.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
    msg: i.message,
    type: i.code,
  }));
  throw new HttpError(422, issues);
}

/** Query-string booleans: `true/false/1/0`. */
export const queryBool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const uuidParam = z.uuid();

/** The common list parameters with per-endpoint limit bound and sort fields. */
export function listQuery<F extends readonly [string, ...string[]]>(sortFields: F, maxLimit = 500) {
  return z.object({
    limit: z.coerce.number().int().min(1).max(maxLimit).default(50),
    offset: z.coerce.number().int().min(0).default(0),
    search: z.string().max(200).optional(),
    sort_field: z.enum(sortFields).default(sortFields[0]),
    sort_direction: z.enum(['asc', 'desc']).default('desc'),
  });
}

/** Pagination only (endpoints without search or sort). */
export function pageQuery(maxLimit = 500) {
  return z.object({
    limit: z.coerce.number().int().min(1).max(maxLimit).default(50),
    offset: z.coerce.number().int().min(0).default(0),
  });
}
