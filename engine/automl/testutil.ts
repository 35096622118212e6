/** Helpers shared by the tests of this folder (not used by library code). */
import { Column, Frame, Target, categoricalFromStrings, makeFrame } from './frame';
import { Rng } from './random';

/** Path of a data set of /work/shared/datasets (override the folder with AUTOML_DATASETS). */
export function datasetPath(file: string): string {
  return `${process.env.AUTOML_DATASETS ?? '/work/shared/datasets'}/${file}`;
}

/**
 * A small synthetic frame: numeric x0..x(nNum-1) (some missing), one categorical 'c' with
 * levels a..e (some missing), and a target whose kind is chosen by the caller.
 */
export function syntheticData(n: number, kind: Target['kind'], seed = 1, nNum = 4): { features: Frame; target: Target } {
  const rng = new Rng(seed);
  const cols: Column[] = [];
  const names: string[] = [];
  const xs: Float64Array[] = [];
  for (let j = 0; j < nNum; j++) {
    const v = new Float64Array(n);
    for (let i = 0; i < n; i++) v[i] = rng.next() < 0.05 ? NaN : Math.round((rng.next() * 10 - 5) * 100) / 100;
    xs.push(v);
    cols.push({ kind: 'numeric', values: v });
    names.push(`x${j}`);
  }
  const levels = ['a', 'b', 'c', 'd', 'e'];
  const cs = Array.from({ length: n }, () => (rng.next() < 0.05 ? null : levels[rng.int(5)]));
  cols.push(categoricalFromStrings(cs));
  names.push('c');
  const catEffect: Record<string, number> = { a: 2, b: -1, c: 0.5, d: -2, e: 1 };
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const x0 = Number.isNaN(xs[0][i]) ? 0 : xs[0][i];
    const x1 = Number.isNaN(xs[1][i]) ? 1 : xs[1][i];
    const score = x0 + 0.5 * x1 * (x1 > 0 ? 1 : -0.5) + (cs[i] ? catEffect[cs[i] as string] : 0) + rng.next() * 2 - 1;
    if (kind === 'regression') y[i] = score;
    else if (kind === 'binary') y[i] = score > 0 ? 1 : 0;
    else y[i] = score < -1.5 ? 0 : score < 1.5 ? 1 : 2;
  }
  const classes = kind === 'regression' ? [] : kind === 'binary' ? ['no', 'yes'] : ['low', 'mid', 'high'];
  return { features: makeFrame(names, cols), target: { name: 'y', kind, y, classes } };
}
