/**
 * Generation conditions (exact column values every generated row must hold), checked against what the model saw:
 * an unknown column, an unseen category, a value outside the training range, a fraction in a whole-number column
 * or a condition on a column that was always missing is a SynthConditionError before any row is generated.
 */
import type { SynthColumnMeta, SynthConditions } from '../types';
import type { NeuralParams } from './model';

import { SynthConditionError } from '../errors';

export { SynthConditionError };

/**
 * A numeric condition accepts generated values within this share of the column's range (then sets the value
 * exactly); whole-number columns accept at least ±0.5 (the values that round to it).
 */
export const NUMERIC_TOLERANCE_SHARE = 0.025;

export type ResolvedCondition =
  { kind: 'categorical'; column: number; name: string; level: number; levelName: string; slot: number } | { kind: 'numeric'; column: number; name: string; value: number; tolerance: number };

/** Resolves conditions by column name; throws SynthConditionError for any that cannot be met. */
export function resolveConditions(columns: SynthColumnMeta[], params: NeuralParams, conditions: SynthConditions | undefined): ResolvedCondition[] {
  if (!conditions) return [];
  return Object.entries(conditions).map(([name, raw]): ResolvedCondition => {
    const column = columns.findIndex((c) => c.name === name);
    if (column < 0) throw new SynthConditionError(`unknown column "${name}" in conditions`);
    const meta = columns[column];
    const enc = params.transformer.encodings[column];
    if (meta.kind === 'categorical') {
      if (enc.kind !== 'categorical') throw new SynthConditionError(`column "${name}" held no values in the training data`);
      const level = findLevel(enc.levels, raw);
      if (level < 0) {
        const seen = enc.levels.slice(0, 20).join(', ') + (enc.levels.length > 20 ? ', ...' : '');
        throw new SynthConditionError(`column "${name}" has no category "${String(raw)}" in the training data (seen: ${seen})`);
      }
      let slot = enc.slots.indexOf(level);
      if (slot < 0) slot = enc.slots.indexOf(-2);
      return { kind: 'categorical', column, name, level, levelName: enc.levels[level], slot };
    }
    const value = numericValue(meta, raw);
    if (value === null) throw new SynthConditionError(`condition on column "${name}" must be a ${meta.kind === 'datetime' ? 'date/time or epoch milliseconds' : 'number'}, got "${String(raw)}"`);
    if (meta.min === null || meta.max === null) throw new SynthConditionError(`column "${name}" held no values in the training data`);
    if (value < meta.min || value > meta.max)
      throw new SynthConditionError(`value ${String(raw)} of column "${name}" is outside its training range [${fmtValue(meta, meta.min)}, ${fmtValue(meta, meta.max)}]`);
    if (meta.integer && !Number.isInteger(value)) throw new SynthConditionError(`column "${name}" holds whole numbers only; ${value} cannot occur`);
    const tolerance = Math.max((meta.max - meta.min) * NUMERIC_TOLERANCE_SHARE, meta.integer ? 0.5 : 0);
    return { kind: 'numeric', column, name, value, tolerance };
  });
}

function findLevel(levels: string[], raw: string | number | boolean): number {
  const s = String(raw);
  const exact = levels.indexOf(s);
  if (exact >= 0) return exact;
  const lower = s.toLowerCase();
  const ci = levels.map((l, i) => (l.toLowerCase() === lower ? i : -1)).filter((i) => i >= 0);
  if (ci.length === 1) return ci[0];
  if (typeof raw === 'number') {
    const num = levels.map((l, i) => (l.trim() !== '' && Number(l) === raw ? i : -1)).filter((i) => i >= 0);
    if (num.length === 1) return num[0];
  }
  return -1;
}

function numericValue(meta: SynthColumnMeta, raw: string | number | boolean): number | null {
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : null;
  if (typeof raw === 'boolean') return meta.kind === 'numeric' ? (raw ? 1 : 0) : null;
  const t = raw.trim();
  if (t !== '' && Number.isFinite(Number(t))) return Number(t);
  if (meta.kind === 'datetime') {
    const ms = Date.parse(t);
    return Number.isFinite(ms) ? ms : null;
  }
  return null;
}

function fmtValue(meta: SynthColumnMeta, v: number): string {
  return meta.kind === 'datetime' ? new Date(v).toISOString() : String(v);
}
