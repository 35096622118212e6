import type { Column, Frame } from '../../engine/automl';
import type { JsonMap } from '../../entities';

/** Bins per numeric column and levels per categorical column in the stored distributions. */
const DISTRIBUTION_BINS = 10;
const DISTRIBUTION_LEVELS = 10;
/** Columns whose distributions are kept with a job (the first ones, in table order). */
export const MAX_DISTRIBUTION_COLUMNS = 30;

/**
 * Real against synthetic shares per column, for the report's charts: numeric and datetime columns over ten equal bins
 * of the real range, categoricals over the real data's ten most frequent levels plus `(other)`; missing cells are
 * left out of the shares and counted apart.
 */
export function distributions(real: Frame, synthetic: Frame): JsonMap[] {
  const out: JsonMap[] = [];
  for (let j = 0; j < real.names.length && out.length < MAX_DISTRIBUTION_COLUMNS; j++) {
    const name = real.names[j];
    const r = real.columns[j];
    const s = synthetic.columns[synthetic.names.indexOf(name)];
    if (!s || s.kind !== r.kind) continue;
    if (r.kind === 'categorical' && s.kind === 'categorical') out.push({ column: name, kind: 'categorical', ...categoricalShares(r, s) });
    else if (r.kind !== 'categorical' && s.kind !== 'categorical') out.push({ column: name, kind: r.kind, ...numericShares(valuesOf(r), valuesOf(s)) });
  }
  return out;
}

function valuesOf(c: Exclude<Column, { kind: 'categorical' }>): Float64Array {
  return c.kind === 'numeric' ? c.values : c.epochMs;
}

function numericShares(real: Float64Array, synthetic: Float64Array) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of real) {
    if (Number.isNaN(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (lo > hi) return { labels: [], real: [], synthetic: [], missing: { real: share(real), synthetic: share(synthetic) } };
  const width = hi > lo ? (hi - lo) / DISTRIBUTION_BINS : 1;
  const bins = hi > lo ? DISTRIBUTION_BINS : 1;
  const count = (values: Float64Array) => {
    const n = new Array<number>(bins).fill(0);
    let present = 0;
    for (const v of values) {
      if (Number.isNaN(v)) continue;
      present++;
      n[Math.min(bins - 1, Math.max(0, Math.floor((v - lo) / width)))]++;
    }
    return n.map((k) => (present ? k / present : 0));
  };
  const labels = Array.from({ length: bins }, (_, b) => lo + b * width);
  return { labels, bin_width: width, real: count(real), synthetic: count(synthetic), missing: { real: share(real), synthetic: share(synthetic) } };
}

function share(values: Float64Array): number {
  let missing = 0;
  for (const v of values) if (Number.isNaN(v)) missing++;
  return values.length ? missing / values.length : 0;
}

function categoricalShares(real: Extract<Column, { kind: 'categorical' }>, synthetic: Extract<Column, { kind: 'categorical' }>) {
  const counts = (c: Extract<Column, { kind: 'categorical' }>) => {
    const m = new Map<string, number>();
    let present = 0;
    for (const code of c.codes) {
      if (code < 0) continue;
      present++;
      const level = c.levels[code];
      m.set(level, (m.get(level) ?? 0) + 1);
    }
    return { m, present, missing: c.codes.length ? (c.codes.length - present) / c.codes.length : 0 };
  };
  const r = counts(real);
  const s = counts(synthetic);
  const top = [...r.m.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, DISTRIBUTION_LEVELS)
    .map(([l]) => l);
  const sharesOf = (x: typeof r) => {
    const shares = top.map((l) => (x.present ? (x.m.get(l) ?? 0) / x.present : 0));
    const other = x.present ? 1 - shares.reduce((a, b) => a + b, 0) : 0;
    return [...shares, Math.max(0, other)];
  };
  return { labels: [...top, '(other)'], real: sharesOf(r), synthetic: sharesOf(s), missing: { real: r.missing, synthetic: s.missing } };
}
