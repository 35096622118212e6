import { binFrame } from './binning';
import { syntheticData } from './testutil';
import { shapContributions } from './treeshap';
import { trainXGBoost } from './xgboost';

function leafCount(values: Int32Array): number {
  return Array.from(values).filter((f) => f < 0).length;
}

describe('XGBoost-style boosting', () => {
  it('uses XGBoost defaults', () => {
    const d = syntheticData(300, 'binary', 1);
    const m = trainXGBoost(d, { n_estimators: 2 });
    expect(m.params).toMatchObject({ max_depth: 6, eta: 0.3, lambda: 1, alpha: 0, gamma: 0, min_child_weight: 1, max_delta_step: 0, subsample: 1, objective: 'binary:logistic' });
    expect(m.algo).toBe('XGBoost');
  });

  it('a single stump has leaf weights -G / (H + lambda) * eta', () => {
    const d = syntheticData(400, 'regression', 2);
    const m = trainXGBoost(d, { n_estimators: 1, max_depth: 1, lambda: 3, eta: 0.5 });
    const t = m.trees[0][0];
    expect(t.feature.length).toBe(3);
    // Squared error: g = base - y, h = 1, so each leaf is eta * sum(y - base) / (n + lambda).
    const x = m.predictRaw(d.features);
    const base = m.baseScore[0];
    for (const leaf of [t.left[0], t.right[0]]) {
      let s = 0;
      let n = 0;
      x.forEach((v, i) => {
        if (Math.abs(v - (base + t.value[leaf])) < 1e-12) {
          s += d.target.y[i] - base;
          n++;
        }
      });
      expect(n).toBe(t.count[leaf]);
      expect(t.value[leaf]).toBeCloseTo((0.5 * s) / (n + 3), 6);
    }
  });

  it('lossguide grows to max_leaves; gamma and min_child_weight prune', () => {
    const d = syntheticData(1000, 'binary', 3);
    const lg = trainXGBoost(d, { n_estimators: 3, grow_policy: 'lossguide', max_depth: 0, max_leaves: 9 });
    for (const t of lg.trees[0]) expect(leafCount(t.feature)).toBeLessThanOrEqual(9);
    expect(leafCount(lg.trees[0][0].feature)).toBe(9);
    const plain = trainXGBoost(d, { n_estimators: 3 });
    const pruned = trainXGBoost(d, { n_estimators: 3, gamma: 5 });
    const heavy = trainXGBoost(d, { n_estimators: 3, min_child_weight: 20 });
    expect(leafCount(pruned.trees[0][0].feature)).toBeLessThan(leafCount(plain.trees[0][0].feature));
    expect(leafCount(heavy.trees[0][0].feature)).toBeLessThan(leafCount(plain.trees[0][0].feature));
    for (const t of heavy.trees[0]) for (let i = 0; i < t.feature.length; i++) if (t.feature[i] < 0) expect(t.cover[i]).toBeGreaterThanOrEqual(20);
  });

  it('multi:softprob, L1 and max_delta_step', () => {
    const d = syntheticData(600, 'multiclass', 4);
    const m = trainXGBoost(d, { n_estimators: 5, alpha: 2, max_delta_step: 0.5 });
    expect(m.baseScore).toEqual([0, 0, 0]);
    for (const ts of m.trees) for (const t of ts) for (const v of t.value) expect(Math.abs(v)).toBeLessThanOrEqual(0.5 * 0.3 + 1e-7);
    expect(m.scoringHistory[m.scoringHistory.length - 1].training.classification_error).toBeLessThan(0.35);
  });

  it('early stopping keeps the best iteration', () => {
    const d = syntheticData(500, 'binary', 5);
    const binned = binFrame(d.features);
    const rows = Uint32Array.from({ length: 350 }, (_, i) => i);
    const validRows = Uint32Array.from({ length: 150 }, (_, i) => 350 + i);
    const m = trainXGBoost({ ...d, binned, rows, validRows }, { n_estimators: 200, eta: 0.8, early_stopping_rounds: 5, eval_metric: 'logloss' });
    const best = m.info.best_iteration as number;
    expect(m.trees[0].length).toBe(best + 1);
    expect(m.scoringHistory.length).toBe(best + 6);
    const ll = m.scoringHistory.map((e) => e.validation?.logloss as number);
    expect(Math.min(...ll)).toBe(ll[best]);
  });

  it('early stopping counts rounds in trees and keeps the best scored count when scoring every few trees', () => {
    const d = syntheticData(500, 'binary', 5);
    const binned = binFrame(d.features);
    const rows = Uint32Array.from({ length: 350 }, (_, i) => i);
    const validRows = Uint32Array.from({ length: 150 }, (_, i) => 350 + i);
    const m = trainXGBoost({ ...d, binned, rows, validRows }, { n_estimators: 200, eta: 0.8, early_stopping_rounds: 10, score_tree_interval: 5, eval_metric: 'logloss' });
    const h = m.scoringHistory;
    const ll = h.map((e) => e.validation?.logloss as number);
    const bestEvent = ll.indexOf(Math.min(...ll));
    expect(m.trees[0].length).toBe(h[bestEvent].number_of_trees);
    expect(m.info.best_iteration).toBe(h[bestEvent].number_of_trees - 1);
    // Stopped 10 trees (two scoring events) after the best count.
    expect(h[h.length - 1].number_of_trees - h[bestEvent].number_of_trees).toBe(10);
  });

  it('count:poisson, reg:gamma, reg:tweedie and reg:absoluteerror train', () => {
    const d = syntheticData(400, 'regression', 6);
    const y = d.target.y.map((v) => Math.exp(v / 4));
    for (const objective of ['count:poisson', 'reg:gamma', 'reg:tweedie', 'reg:absoluteerror'] as const) {
      const m = trainXGBoost({ features: d.features, target: { ...d.target, y } }, { n_estimators: 10, objective, max_depth: 3 });
      const h = m.scoringHistory;
      expect(h[h.length - 1].training.deviance).toBeLessThan(
        trainXGBoost({ features: d.features, target: { ...d.target, y } }, { n_estimators: 1, objective, max_depth: 3 }).scoringHistory[0].training.deviance,
      );
    }
  });
});

// Output of bench/reference/xgboost_reference.py (real XGBoost, hist, 5 rounds, depth 3), pasted verbatim.
const XGB_REF = {
  xgboost: '3.2.0',
  binary_margin: [
    -1.959962, -1.959962, 1.646734, 1.975482, -1.770797, 0.696764, 0.337582, 1.646734, -1.959962, -1.770797, 1.646734, -1.959962, 1.646734, -1.959962, -0.403936, 1.382191, -1.959962, 1.975482,
    -1.959962, -0.403936, 1.975482, -1.770797, 0.672919, -1.653045, 0.510559, 1.975482, -1.770797, 0.672919, 1.975482, 1.646734, 1.424807, -1.959962, -0.116343, 1.875317, 1.646734, -1.959962,
    -1.770797, 1.646734, 1.419445, -1.959962,
  ],
  regression: [
    -2.535304, -1.104921, 1.008614, 2.767986, -1.104921, 1.35144, -0.329943, 1.660402, -2.535304, -1.104921, 1.049171, -2.535304, 1.457278, -2.368101, -0.329943, 1.587523, -2.535304, 2.035121,
    -2.136326, -0.021371, 2.368491, -2.368101, 0.031698, -2.131682, 0.556477, 2.245671, -1.997907, -0.021371, 2.509106, 1.13886, 2.564862, -1.104921, 0.137748, 2.448795, 0.836592, -2.535304,
    -1.104921, 1.35144, 3.038846, -1.104921,
  ],
  multiclass_probs: [
    0.817332, 0.093674, 0.088994, 0.621988, 0.264652, 0.11336, 0.126848, 0.347764, 0.525389, 0.098807, 0.107662, 0.793531, 0.437808, 0.438368, 0.123824, 0.141822, 0.279249, 0.578929, 0.329342,
    0.375306, 0.295352, 0.113706, 0.336408, 0.549886, 0.817332, 0.093674, 0.088994, 0.437808, 0.438368, 0.123824, 0.107893, 0.268378, 0.623729, 0.666393, 0.230604, 0.103003, 0.086702, 0.216978,
    0.696319, 0.769752, 0.138984, 0.091264, 0.362353, 0.356833, 0.280814, 0.087033, 0.235777, 0.67719, 0.817332, 0.093674, 0.088994, 0.105077, 0.16469, 0.730233, 0.769752, 0.138984, 0.091264,
    0.303174, 0.419098, 0.277729, 0.090582, 0.131668, 0.777749, 0.508545, 0.400826, 0.090629, 0.239199, 0.41092, 0.349881, 0.777596, 0.13021, 0.092194, 0.207026, 0.340393, 0.45258, 0.136279, 0.309351,
    0.554369, 0.669396, 0.21131, 0.119295, 0.240809, 0.385214, 0.373977, 0.105077, 0.16469, 0.730233, 0.126848, 0.347764, 0.525389, 0.1456, 0.262114, 0.592286, 0.608784, 0.280263, 0.110953, 0.432419,
    0.319739, 0.247841, 0.108784, 0.135218, 0.755998, 0.110655, 0.354213, 0.535132, 0.817332, 0.093674, 0.088994, 0.608784, 0.280263, 0.110953, 0.123738, 0.263611, 0.612651, 0.123463, 0.179513,
    0.697024, 0.499509, 0.375506, 0.124985,
  ],
  regression_contribs: [
    -2.559132, 0.004927, 0.010738, 0.061601, -0.053437, -1.082121, 0.047204, 0.010738, -0.027304, -0.053437, 1.079219, 0.017196, 0.02945, -0.063814, -0.053437, 2.710545, 0.021867, 0.0414, 0.047611,
    -0.053437, -1.009658, -0.036202, 0.010738, -0.016362, -0.053437, 1.12869, 0.138229, 0.02945, 0.108508, -0.053437, -0.281411, 0.021472, 0.010738, -0.027304, -0.053437, 1.63822, 0.076111, 0.02945,
    -0.029941, -0.053437, -2.529932, -0.024273, 0.010738, 0.061601, -0.053437, -1.009658, -0.036202, 0.010738, -0.016362, -0.053437,
  ],
  lossguide: [
    -2.548453, -1.155444, 0.721763, 2.330148, -1.155444, 1.536002, -0.044894, 1.423206, -2.548453, -1.155444, 1.536002, -2.548453, 1.53451, -2.324856, -0.3976, 1.840884, -2.548453, 2.197734,
    -2.324856, -0.439948, 2.575388, -2.324856, -0.044894, -1.911747, 0.524855, 2.197734, -1.911747, 0.349342, 2.575388, 0.721763, 2.441453, -1.155444, -0.187577, 2.575388, 0.721763, -2.548453,
    -1.155444, 1.536002, 2.819107, -1.155444,
  ],
  reg_alpha: [
    -2.538871, -1.334893, 0.954207, 2.144984, -1.105835, 1.433165, 0.154661, 1.449485, -2.380105, -1.105835, 0.930759, -2.164938, 1.535506, -2.380105, -0.364736, 2.084395, -2.538871, 2.120258,
    -2.194835, -0.471529, 2.353921, -2.538871, 0.319663, -2.11676, 0.72338, 2.120258, -2.11676, 0.482769, 2.77431, 0.954207, 2.231005, -1.334893, -0.386482, 2.353921, 0.697096, -2.380105, -1.334893,
    1.187871, 2.77431, -1.176127,
  ],
  reg_gamma: [
    -2.514565, -1.176876, 1.056416, 2.361781, -1.176876, 1.056416, -0.259931, 1.706337, -2.514565, -1.176876, 1.056416, -2.514565, 1.706337, -2.514565, -0.259931, 1.706337, -2.514565, 2.361781,
    -2.276421, -0.016106, 2.361781, -2.514565, -0.259931, -2.06519, 0.533239, 2.361781, -2.06519, -0.016106, 2.361781, 1.056416, 2.361781, -1.176876, 0.044104, 2.361781, 1.056416, -2.514565,
    -1.176876, 1.056416, 2.361781, -1.176876,
  ],
  reg_max_delta_step: [
    -0.45, -0.45, 0.45, 0.45, -0.45, 0.45, -0.205089, 0.45, -0.45, -0.45, 0.45, -0.45, 0.45, -0.45, -0.45, 0.45, -0.45, 0.45, -0.45, -0.27435, 0.45, -0.45, 0.09, -0.45, 0.392775, 0.45, -0.45, 0.45,
    0.45, 0.45, 0.45, -0.45, 0.09, 0.45, 0.45, -0.45, -0.45, 0.45, 0.45, -0.45,
  ],
  regression_missing: [
    -0.073577, -1.084799, 0.923114, 2.658098, -1.084799, 1.137723, -0.191272, 1.633676, -2.510733, -0.288186, 0.255722, -2.352818, 1.633676, -2.359166, -0.191272, 1.633676, -2.352818, 2.254215,
    -0.073577, -0.405881, 2.254215, -2.359166, 0.738641, -2.296723, 0.127533, 2.257976, -2.063204, 0.271566, 2.352307, 1.137723, 2.658098, -1.305581, -0.210955, 2.257976, 0.470331, -2.352818,
    -0.288186, 1.137723, 2.658098, -1.084799, -2.510733, -0.191272, 0.966284, -2.352818, -1.084799, -0.288186, -0.405881, 0.966284, -2.691738, 0.738641, 0.966284, -0.405881, 2.254215, -2.633771,
    0.856337, 2.545022, -2.201251, 2.450691, -2.138808, 0.127533, 2.741497, -1.785336, -0.191272, -0.288186, 0.867246, 2.658098, -1.305581, 0.624759, -1.084799, 1.137723, -2.510733, -1.084799,
    -0.073577, 2.282393, 1.633676, -2.843305, -0.412054, 1.633676, -2.510733, -0.806931,
  ],
};

describe('parity with XGBoost', () => {
  // The script's integer data: fewer distinct values than bins, so both sides split on the same cuts.
  const n = 400;
  const cols = [0, 1, 2, 3].map(() => new Float64Array(n));
  const y = new Float64Array(n);
  const yr = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < 4; j++) cols[j][i] = (i * (7 + 2 * j) + j * 13 + ((i * (j + 3)) % 17)) % 31;
    const s = cols[0][i] - 15 + 0.5 * (cols[1][i] - 15) * (cols[2][i] > 12 ? 1 : -1) + (((i * 37) % 11) - 5);
    y[i] = s > 0 ? 1 : 0;
    yr[i] = Math.fround(s / 4);
  }
  const features = { names: ['a', 'b', 'c', 'd'], columns: cols.map((values) => ({ kind: 'numeric' as const, values })), nrows: n };
  const common = { n_estimators: 5, max_depth: 3, eta: 0.3, lambda: 1, min_child_weight: 1 };

  it('binary:logistic margins match XGBoost', () => {
    const m = trainXGBoost({ features, target: { name: 'y', kind: 'binary', y, classes: ['0', '1'] } }, { ...common, base_score: 0.5 });
    const margins = m.predictRaw(features);
    XGB_REF.binary_margin.forEach((v: number, i: number) => expect(Math.abs(margins[i] - v)).toBeLessThan(1e-5));
  });

  it('multi:softprob probabilities match XGBoost', () => {
    const yk = yr.map((v) => (v < -1 ? 0 : v < 1 ? 1 : 2));
    const m = trainXGBoost({ features, target: { name: 'y', kind: 'multiclass', y: yk, classes: ['0', '1', '2'] } }, common);
    const probs = m.predict(features).probabilities as Float64Array;
    XGB_REF.multiclass_probs.forEach((v: number, i: number) => expect(Math.abs(probs[i] - v)).toBeLessThan(1e-5));
  });

  it('missing values take the same default directions as in XGBoost', () => {
    const withNaN = cols.map((c, j) => c.map((v, i) => ((j === 0 && i % 9 === 0) || (j === 1 && i % 7 === 3) ? NaN : v)));
    const f = { ...features, columns: withNaN.map((values) => ({ kind: 'numeric' as const, values })) };
    const m = trainXGBoost({ features: f, target: { name: 'y', kind: 'regression', y: yr, classes: [] } }, { ...common, base_score: 0 });
    const pred = m.predict(f).value as Float64Array;
    XGB_REF.regression_missing.forEach((v: number, i: number) => expect(Math.abs(pred[i] - v)).toBeLessThan(1e-5));
  });

  it('lossguide (best-first, max_leaves) matches XGBoost', () => {
    const m = trainXGBoost({ features, target: { name: 'y', kind: 'regression', y: yr, classes: [] } }, { ...common, base_score: 0, grow_policy: 'lossguide', max_leaves: 6, max_depth: 0 });
    const pred = m.predict(features).value as Float64Array;
    XGB_REF.lossguide.forEach((v: number, i: number) => expect(Math.abs(pred[i] - v)).toBeLessThan(1e-5));
  });

  it('TreeSHAP contributions match XGBoost pred_contribs', () => {
    const m = trainXGBoost({ features, target: { name: 'y', kind: 'regression', y: yr, classes: [] } }, { ...common, base_score: 0 });
    const c = shapContributions(m, features).contributions[0];
    XGB_REF.regression_contribs.forEach((v: number, i: number) => expect(Math.abs(c[i] - v)).toBeLessThan(1e-5));
  });

  it('alpha, gamma and max_delta_step match XGBoost', () => {
    const target = { name: 'y', kind: 'regression' as const, y: yr, classes: [] };
    const reg = { ...common, base_score: 0, max_depth: 4, lambda: 2, min_child_weight: 3 };
    const cases: [number[], object][] = [
      [XGB_REF.reg_alpha, { alpha: 5 }],
      [XGB_REF.reg_gamma, { gamma: 20 }],
      [XGB_REF.reg_max_delta_step, { max_delta_step: 0.3 }],
    ];
    for (const [ref, extra] of cases) {
      const pred = trainXGBoost({ features, target }, { ...reg, ...extra }).predict(features).value as Float64Array;
      ref.forEach((v, i) => expect(Math.abs(pred[i] - v)).toBeLessThan(1e-5));
    }
  });

  it('reg:squarederror predictions match XGBoost', () => {
    const m = trainXGBoost({ features, target: { name: 'y', kind: 'regression', y: yr, classes: [] } }, { ...common, base_score: 0 });
    const pred = m.predict(features).value as Float64Array;
    XGB_REF.regression.forEach((v: number, i: number) => expect(Math.abs(pred[i] - v)).toBeLessThan(1e-5));
  });
});
