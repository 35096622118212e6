/**
 * Reading real and synthetic frames side by side for the quality report and the privacy check: columns matched by
 * name, rows sampled to a bound, categories mapped to ids shared by both frames (their level lists may differ).
 */
import { Column, Frame, Rng } from '../../automl';
import { sampleRowIndices } from '../sampling';

/** A column of one side after sampling: numeric values (datetimes in epoch ms), or category labels and shared ids. */
export type SideColumn = { kind: 'numeric' | 'datetime'; values: Float64Array } | { kind: 'categorical'; labels: Array<string | null>; ids: Int32Array };

/** Finds each of `names` in `frame`, throwing a clear error for a missing or differently typed column. */
export function matchColumns(reference: Frame, other: Frame, what: string): Column[] {
  return reference.names.map((name, j) => {
    const k = other.names.indexOf(name);
    if (k < 0) throw new Error(`The ${what} data has no column "${name}"`);
    const a = reference.columns[j];
    const b = other.columns[k];
    const numericLike = (c: Column): boolean => c.kind !== 'categorical';
    if (numericLike(a) !== numericLike(b)) throw new Error(`Column "${name}" is ${a.kind} in the real data but ${b.kind} in the ${what} data`);
    return b;
  });
}

/** Rows drawn from a frame of `nrows` (all of them up to `max`), from a generator seeded by `seed`. */
export function sampleRows(nrows: number, max: number, seed: number): Uint32Array {
  return sampleRowIndices(nrows, max, new Rng(seed));
}

/**
 * The sampled rows of matching columns on several sides, categories as ids shared by all sides: 0 is missing and
 * labels get 1, 2, … in order of first appearance.
 */
export function prepareSides(sides: Array<{ columns: Column[]; rows: Uint32Array }>): SideColumn[][] {
  const ncol = sides[0].columns.length;
  const out: SideColumn[][] = sides.map(() => []);
  for (let j = 0; j < ncol; j++) {
    const dict = new Map<string, number>();
    sides.forEach((side, s) => {
      const c = side.columns[j];
      const rows = side.rows;
      if (c.kind === 'categorical') {
        const labels: Array<string | null> = new Array(rows.length);
        const ids = new Int32Array(rows.length);
        for (let i = 0; i < rows.length; i++) {
          const code = c.codes[rows[i]];
          if (code < 0) {
            labels[i] = null;
            ids[i] = 0;
            continue;
          }
          const label = c.levels[code];
          labels[i] = label;
          let id = dict.get(label);
          if (id === undefined) {
            id = dict.size + 1;
            dict.set(label, id);
          }
          ids[i] = id;
        }
        out[s].push({ kind: 'categorical', labels, ids });
        return;
      }
      const src = c.kind === 'numeric' ? c.values : c.epochMs;
      const values = new Float64Array(rows.length);
      for (let i = 0; i < rows.length; i++) values[i] = src[rows[i]];
      out[s].push({ kind: c.kind, values });
    });
  }
  return out;
}
