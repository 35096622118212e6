import { trainDRF } from '../drf';
import { Frame, RequestedKind, prepareFeatures, readCsvFrame } from '../frame';
import { binFrame } from '../binning';
import { trainGBM } from '../gbm';
import { TreeEnsembleModel } from '../model';
import { datasetPath, syntheticData } from '../testutil';
import { trainXGBoost } from '../xgboost';
import { exportOnnx } from './export';
import { onnxFeedData } from './feeds';
import { decodeModel } from './proto';
import { runOnnx } from './ort-runner';

/** Checks margins (relative 1e-5), probabilities (1e-5), labels and values against the TS scorer. */
async function expectSameAsOnnx(model: TreeEnsembleModel, frame: Frame): Promise<void> {
  const out = await runOnnx(exportOnnx(model), onnxFeedData(model, frame));
  const margins = model.predictRaw(frame);
  const onnxMargins = out.margin.data as number[];
  expect(onnxMargins.length).toBe(margins.length);
  let worst = 0;
  for (let i = 0; i < margins.length; i++) worst = Math.max(worst, Math.abs(margins[i] - onnxMargins[i]) / Math.max(1, Math.abs(margins[i])));
  expect(worst).toBeLessThan(1e-5);
  const pred = model.predict(frame);
  if (model.kind === 'regression') {
    const v = out.variable.data as number[];
    const ts = pred.value as Float64Array;
    for (let i = 0; i < ts.length; i++) expect(Math.abs(ts[i] - v[i]) / Math.max(1, Math.abs(ts[i]))).toBeLessThan(1e-5);
    return;
  }
  const probs = pred.probabilities as Float64Array;
  const onnxProbs = out.probabilities.data as number[];
  const K = model.classes.length;
  for (let i = 0; i < probs.length; i++) expect(Math.abs(probs[i] - onnxProbs[i])).toBeLessThan(1e-5);
  const labels = out.label.data as string[];
  const ts = pred.label as string[];
  for (let i = 0; i < ts.length; i++) {
    if (labels[i] === ts[i]) continue;
    // Only a near tie between the two top classes may break differently in float32.
    const a = probs[i * K + model.classes.indexOf(ts[i])];
    const b = probs[i * K + model.classes.indexOf(labels[i])];
    expect(Math.abs(a - b)).toBeLessThan(1e-5);
  }
}

interface Case {
  file: string;
  target: string;
  kind: RequestedKind;
  limit?: number;
}

const CASES: Case[] = [
  { file: 'titanic.csv', target: 'survived', kind: 'auto' },
  { file: 'penguins.csv', target: 'species', kind: 'auto' },
  { file: 'diamonds.csv', target: 'price', kind: 'regression', limit: 4000 },
  { file: 'pima-indians-diabetes.csv', target: 'C9', kind: 'binary' },
  { file: 'banknote_authentication.csv', target: 'C5', kind: 'binary' },
  { file: 'winequality-red.csv', target: 'C12', kind: 'multiclass' },
  { file: 'german.csv', target: 'C21', kind: 'binary' },
  { file: 'mpg.csv', target: 'mpg', kind: 'regression' },
  { file: 'taxis.csv', target: 'total', kind: 'regression' },
];

describe('ONNX export agrees with the TypeScript scorer on every data set', () => {
  for (const c of CASES) {
    it(`${c.file} (${c.target})`, async () => {
      const frame = await readCsvFrame(datasetPath(c.file), { limit: c.limit });
      const prep = prepareFeatures(frame, { target: c.target, kind: c.kind });
      const data = { features: prep.features, target: prep.target, binned: binFrame(prep.features) };
      // Score the raw frame (target and dropped columns included, datetimes unexpanded) as a user would.
      await expectSameAsOnnx(trainGBM(data, { ntrees: 8, max_depth: 4 }), frame);
      await expectSameAsOnnx(trainXGBoost(data, { n_estimators: 8, max_depth: 4 }), frame);
      await expectSameAsOnnx(trainDRF(data, { ntrees: 4, max_depth: 8 }), frame);
    });
  }
});

describe('ONNX graph details', () => {
  it('category-set splits become BRANCH_EQ chains and missing values follow the default direction', async () => {
    const data = syntheticData(400, 'regression', 11);
    const model = trainXGBoost(data, { n_estimators: 6, max_depth: 4 });
    const bytes = exportOnnx(model);
    const decoded = decodeModel(bytes);
    const trees = decoded.graph.node.find((n) => n.opType === 'TreeEnsembleRegressor');
    const modes = (trees?.attribute.find((a) => a.name === 'nodes_modes')?.strings ?? []).map((s) => Buffer.from(s).toString());
    expect(modes).toContain('BRANCH_EQ');
    expect(modes).toContain('BRANCH_LEQ');
    expect(decoded.opsetImport).toEqual(expect.arrayContaining([expect.objectContaining({ domain: 'ai.onnx.ml', version: 3 })]));
    // Rows with missing numerics / categories and an unseen level.
    const rows = [
      { x0: null, x1: null, x2: null, x3: null, c: null },
      { x0: 1.5, x1: null, x2: -2, x3: 0, c: 'zzz' },
      { x0: null, x1: 3, x2: null, x3: 4.25, c: 'a' },
    ];
    const frame = {
      names: ['x0', 'x1', 'x2', 'x3', 'c'],
      columns: [
        { kind: 'numeric' as const, values: Float64Array.from([NaN, 1.5, NaN]) },
        { kind: 'numeric' as const, values: Float64Array.from([NaN, NaN, 3]) },
        { kind: 'numeric' as const, values: Float64Array.from([NaN, -2, NaN]) },
        { kind: 'numeric' as const, values: Float64Array.from([NaN, 0, 4.25]) },
        { kind: 'categorical' as const, codes: Int32Array.from([-1, 0, 1]), levels: ['zzz', 'a'] },
      ],
      nrows: 3,
    };
    expect(Array.from(model.predictRaw(frame))).toEqual(Array.from(model.predictRaw(rows)));
    await expectSameAsOnnx(model, frame);
  });

  it('features named like graph outputs get their own input names', async () => {
    const data = syntheticData(300, 'binary', 12);
    const features = { ...data.features, names: ['label', 'margin', 'probabilities', '__X', 'c'] };
    const model = trainGBM({ features, target: data.target }, { ntrees: 3 });
    await expectSameAsOnnx(model, features);
  });
});
