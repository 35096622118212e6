import { z } from 'zod';

/**
 * Pieces the response schemas share (api/presenters/*.schema.ts). A schema's output side is what the OpenAPI
 * document shows (and through it the web UI's generated types); its input side is what the presenter hands to JSON
 * (`Presented` below), so the compiler holds the presenter, the route's handler and the document together.
 */

/** A timestamp the presenter already wrote as an ISO string. */
export const isoTimestamp = z.iso.datetime({ offset: true });

/** A timestamp the presenter holds as a `Date` (an entity's column): JSON writes it as an ISO string. */
export const dateTimestamp = z.codec(z.date(), isoTimestamp, { decode: (d) => d.toISOString(), encode: (s) => new Date(s) });

/** A stored JSON document (a jsonb column) the API passes on as it is. */
export const jsonObject = z.record(z.string(), z.unknown());

/** A dataset column as schemas name it. */
export const columnSchema = z.object({ name: z.string(), dtype: z.string() }).loose();

/**
 * What a presenter returns for `schema`: its JSON before serialization (Dates where the document says date-time).
 * `.loose()` keeps an object open in the document (clients ignore fields they do not know); here the object is
 * closed again, so that interfaces, which have no index signature, fit it too. Records (`z.record`) stay records.
 */
export type Presented<S extends z.ZodType> = Closed<z.input<S>>;

type KnownKeys<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };
/**
 * A schema's input type as presenters may fill it: loose objects without their index signature, arrays readonly, and
 * a record of unknown values (a stored JSON document) any object, all the way down.
 */
export type Closed<T> = T extends Date
  ? T
  : T extends readonly unknown[]
    ? { readonly [I in keyof T]: Closed<T[I]> }
    : T extends object
      ? string extends keyof T
        ? [keyof KnownKeys<T>] extends [never]
          ? unknown extends T[string & keyof T]
            ? object
            : { [k: string]: Closed<T[string & keyof T]> }
          : { [K in keyof KnownKeys<T>]: Closed<KnownKeys<T>[K]> }
        : { [K in keyof T]: Closed<T[K]> }
      : T;
