import { setOwn } from '../engine/own-keys';
import { storableText } from '../platform/storable-text';
import type { InputRow } from './model-serving';

/**
 * What an inference log keeps of a request's rows: the model's input columns only, each value as sent when it is a
 * scalar, else null (only a refused request has other values: the model reads scalars). Keys that are not inputs are
 * named in the log's warnings and never stored, so a caller cannot make the log hold more than the model reads, nor
 * values nested deeper than a feature is. Done when the request is recorded, so the buffer holds no more either.
 */
export function loggableRows(rows: InputRow[], inputs: ReadonlySet<string>): InputRow[] {
  return rows.map((r) => {
    const out: InputRow = {};
    for (const k of Object.keys(r)) if (inputs.has(k)) setOwn(out, k, scalarOrNull(r[k]));
    return out;
  });
}

function scalarOrNull(v: unknown): unknown {
  return v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : null;
}

/**
 * `value` as JSON that PostgreSQL's `jsonb` takes: every string with NUL and unpaired surrogates replaced by U+FFFD
 * (keys are not: those of stored rows are the model's column names, stored already).
 * Requests bringing those are refused (api/validation.ts), but a stored value is also what a privacy action made of
 * one (a mask that keeps the last characters can cut an emoji in half), and one refused row must never fail a batch.
 */
export function storableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? storableText(v) : v));
}
