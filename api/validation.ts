import { z } from 'zod';
import { hasLoneSurrogate, storableText } from '../platform/storable-text';
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
export const SURROGATE_MESSAGE = 'Text must not contain unpaired UTF-16 surrogates (\\ud800-\\udfff)';
/** How deeply a JSON body may nest: the body itself is level 1, so `{"a":{"b":[]}}` has 3. */
export const MAX_JSON_DEPTH = 32;
export const JSON_DEPTH_MESSAGE = `JSON may nest at most ${MAX_JSON_DEPTH} levels`;
/** One answer names at most this many fields. */
const MAX_INPUT_ISSUES = 20;

/** Why PostgreSQL could not store a text, if it could not. */
function textIssue(s: string): { msg: string; type: string } | null {
  if (s.includes('\u0000')) return { msg: NUL_MESSAGE, type: 'string_nul' };
  if (hasLoneSurrogate(s)) return { msg: SURROGATE_MESSAGE, type: 'string_surrogate' };
  return null;
}

/** A value still to look at, or a key already found unfit (named in its turn, so the issues keep document order). */
interface Pending {
  v: unknown;
  loc: (string | number)[];
  level: number;
  unfitKey?: { msg: string; type: string };
}

/**
 * What the service refuses wherever it appears in `value`, as validation issues rooted at `where`, in document order:
 * - a string or object key holding NUL, which PostgreSQL cannot store in `text` (22021) or `jsonb` (22P05);
 * - one holding an unpaired surrogate, whose `\u` escape `jsonb` refuses (22P02: one such row once failed every
 *   batched INSERT of the inference logs) and which `text` would silently store as U+FFFD;
 * - a value nested deeper than MAX_JSON_DEPTH (only the first is named): JSON.parse takes any depth, but what walks
 *   JSON recursively afterwards (JSON.stringify, TypeORM's merge of a saved entity, the privacy transforms)
 *   overflows the stack, after a write has been committed or inside a background flush.
 * The walk is iterative, so it is safe at any depth the parser accepted. Every field of every JSON body goes through
 * it before its schema, which is the one bound on the depth of free-form JSON (settings, configs, predict inputs).
 */
export function inputIssues(value: unknown, where: Where | (string | number)[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const pending: Pending[] = [{ v: value, loc: typeof where === 'string' ? [where] : where, level: 1 }];
  while (pending.length && issues.length < MAX_INPUT_ISSUES) {
    const { v, loc, level, unfitKey } = pending.pop()!;
    if (unfitKey) issues.push({ loc, ...unfitKey });
    else if (typeof v === 'string') {
      const issue = textIssue(v);
      if (issue) issues.push({ loc, ...issue });
    } else if (v !== null && typeof v === 'object') {
      if (level > MAX_JSON_DEPTH) return [{ loc, msg: JSON_DEPTH_MESSAGE, type: 'json_too_deep' }];
      // Children are pushed last-first, so they are visited (and named) in document order.
      const children: Pending[] = [];
      if (Array.isArray(v)) v.forEach((item, i) => children.push({ v: item, loc: [...loc, i], level: level + 1 }));
      else
        for (const [k, item] of Object.entries(v)) {
          const unfit = textIssue(k);
          // A key is named with what PostgreSQL refuses replaced, so the answer itself stays printable and storable.
          children.push(unfit ? { v: undefined, loc: [...loc, storableText(k)], level, unfitKey: unfit } : { v: item, loc: [...loc, k], level: level + 1 });
        }
      for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]);
    }
  }
  return issues.slice(0, MAX_INPUT_ISSUES);
}

/** Throws 422 naming each field of path, query and body that the service refuses wherever it appears ({@link inputIssues}). */
export function rejectUnfitInput(input: { path?: unknown; query?: unknown; body?: unknown }): void {
  const issues = [...inputIssues(input.path, 'path'), ...inputIssues(input.query, 'query'), ...inputIssues(input.body, 'body')];
  if (issues.length) throw new HttpError(422, issues.slice(0, MAX_INPUT_ISSUES));
}

/** What a free-form JSON field (settings, a config) may take as JSON: such fields are stored as they come. */
export const MAX_FREE_JSON_BYTES = 64 * 1024;

/**
 * A free-form JSON object: keys of 1 to `maxKeyLength` characters, at most `maxKeys` of them, any JSON values, at most
 * MAX_FREE_JSON_BYTES as JSON. Its depth and its text are bounded for every body before any schema runs
 * ({@link rejectUnfitInput}), so measuring it here is safe.
 */
export function freeJsonObject(o: { maxKeys: number; maxKeyLength: number; noun: string; description?: string }) {
  return z
    .record(z.string().min(1).max(o.maxKeyLength), z.unknown())
    .refine((v) => Object.keys(v).length <= o.maxKeys, { message: `At most ${o.maxKeys} ${o.noun}` })
    .refine((v) => Buffer.byteLength(JSON.stringify(v)) <= MAX_FREE_JSON_BYTES, { message: `At most ${MAX_FREE_JSON_BYTES / 1024} KiB as JSON` })
    .meta({
      maxProperties: o.maxKeys,
      description: `${o.description ? `${o.description} ` : ''}At most ${MAX_FREE_JSON_BYTES / 1024} KiB as JSON, nested at most ${MAX_JSON_DEPTH} levels deep in the body.`,
    });
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
