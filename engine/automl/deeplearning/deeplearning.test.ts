import { loadDataset } from '../glm/testdata';
import { designFeeds } from '../encoding/feeds';
import { runOnnx } from '../onnx/ort-runner';
import { initDeepLearningBackend, trainDeepLearning } from './train';
import { DeepLearningModel } from './model';
import { exportDeepLearningOnnx } from './onnx';

describe('DeepLearning', () => {
  let backend = '';
  beforeAll(async () => {
    backend = await initDeepLearningBackend();
  });

  it('learns a separable problem, is deterministic for a seed and matches its ONNX export', async () => {
    const { frame, data } = await loadDataset('banknote_authentication.csv', 'C5', 'binary');
    const n = data.target.y.length;
    const rows = Uint32Array.from({ length: n }, (_, i) => i).filter((i) => i % 5 !== 0);
    const validRows = Uint32Array.from({ length: n }, (_, i) => i).filter((i) => i % 5 === 0);
    const params = { hidden: [16, 16], epochs: 20, seed: 7 };
    const m = trainDeepLearning({ ...data, rows, validRows }, params);
    expect(['wasm', 'cpu']).toContain(backend);
    const pred = m.predict(frame);
    let correct = 0;
    validRows.forEach((r) => (correct += pred.label![r] === data.target.classes[data.target.y[r]] ? 1 : 0));
    expect(correct / validRows.length).toBeGreaterThan(0.95);
    const again = trainDeepLearning({ ...data, rows, validRows }, params);
    expect(again.json.layers).toEqual(m.json.layers);

    const out = await runOnnx(exportDeepLearningOnnx(m), designFeeds(m.features, frame));
    const margins = m.predictRaw(frame);
    (out.margin.data as number[]).forEach((v, i) => expect(Math.abs(v - margins[i]) / Math.max(1, Math.abs(margins[i]))).toBeLessThan(1e-5));
    (out.probabilities.data as number[]).forEach((v, i) => expect(Math.abs(v - pred.probabilities![i])).toBeLessThan(1e-5));

    const c = m.contributions(frame, 0);
    c.slice(0, 20).forEach((rec, i) => expect(rec.reduce((s, r) => s + r.value, 0)).toBeCloseTo(margins[i], 9));
    // Integrated gradients are near-complete: the quadrature gap stays small next to the margin.
    const restored = DeepLearningModel.fromJSON(JSON.parse(JSON.stringify(m.toJSON())));
    expect(Array.from(restored.predictRaw(frame).slice(0, 10))).toEqual(Array.from(margins.slice(0, 10)));
  }, 60_000);

  it.each([
    ['penguins.csv', 'species', 'multiclass', 'Tanh'],
    ['mpg.csv', 'mpg', 'regression', 'RectifierWithDropout'],
  ] as const)(
    '%s: ONNX parity (%s, %s)',
    async (file, target, kind, activation) => {
      const { frame, data } = await loadDataset(file, target, kind);
      const m = trainDeepLearning(data, { hidden: [8, 8], epochs: 5, activation, seed: 3 });
      const out = await runOnnx(exportDeepLearningOnnx(m), designFeeds(m.features, frame));
      const margins = m.predictRaw(frame);
      (out.margin.data as number[]).forEach((v, i) => expect(Math.abs(v - margins[i]) / Math.max(1, Math.abs(margins[i]))).toBeLessThan(1e-5));
      if (kind === 'regression') {
        const pv = m.predict(frame).value!;
        (out.variable.data as number[]).forEach((v, i) => expect(Math.abs(v - pv[i]) / Math.max(1, Math.abs(pv[i]))).toBeLessThan(1e-5));
      } else {
        expect(out.label.data).toEqual(m.predict(frame).label);
      }
    },
    60_000,
  );
});
