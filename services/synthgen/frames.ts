import type { Frame } from '../../engine/automl';
import type { ColumnSchema } from '../../entities';
import type { SynthColumnMeta, SynthConditions } from '../../engine/synth';
import { ValidationError } from '../errors';

/**
 * What the service keeps of a trained model's columns: the engine's description (kind, whole numbers, range, missing
 * share) plus the stored dtype, and a categorical column's levels (at most {@link MAX_LEVELS_KEPT}), so generation
 * conditions are checked when they are asked for rather than failing the job later.
 */
export interface ModelColumn extends SynthColumnMeta {
  dtype: string;
  levels?: string[];
}

/** Levels kept per categorical column for checking conditions; a column with more is checked by the engine only. */
export const MAX_LEVELS_KEPT = 1000;

/** The model's column summary from the engine's description, the training frame and the version's dtypes. */
export function modelColumns(meta: SynthColumnMeta[], frame: Frame, schema: ColumnSchema[]): ModelColumn[] {
  return meta.map((m) => {
    const j = frame.names.indexOf(m.name);
    const c = j >= 0 ? frame.columns[j] : undefined;
    const dtype = schema.find((s) => s.name === m.name)?.dtype ?? (m.kind === 'numeric' ? 'float64' : m.kind === 'datetime' ? 'datetime64' : 'object');
    return c?.kind === 'categorical' && c.levels.length <= MAX_LEVELS_KEPT ? { ...m, dtype, levels: c.levels.slice() } : { ...m, dtype };
  });
}

/**
 * Checks generation conditions against the model's columns and puts them in the engine's terms: a categorical
 * value as its level text (`true` for a boolean column), a number within the column's range (whole for a whole-number
 * column), a datetime as epoch milliseconds from an ISO 8601 text. 422 naming the condition otherwise.
 */
export function engineConditions(columns: ModelColumn[], conditions: Record<string, unknown>): SynthConditions {
  const out: SynthConditions = {};
  for (const [name, value] of Object.entries(conditions)) {
    const loc = ['body', 'conditions', name];
    const col = columns.find((c) => c.name === name);
    if (!col) throw ValidationError.field(loc, `Unknown column "${name}": conditions name columns of the model's training data`);
    if (value === null || typeof value === 'object') throw ValidationError.field(loc, 'A condition is one value: a string, number or boolean');
    if (col.kind === 'categorical') {
      const level = String(value);
      if (col.levels && !col.levels.includes(level)) throw ValidationError.field(loc, `"${level}" never occurs in column "${name}" of the training data`);
      out[name] = level;
    } else if (col.kind === 'numeric') {
      if (typeof value !== 'number' || !Number.isFinite(value)) throw ValidationError.field(loc, `Column "${name}" is numeric: the condition must be a number`);
      if (col.min !== null && col.max !== null && (value < col.min || value > col.max)) {
        throw ValidationError.field(loc, `${value} is outside the training range of "${name}" (${col.min} to ${col.max})`);
      }
      if (col.integer && !Number.isInteger(value)) throw ValidationError.field(loc, `Column "${name}" holds whole numbers: the condition must be one`);
      out[name] = value;
    } else {
      const ms = typeof value === 'string' ? Date.parse(value) : NaN;
      if (!Number.isFinite(ms)) throw ValidationError.field(loc, `Column "${name}" holds datetimes: the condition must be an ISO 8601 text`);
      if (col.min !== null && col.max !== null && (ms < col.min || ms > col.max)) throw ValidationError.field(loc, `${value} is outside the training range of "${name}"`);
      out[name] = ms;
    }
  }
  return out;
}
