import { z } from 'zod';
import { HttpError, ValidationIssue } from './errors';

type Where = 'body' | 'query' | 'path';

/** Largest value of a PostgreSQL `integer` (int4) column. */
export const INT4_MAX = 2 ** 31 - 1;

/** Parses `value` with `schema`, or throws 422 with `[{loc, msg, type}]` rooted at `where`. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, where: Where): z.infer<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issues: ValidationIssue[] = r.error.issues.map((i) => ({
    loc: [where, ...i.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
    msg: i.message,
    type: i.code,
  }));
  throw new HttpError(422, issues);
}

export const NUL_MESSAGE = 'Text must not contain NUL (\\u0000) characters';

/**
 * Every string (and object key) in `value` that holds a NUL character, as validation issues rooted at `where`.
 * PostgreSQL cannot store U+0000 in `text` (22021) or `jsonb` (22P05), so such input is refused before any
 * handler sees it rather than failing inside a query.
 */
export function nulIssues(value: unknown, where: Where | (string | number)[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const visit = (v: unknown, loc: (string | number)[], depth: number) => {
    if (typeof v === 'string') {
      if (v.includes('\u0000')) issues.push({ loc, msg: NUL_MESSAGE, type: 'string_nul' });
    } else if (Array.isArray(v)) {
      if (depth < MAX_DEPTH) v.forEach((item, i) => visit(item, [...loc, i], depth + 1));
    } else if (v !== null && typeof v === 'object' && depth < MAX_DEPTH) {
      for (const [k, item] of Object.entries(v)) {
        // The key is named in the answer with its NUL replaced, so the answer itself stays printable.
        if (k.includes('\u0000')) issues.push({ loc: [...loc, k.replaceAll('\u0000', '\uFFFD')], msg: NUL_MESSAGE, type: 'string_nul' });
        else visit(item, [...loc, k], depth + 1);
      }
    }
  };
  visit(value, typeof where === 'string' ? [where] : where, 0);
  return issues.slice(0, MAX_NUL_ISSUES);
}

/** JSON bodies are at most MAX_JSON_BODY_BYTES; nesting deeper than this is not walked further (zod refuses it anyway). */
const MAX_DEPTH = 64;
/** One answer names at most this many fields. */
const MAX_NUL_ISSUES = 20;

/** Throws 422 naming each field of path, query and body that holds a NUL character. */
export function rejectNul(input: { path?: unknown; query?: unknown; body?: unknown }): void {
  const issues = [...nulIssues(input.path, 'path'), ...nulIssues(input.query, 'query'), ...nulIssues(input.body, 'body')];
  if (issues.length) throw new HttpError(422, issues.slice(0, MAX_NUL_ISSUES));
}

/**
 * An integer from a path segment or query string, bounded by `min` and `max` (by default what an int4 column
 * holds), so a number like 2^31 is a 422 here rather than a PostgreSQL 22003 in a query. Only plain decimal digits
 * are numbers: `''`, `' 5'`, `0x10` and `1e3` are refused instead of being coerced.
 */
export function intParam(min = 0, max = INT4_MAX) {
  return z.preprocess((v) => (typeof v === 'string' && /^[+-]?\d+$/.test(v) ? Number(v) : v), z.number().int().min(min).max(max));
}

/**
 * JSON-schema pattern of a text that is not blank: one character that JavaScript's `trim()` keeps. Spelled out
 * rather than `\S` because regex engines disagree on what `\s` holds (Python's includes \x1c-\x1f and not
 * U+FEFF), and clients validate with theirs.
 */
export const NOT_BLANK = '[^\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]';

/** A name-like text: at most `max` characters as sent, and not blank once trimmed (the trimmed text is kept). */
export function nonBlank(max: number) {
  return z.string().max(max).trim().min(1).meta({ pattern: NOT_BLANK });
}

/**
 * An address mail servers take: zod's email grammar with RFC 1035 domain labels (no label starts or ends with `-`,
 * at most 63 characters) and at most 253 characters in all (the SMTP path limit). zod alone accepts labels like
 * `a-.example.com`, which the mail server then refuses, failing the registration after the account was written.
 */
export const emailAddress = z.email({ pattern: /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/ }).max(253);

/** Query-string booleans: `true/false/1/0`. */
export const queryBool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const uuidParam = z.uuid();

/** The common list parameters with per-endpoint limit bound and sort fields. */
export function listQuery<F extends readonly [string, ...string[]]>(sortFields: F, maxLimit = 500) {
  return z.object({
    limit: intParam(1, maxLimit).default(50),
    offset: intParam(0).default(0),
    search: z.string().max(200).optional(),
    sort_field: z.enum(sortFields).default(sortFields[0]),
    sort_direction: z.enum(['asc', 'desc']).default('desc'),
  });
}

/** Pagination only (endpoints without search or sort). */
export function pageQuery(maxLimit = 500) {
  return z.object({
    limit: intParam(1, maxLimit).default(50),
    offset: intParam(0).default(0),
  });
}

/**
 * A point in time in a query: an RFC 3339 date-time with its offset (`2026-11-24T10:00:00Z`), documented as
 * `format: date-time`, read as a Date.
 */
export const timestampParam = z.iso.datetime({ offset: true }).transform((s) => new Date(s));
