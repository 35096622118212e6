/** Test helper: the SDMetrics reference fixture (bench/reference/sdmetrics_reference.py) as frames. */
import { categoricalFromStrings, Column, Frame, makeFrame } from '../../automl';
import reference from './testdata/sdmetrics_reference.json';

export { reference };

type Cells = Array<string | number | null>;

/** One side of the fixture as a frame: SDMetrics' numerical → numeric, categorical/boolean → categorical, datetime → datetime. */
export function fixtureFrame(side: 'real' | 'synthetic'): Frame {
  const kinds = reference.kinds as Record<string, string>;
  const data = reference[side] as Record<string, Cells>;
  const names = Object.keys(kinds);
  const columns = names.map((name): Column => {
    const cells = data[name];
    const kind = kinds[name];
    if (kind === 'categorical' || kind === 'boolean') return categoricalFromStrings(cells.map((v) => (v === null ? null : String(v))));
    const values = Float64Array.from(cells.map((v) => (v === null ? NaN : Number(v))));
    return kind === 'datetime' ? { kind: 'datetime', epochMs: values } : { kind: 'numeric', values };
  });
  return makeFrame(names, columns);
}
