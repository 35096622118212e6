/**
 * SDMetrics' single-column and column-pair metrics, computed as SDMetrics 0.32 computes them (reference values in
 * metrics.test.ts come from the Python package, bench/reference/sdmetrics_reference.py):
 *
 * - KSComplement: 1 − the two-sample Kolmogorov–Smirnov D of the present values (rounded to 14 decimals first).
 * - TVComplement: 1 − ½ Σ |synthetic share − real share| over the present categories; a category only the synthetic
 *   side has gets a real count of 1e-6 (SDMetrics' regularization).
 * - CorrelationSimilarity: 1 − |r_real − r_synthetic| / 2 with Pearson's r on the rows where both are present;
 *   undefined (NaN) when a column is constant on a side.
 * - ContingencySimilarity: 1 − ½ Σ |p_real − p_synthetic| over the joint categories, missing being a category.
 * - Discretization of a numeric column paired with a categorical one: ten equal-width bins on each side's own range
 *   (np.histogram_bin_edges), np.digitize, so that the maximum and missing values both fall in bin 11.
 * - Cramér's V (no continuity correction) of the real pair, for the association threshold.
 */

/** NumPy's rint: round half to even. */
function rint(y: number): number {
  if (!Number.isFinite(y) || Math.abs(y) >= 2 ** 52) return y;
  const f = Math.floor(y);
  const diff = y - f;
  if (diff < 0.5) return f;
  if (diff > 0.5) return f + 1;
  return f % 2 === 0 ? f : f + 1;
}

/** pandas' Series.round(14): the same multiply, rint, divide as NumPy. */
export function round14(x: number): number {
  return rint(x * 1e14) / 1e14;
}

/** KSComplement of two samples of present values (NaN when a side is empty). */
export function ksComplement(real: Float64Array, synthetic: Float64Array, round = true): number {
  const a = real.filter((v) => !Number.isNaN(v));
  const b = synthetic.filter((v) => !Number.isNaN(v));
  if (a.length === 0 || b.length === 0) return NaN;
  if (round) {
    for (let i = 0; i < a.length; i++) a[i] = round14(a[i]);
    for (let i = 0; i < b.length; i++) b[i] = round14(b[i]);
  }
  a.sort();
  b.sort();
  const n1 = a.length;
  const n2 = b.length;
  let i = 0;
  let j = 0;
  let d = 0;
  // The empirical CDFs are compared right after each distinct value (SciPy's searchsorted(side='right')).
  while (i < n1 || j < n2) {
    const x = j >= n2 || (i < n1 && a[i] <= b[j]) ? a[i] : b[j];
    while (i < n1 && a[i] === x) i++;
    while (j < n2 && b[j] === x) j++;
    const diff = Math.abs(i / n1 - j / n2);
    if (diff > d) d = diff;
  }
  return 1 - d;
}

/** TVComplement of two lists of category labels (null = missing, dropped). NaN when a side has no present value. */
export function tvComplement(real: ArrayLike<string | null>, synthetic: ArrayLike<string | null>): number {
  const rc = new Map<string, number>();
  const sc = new Map<string, number>();
  let nr = 0;
  let ns = 0;
  for (let i = 0; i < real.length; i++) {
    const v = real[i];
    if (v === null) continue;
    rc.set(v, (rc.get(v) ?? 0) + 1);
    nr++;
  }
  for (let i = 0; i < synthetic.length; i++) {
    const v = synthetic[i];
    if (v === null) continue;
    sc.set(v, (sc.get(v) ?? 0) + 1);
    ns++;
  }
  if (nr === 0 || ns === 0) return NaN;
  let realTotal = nr;
  for (const v of sc.keys()) {
    if (!rc.has(v)) {
      rc.set(v, 1e-6);
      realTotal += 1e-6;
    }
  }
  let tv = 0;
  for (const [v, c] of rc) tv += Math.abs((sc.get(v) ?? 0) / ns - c / realTotal);
  return 1 - 0.5 * tv;
}

/**
 * Pearson's r of paired values, on rows where both are present; NaN with fewer than `minRows` rows (SDMetrics: two)
 * or a constant side.
 */
export function pearson(x: Float64Array, y: Float64Array, minRows = 2): number {
  let n = 0;
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < x.length; i++) {
    if (Number.isNaN(x[i]) || Number.isNaN(y[i])) continue;
    n++;
    sx += x[i];
    sy += y[i];
  }
  if (n < minRows) return NaN;
  const mx = sx / n;
  const my = sy / n;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (let i = 0; i < x.length; i++) {
    if (Number.isNaN(x[i]) || Number.isNaN(y[i])) continue;
    const dx = x[i] - mx;
    const dy = y[i] - my;
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
  }
  if (!(sxx > 0) || !(syy > 0)) return NaN;
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx) / Math.sqrt(syy)));
}

/** Number of distinct present values (pandas' nunique). */
function distinctPresent(x: Float64Array): number {
  const s = new Set<number>();
  for (let i = 0; i < x.length && s.size < 2; i++) if (!Number.isNaN(x[i])) s.add(x[i]);
  return s.size;
}

/** CorrelationSimilarity with its real and synthetic correlations (score NaN where SDMetrics gives none). */
export function correlationSimilarity(real1: Float64Array, real2: Float64Array, syn1: Float64Array, syn2: Float64Array): { score: number; real: number; synthetic: number } {
  // SDMetrics refuses a column holding a single value on either side (ConstantInputError): no score at all.
  if ([real1, real2, syn1, syn2].some((c) => distinctPresent(c) === 1)) return { score: NaN, real: NaN, synthetic: NaN };
  const real = pearson(real1, real2);
  const synthetic = pearson(syn1, syn2);
  const score = Number.isNaN(real) || Number.isNaN(synthetic) ? NaN : 1 - Math.abs(real - synthetic) / 2;
  return { score, real, synthetic };
}

/**
 * Ten equal-width bins on the column's own present range, as np.histogram_bin_edges then np.digitize: bin 0 below
 * the first edge (never), 1..10 inside, 11 at the maximum and for missing values.
 */
export function discretize(x: Float64Array): Int32Array {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < x.length; i++) {
    const v = x[i];
    if (Number.isNaN(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (lo === Infinity) {
    lo = 0;
    hi = 1;
  } else if (lo === hi) {
    lo -= 0.5;
    hi += 0.5;
  }
  // np.linspace(lo, hi, 11): step = (hi − lo) / 10, edge k = k·step + lo, the last edge exactly hi.
  const step = (hi - lo) / 10;
  const edges = new Float64Array(11);
  for (let k = 0; k < 11; k++) edges[k] = k * step + lo;
  edges[10] = hi;
  const out = new Int32Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const v = x[i];
    if (Number.isNaN(v)) {
      out[i] = 11;
      continue;
    }
    // digitize (right=False): the number of edges ≤ v.
    let a = 0;
    let b = 11;
    while (a < b) {
      const m = (a + b) >>> 1;
      if (edges[m] <= v) a = m + 1;
      else b = m;
    }
    out[i] = a;
  }
  return out;
}

/** ContingencySimilarity of two columns given as integer keys per row (the caller maps missing to a key of its own). */
export function contingencySimilarity(real1: Int32Array, real2: Int32Array, syn1: Int32Array, syn2: Int32Array): number {
  const pr = jointShares(real1, real2);
  const ps = jointShares(syn1, syn2);
  let variation = 0;
  for (const [k, p] of pr) variation += Math.abs(p - (ps.get(k) ?? 0));
  for (const [k, p] of ps) if (!pr.has(k)) variation += p;
  return 1 - variation / 2;
}

function pairKey(a: number, b: number): number {
  // Keys are small non-negative integers (category ids + 1, bins 0..11); 2^21 each fits a double exactly.
  return a * 2_097_152 + b;
}

function jointShares(a: Int32Array, b: Int32Array): Map<number, number> {
  const counts = new Map<number, number>();
  for (let i = 0; i < a.length; i++) {
    const k = pairKey(a[i], b[i]);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const n = a.length;
  for (const [k, c] of counts) counts.set(k, c / n);
  return counts;
}

/**
 * Cramér's V of the real pair (SciPy's association(method='cramer'), no continuity correction): NaN when the table
 * has a single row or column.
 */
export function cramersV(a: Int32Array, b: Int32Array): number {
  const rows = new Map<number, number>();
  const cols = new Map<number, number>();
  const cells = new Map<number, number>();
  for (let i = 0; i < a.length; i++) {
    rows.set(a[i], (rows.get(a[i]) ?? 0) + 1);
    cols.set(b[i], (cols.get(b[i]) ?? 0) + 1);
    const k = pairKey(a[i], b[i]);
    cells.set(k, (cells.get(k) ?? 0) + 1);
  }
  const n = a.length;
  if (n === 0 || rows.size < 2 || cols.size < 2) return NaN;
  // Σ (o − e)² / e = n · Σ o² / (row · col) − n, summed over the observed cells only (wide tables stay cheap).
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const k = pairKey(a[i], b[i]);
    const o = cells.get(k) as number;
    if (o < 0) continue; // already counted
    sum += (o * o) / ((rows.get(a[i]) as number) * (cols.get(b[i]) as number));
    cells.set(k, -1);
  }
  const chi2 = Math.max(0, n * sum - n);
  return Math.sqrt(chi2 / n / Math.min(rows.size - 1, cols.size - 1));
}
