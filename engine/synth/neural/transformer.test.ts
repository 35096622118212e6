import { categoricalFromStrings, makeFrame } from '../../automl';
import { NeuralRng } from './rng';
import { mixedFrame } from './testutil';
import { decodeRows, encodeFrame, fitTransformer, MAX_ONE_HOT_LEVELS } from './transformer';

describe('data transformer', () => {
  it('round-trips a mixed table: numbers, whole numbers, datetimes, categories and missing cells', () => {
    const frame = mixedFrame(300, 5);
    const state = fitTransformer(frame, 1);
    const { layout } = state;
    expect(layout.nScalar).toBe(3);
    // Spans are contiguous after the scalars, grouped by width.
    let at = layout.nScalar;
    for (const g of layout.groups) {
      expect(g.offset).toBe(at);
      for (let s = g.firstSpan; s < g.firstSpan + g.count; s++) expect(layout.spans[s].width).toBe(g.width);
      at += g.count * g.width;
    }
    expect(at).toBe(layout.dim);
    // The conditional vector covers the categorical columns: color (3 levels + missing) and flag (2).
    expect(layout.condDim).toBe(6);

    const data = encodeFrame(state, frame, new NeuralRng(2));
    for (let i = 0; i < frame.nrows; i++) {
      for (const s of layout.spans) {
        let hot = 0;
        for (let k = 0; k < s.width; k++) hot += data[i * layout.dim + s.offset + k];
        expect(hot).toBe(1);
      }
    }
    const back = decodeRows(state, data, frame.nrows, new NeuralRng(3));
    frame.columns.forEach((c, j) => {
      const d = back[j];
      if (c.kind === 'categorical') {
        expect(d.kind).toBe('categorical');
        if (d.kind === 'categorical') c.codes.forEach((code, i) => expect(code < 0 ? null : d.levels[d.codes[i]]).toBe(code < 0 ? null : c.levels[code]));
        return;
      }
      const values = c.kind === 'numeric' ? c.values : c.epochMs;
      expect(d.kind).toBe('numeric');
      if (d.kind !== 'numeric') return;
      values.forEach((v, i) => {
        if (Number.isNaN(v)) expect(d.values[i]).toBeNaN();
        else expect(Math.abs(d.values[i] - v)).toBeLessThan(1e-5 * Math.max(1, Math.abs(v)));
      });
    });
  });

  it('drops negligible modes and keeps encoding deterministic for a seed', () => {
    const frame = mixedFrame(300, 6);
    const a = fitTransformer(frame, 9);
    expect(fitTransformer(frame, 9)).toEqual(a);
    const age = a.encodings[0];
    expect(age.kind).toBe('numeric');
    if (age.kind === 'numeric') {
      expect(age.kept.length).toBeGreaterThanOrEqual(2);
      expect(age.kept.length).toBeLessThanOrEqual(10);
      age.kept.forEach((k) => expect(age.mixture.weights[k]).toBeGreaterThan(0.005));
      expect(age.hasMissing).toBe(true);
    }
    expect(encodeFrame(a, frame, new NeuralRng(4))).toEqual(encodeFrame(a, frame, new NeuralRng(4)));
  });

  it('puts the rarest levels of a very wide categorical column into one "other" slot', () => {
    const n = 2000;
    const values = Array.from({ length: n }, (_, i) => (i < 1000 ? `common${i % 10}` : `rare${i}`));
    const frame = makeFrame(['id'], [categoricalFromStrings(values)]);
    const state = fitTransformer(frame, 1);
    const enc = state.encodings[0];
    expect(enc.kind).toBe('categorical');
    if (enc.kind !== 'categorical') return;
    expect(enc.slots.length).toBe(MAX_ONE_HOT_LEVELS);
    expect(enc.slots).toContain(-2);
    const data = encodeFrame(state, frame, new NeuralRng(1));
    const back = decodeRows(state, data, n, new NeuralRng(2));
    const d = back[0];
    if (d.kind !== 'categorical') throw new Error('expected categorical');
    // Common levels come back exactly; "other" rows come back as some rare level.
    for (let i = 0; i < 1000; i++) expect(d.levels[d.codes[i]]).toBe(values[i]);
    for (let i = 1000; i < n; i++) expect(d.levels[d.codes[i]].startsWith('rare')).toBe(true);
  });
});
