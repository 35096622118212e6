import { trainDRF } from './drf';
import { trainGBM } from './gbm';
import { TreeEnsembleModel, toFeatureMatrix } from './model';
import { syntheticData } from './testutil';
import { Tree, nextNode } from './trees';
import { expectedValue, shapFromMatrix, shapRecords } from './treeshap';
import { trainXGBoost } from './xgboost';

/** E[f(x) | x_S] by cover-weighted traversal over the features outside S. */
function conditionalExpectation(t: Tree, x: Float64Array, inS: (f: number) => boolean, node = 0): number {
  const f = t.feature[node];
  if (f < 0) return t.value[node];
  if (inS(f)) return conditionalExpectation(t, x, inS, nextNode(t, node, x[f]));
  const l = t.left[node];
  const r = t.right[node];
  return (t.cover[l] * conditionalExpectation(t, x, inS, l) + t.cover[r] * conditionalExpectation(t, x, inS, r)) / (t.cover[l] + t.cover[r]);
}

/** Shapley values by enumerating all 2^M coalitions. */
function bruteForceShap(trees: Tree[], x: Float64Array, M: number, scale: number): Float64Array {
  const fact = [1];
  for (let i = 1; i <= M; i++) fact.push(fact[i - 1] * i);
  const value = (mask: number): number => trees.reduce((s, t) => s + scale * conditionalExpectation(t, x, (f) => ((mask >> f) & 1) === 1), 0);
  const phi = new Float64Array(M);
  for (let mask = 0; mask < 1 << M; mask++) {
    let size = 0;
    for (let f = 0; f < M; f++) size += (mask >> f) & 1;
    const v = value(mask);
    for (let i = 0; i < M; i++) {
      if ((mask >> i) & 1) continue;
      const w = (fact[size] * fact[M - size - 1]) / fact[M];
      phi[i] += w * (value(mask | (1 << i)) - v);
    }
  }
  return phi;
}

function checkModel(model: TreeEnsembleModel, data: ReturnType<typeof syntheticData>, rows: number): void {
  const x = toFeatureMatrix(model.features, data.features);
  const margins = model.marginsFromMatrix(x);
  const shap = shapFromMatrix(model, x);
  const F = model.features.length;
  const K = model.nOutputs;
  for (let k = 0; k < K; k++) {
    const c = shap.contributions[k];
    for (let i = 0; i < data.features.nrows; i++) {
      let s = 0;
      for (let j = 0; j <= F; j++) s += c[i * (F + 1) + j];
      expect(Math.abs(s - margins[i * K + k])).toBeLessThan(1e-9);
    }
    const ts = model.trees[k];
    const scale = model.aggregation === 'average' ? 1 / ts.length : 1;
    for (let i = 0; i < rows; i++) {
      const row = Float64Array.from(x, (col) => col[i]);
      const phi = bruteForceShap(ts, row, F, scale);
      for (let j = 0; j < F; j++) expect(Math.abs(phi[j] - c[i * (F + 1) + j])).toBeLessThan(1e-9);
    }
  }
}

describe('TreeSHAP', () => {
  it('GBM regression: sums to the margin and equals brute-force Shapley values', () => {
    const data = syntheticData(300, 'regression', 3);
    checkModel(trainGBM(data, { ntrees: 5, max_depth: 4, min_rows: 5 }), data, 25);
  });
  it('XGBoost binary with deep trees and repeated features', () => {
    const data = syntheticData(300, 'binary', 4);
    checkModel(trainXGBoost(data, { n_estimators: 4, max_depth: 6 }), data, 20);
  });
  it('XGBoost multiclass, per class', () => {
    const data = syntheticData(240, 'multiclass', 5);
    checkModel(trainXGBoost(data, { n_estimators: 3, max_depth: 3 }), data, 10);
  });
  it('DRF averages the trees', () => {
    const data = syntheticData(200, 'binary', 6);
    checkModel(trainDRF(data, { ntrees: 4, max_depth: 5 }), data, 10);
  });
  it('records end with BiasTerm equal to the expected margin', () => {
    const data = syntheticData(100, 'regression', 7);
    const model = trainGBM(data, { ntrees: 3, max_depth: 3 });
    const recs = shapRecords(model, data.features);
    expect(recs).toHaveLength(100);
    expect(recs[0].map((r) => r.feature)).toEqual([...model.featureNames, 'BiasTerm']);
    const bias = model.baseScore[0] + model.trees[0].reduce((s, t) => s + expectedValue(t), 0);
    expect(recs[0][recs[0].length - 1].value).toBeCloseTo(bias, 12);
  });
});
