/** A small seeded mixed table for the neural models' tests (not a test file itself). */
import { categoricalFromStrings, Frame, makeFrame } from '../../automl';
import { NeuralRng } from './rng';

/**
 * n rows: `age` (bimodal, 20% missing), `count` (whole numbers 0-5), `when` (datetimes in 2020), `color` (3 levels
 * tied to age, 10% missing) and `flag` ('yes'/'no').
 */
export function mixedFrame(n = 400, seed = 1): Frame {
  const rng = new NeuralRng(seed);
  const age = new Float64Array(n);
  const count = new Float64Array(n);
  const when = new Float64Array(n);
  const color: Array<string | null> = [];
  const flag: string[] = [];
  const t0 = Date.UTC(2020, 0, 1);
  for (let i = 0; i < n; i++) {
    const young = rng.next() < 0.5;
    age[i] = rng.next() < 0.2 ? NaN : young ? 25 + 3 * rng.normal() : 60 + 5 * rng.normal();
    count[i] = Math.min(5, Math.floor(rng.next() * 6));
    when[i] = t0 + Math.floor(rng.next() * 365) * 86_400_000;
    color.push(rng.next() < 0.1 ? null : young ? (rng.next() < 0.8 ? 'red' : 'green') : rng.next() < 0.8 ? 'blue' : 'green');
    flag.push(rng.next() < 0.3 ? 'yes' : 'no');
  }
  return makeFrame(
    ['age', 'count', 'when', 'color', 'flag'],
    [{ kind: 'numeric', values: age }, { kind: 'numeric', values: count }, { kind: 'datetime', epochMs: when }, categoricalFromStrings(color), categoricalFromStrings(flag)],
  );
}

/** Share of missing cells of a frame column. */
export function missingShare(frame: Frame, name: string): number {
  const c = frame.columns[frame.names.indexOf(name)];
  let m = 0;
  const n = frame.nrows;
  for (let i = 0; i < n; i++) {
    if (c.kind === 'categorical' ? c.codes[i] < 0 : Number.isNaN(c.kind === 'numeric' ? c.values[i] : c.epochMs[i])) m++;
  }
  return n ? m / n : 0;
}

/** Concatenates the frames of an async generator into one (small outputs only). */
export async function collect(gen: AsyncGenerator<Frame>): Promise<Frame> {
  const parts: Frame[] = [];
  for await (const f of gen) parts.push(f);
  const first = parts[0];
  const columns = first.columns.map((c, j) => {
    if (c.kind === 'categorical') {
      const codes = Int32Array.from(parts.flatMap((p) => Array.from((p.columns[j] as typeof c).codes)));
      return { kind: 'categorical' as const, codes, levels: c.levels };
    }
    if (c.kind === 'numeric') return { kind: 'numeric' as const, values: Float64Array.from(parts.flatMap((p) => Array.from((p.columns[j] as typeof c).values))) };
    return { kind: 'datetime' as const, epochMs: Float64Array.from(parts.flatMap((p) => Array.from((p.columns[j] as typeof c).epochMs))) };
  });
  return makeFrame(first.names, columns);
}
