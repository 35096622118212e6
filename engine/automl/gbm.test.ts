import { binFrame } from './binning';
import { DistributionName } from './distributions';
import { makeFrame } from './frame';
import { GBM_DEFAULTS, trainGBM } from './gbm';
import { Rng } from './random';
import { syntheticData } from './testutil';
import { scoreTreeInterval } from './training';

describe('GBM', () => {
  it('uses H2O defaults', () => {
    expect(GBM_DEFAULTS).toMatchObject({
      ntrees: 50,
      max_depth: 5,
      learn_rate: 0.1,
      sample_rate: 1,
      col_sample_rate: 1,
      col_sample_rate_per_tree: 1,
      min_rows: 10,
      tweedie_power: 1.5,
      quantile_alpha: 0.5,
    });
    const d = syntheticData(300, 'binary', 1);
    const m = trainGBM(d, { ntrees: 3 });
    expect(m.params).toMatchObject({ distribution: 'bernoulli', max_depth: 5, min_rows: 10 });
  });

  it('binary: scoring history per tree, training and validation metrics improve', () => {
    const d = syntheticData(1500, 'binary', 2);
    const binned = binFrame(d.features);
    const rows = Uint32Array.from({ length: 1000 }, (_, i) => i);
    const validRows = Uint32Array.from({ length: 500 }, (_, i) => 1000 + i);
    const m = trainGBM({ ...d, binned, rows, validRows }, { ntrees: 20 });
    expect(m.scoringHistory).toHaveLength(20);
    const first = m.scoringHistory[0];
    const last = m.scoringHistory[19];
    expect(last.training.logloss).toBeLessThan(first.training.logloss);
    expect(last.validation?.logloss).toBeLessThan(first.validation?.logloss as number);
    expect(last.validation?.auc).toBeGreaterThan(0.85);
    expect(m.trees[0]).toHaveLength(20);
  });

  it('scores every score_tree_interval trees; auto scores large frames every ceil(rows / 100k) trees', () => {
    expect(scoreTreeInterval(0, 1500)).toBe(1);
    expect(scoreTreeInterval(0, 100_000)).toBe(1);
    expect(scoreTreeInterval(0, 800_000)).toBe(8);
    expect(scoreTreeInterval(5, 800_000)).toBe(5);
    const d = syntheticData(600, 'binary', 5);
    const m = trainGBM(d, { ntrees: 7, score_tree_interval: 3, stopping_rounds: 2, stopping_tolerance: 0 });
    // Early stopping counts scoring events, as in H2O; the last tree is always scored.
    expect(m.scoringHistory.map((e) => e.number_of_trees)).toEqual([3, 6, 7]);
  });

  it('a separate validation frame gives the same metrics as validation rows', () => {
    const d = syntheticData(800, 'regression', 3);
    const binned = binFrame(d.features);
    const rows = Uint32Array.from({ length: 600 }, (_, i) => i);
    const validRows = Uint32Array.from({ length: 200 }, (_, i) => 600 + i);
    const a = trainGBM({ ...d, binned, rows, validRows }, { ntrees: 5 });
    const vf = {
      names: d.features.names,
      columns: d.features.columns.map((c) => (c.kind === 'numeric' ? { kind: 'numeric' as const, values: c.values.slice(600) } : c.kind === 'categorical' ? { ...c, codes: c.codes.slice(600) } : c)),
      nrows: 200,
    };
    const b = trainGBM({ ...d, binned, rows, validation: { features: vf, target: { ...d.target, y: d.target.y.slice(600) } } }, { ntrees: 5 });
    expect(b.scoringHistory[4].validation?.rmse).toBeCloseTo(a.scoringHistory[4].validation?.rmse as number, 12);
  });

  it('multinomial: one tree per class per iteration, probabilities sum to one', () => {
    const d = syntheticData(900, 'multiclass', 4);
    const m = trainGBM(d, { ntrees: 6 });
    expect(m.trees).toHaveLength(3);
    for (const ts of m.trees) expect(ts).toHaveLength(6);
    const p = m.predict(d.features);
    const probs = p.probabilities as Float64Array;
    for (let i = 0; i < 900; i++) expect(probs[3 * i] + probs[3 * i + 1] + probs[3 * i + 2]).toBeCloseTo(1, 12);
    expect(m.scoringHistory[5].training.classification_error).toBeLessThan(0.3);
  });

  it('every regression distribution lowers its training deviance', () => {
    const rng = new Rng(9);
    const n = 600;
    const x = Float64Array.from({ length: n }, () => rng.next() * 4);
    const y = Float64Array.from(x, (v) => Math.exp(0.5 * v) * (0.5 + rng.next()));
    const features = makeFrame(['x'], [{ kind: 'numeric', values: x }]);
    const target = { name: 'y', kind: 'regression' as const, y, classes: [] };
    const dists: DistributionName[] = ['gaussian', 'poisson', 'gamma', 'tweedie', 'huber', 'quantile', 'laplace'];
    for (const distribution of dists) {
      const m = trainGBM({ features, target }, { ntrees: 15, distribution, quantile_alpha: 0.8 });
      const h = m.scoringHistory;
      expect(h[h.length - 1].training.deviance).toBeLessThan(h[0].training.deviance);
      if (distribution === 'quantile') {
        const pred = m.predict(features).value as Float64Array;
        const below = y.filter((v, i) => v <= pred[i]).length / n;
        expect(Math.abs(below - 0.8)).toBeLessThan(0.1);
      }
      if (distribution === 'poisson') expect(m.link).toBe('log');
    }
  });

  it('early stopping ends training when the metric stops improving', () => {
    const d = syntheticData(400, 'binary', 5);
    const binned = binFrame(d.features);
    const rows = Uint32Array.from({ length: 300 }, (_, i) => i);
    const validRows = Uint32Array.from({ length: 100 }, (_, i) => 300 + i);
    const m = trainGBM({ ...d, binned, rows, validRows }, { ntrees: 300, learn_rate: 0.5, max_depth: 6, min_rows: 1, stopping_rounds: 3, stopping_metric: 'logloss', stopping_tolerance: 0.001 });
    expect(m.info.stopped_early_at).toBeDefined();
    expect(m.trees[0].length).toBeLessThan(300);
  });

  it('row and column sampling are used and reproducible', () => {
    const d = syntheticData(500, 'regression', 6);
    const p = { ntrees: 5, sample_rate: 0.6, col_sample_rate: 0.5, col_sample_rate_per_tree: 0.8, seed: 11 };
    const a = JSON.stringify(trainGBM(d, p).toJSON());
    expect(JSON.stringify(trainGBM(d, p).toJSON())).toBe(a);
    expect(JSON.stringify(trainGBM(d, { ...p, seed: 12 }).toJSON())).not.toBe(a);
  });
});

// Output of bench/reference/gbm_reference.py (scikit-learn GradientBoosting, 5 trees, depth 3,
// min_samples_leaf 10, learning rate 0.1), pasted verbatim.
const SKLEARN_GB = {
  regression: [
    -1.370028192, -0.628467689, 0.537714685, 1.266275212, -0.628467689, 0.537714685, -0.148648641, 0.721337412, -1.370028192, -0.628467689, 0.537714685, -1.370028192, 0.721337412, -1.157139063,
    -0.148648641, 0.610622062, -1.370028192, 1.088651266, -1.090659208, -0.144522905, 1.088651266, -1.157139063, -0.148648641, -1.155439009, 0.326300372, 1.088651266, -1.090659208, -0.058187135,
    1.288775682, 0.537714685, 1.266275212, -0.628467689, 0.015402787, 1.088651266, 0.537714685, -1.370028192, -0.628467689, 0.537714685, 1.466399628, -0.628467689,
  ],
  binary_p1: [
    0.285828075, 0.292705793, 0.631488373, 0.676184185, 0.310135864, 0.610389489, 0.555495843, 0.651042573, 0.285828075, 0.310135864, 0.651042573, 0.285828075, 0.651042573, 0.285828075, 0.428179509,
    0.583686006, 0.285828075, 0.676184185, 0.285828075, 0.428179509, 0.676184185, 0.303024055, 0.588150781, 0.292705793, 0.607431679, 0.678763321, 0.310135864, 0.588150781, 0.676184185, 0.631488373,
    0.678763321, 0.292705793, 0.525676805, 0.676184185, 0.651042573, 0.285828075, 0.310135864, 0.631488373, 0.656251331, 0.292705793,
  ],
  multiclass_probs: [
    0.63713087, 0.159738504, 0.203130625, 0.545387424, 0.250506708, 0.204105868, 0.235603592, 0.314246048, 0.45015036, 0.209878514, 0.161238924, 0.628882562, 0.427590945, 0.346110118, 0.226298937,
    0.241955786, 0.259783183, 0.498261031, 0.312289305, 0.320581002, 0.367129693, 0.218003401, 0.29097577, 0.491020828, 0.63713087, 0.159738504, 0.203130625, 0.427590945, 0.346110118, 0.226298937,
    0.250135206, 0.321052218, 0.428812575, 0.578705638, 0.228098426, 0.193195937, 0.220953035, 0.190810872, 0.588236093, 0.63713087, 0.159738504, 0.203130625, 0.330775511, 0.311963532, 0.357260957,
    0.217888566, 0.27966318, 0.502448254, 0.63713087, 0.159738504, 0.203130625, 0.224127342, 0.17218557, 0.603687089, 0.63713087, 0.159738504, 0.203130625, 0.356397496, 0.336128334, 0.30747417,
    0.209878514, 0.161238924, 0.628882562, 0.530723782, 0.259091223, 0.210184995, 0.321044328, 0.301533507, 0.377422165, 0.636726698, 0.159637172, 0.20363613, 0.291710396, 0.312975233, 0.395314372,
    0.228769056, 0.261097581, 0.510133363, 0.530723782, 0.259091223, 0.210184995, 0.311209968, 0.321084143, 0.36770589, 0.224127342, 0.17218557, 0.603687089, 0.235603592, 0.314246048, 0.45015036,
    0.228769056, 0.261097581, 0.510133363, 0.532974045, 0.267565673, 0.199460283, 0.436857544, 0.299048769, 0.264093687, 0.224127342, 0.17218557, 0.603687089, 0.246951564, 0.360259492, 0.392788944,
    0.63713087, 0.159738504, 0.203130625, 0.532974045, 0.267565673, 0.199460283, 0.236249589, 0.277240185, 0.486510226, 0.209878514, 0.161238924, 0.628882562, 0.440562017, 0.326274215, 0.233163768,
  ],
};

describe('parity with Friedman gradient boosting (scikit-learn)', () => {
  const n = 400;
  const cols = [0, 1, 2, 3].map(() => new Float64Array(n));
  const y = new Float64Array(n);
  const yr = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < 4; j++) cols[j][i] = (i * (7 + 2 * j) + j * 13 + ((i * (j + 3)) % 17)) % 31;
    const s = cols[0][i] - 15 + 0.5 * (cols[1][i] - 15) * (cols[2][i] > 12 ? 1 : -1) + (((i * 37) % 11) - 5);
    y[i] = s > 0 ? 1 : 0;
    yr[i] = s / 4;
  }
  const features = { names: ['a', 'b', 'c', 'd'], columns: cols.map((values) => ({ kind: 'numeric' as const, values })), nrows: n };
  const params = { ntrees: 5, max_depth: 3, learn_rate: 0.1, min_rows: 10 };

  it('gaussian predictions match', () => {
    const m = trainGBM({ features, target: { name: 'y', kind: 'regression', y: yr, classes: [] } }, params);
    const pred = m.predict(features).value as Float64Array;
    // Leaf values are stored as float32, hence the tolerance.
    SKLEARN_GB.regression.forEach((v: number, i: number) => expect(Math.abs(pred[i] - v)).toBeLessThan(1e-6));
  });

  it('multinomial probabilities match', () => {
    const yk = yr.map((v) => (v < -1 ? 0 : v < 1 ? 1 : 2));
    const m = trainGBM({ features, target: { name: 'y', kind: 'multiclass', y: yk, classes: ['0', '1', '2'] } }, params);
    const probs = m.predict(features).probabilities as Float64Array;
    SKLEARN_GB.multiclass_probs.forEach((v: number, i: number) => expect(Math.abs(probs[i] - v)).toBeLessThan(1e-6));
  });

  it('bernoulli probabilities match', () => {
    const m = trainGBM({ features, target: { name: 'y', kind: 'binary', y, classes: ['0', '1'] } }, params);
    const probs = m.predict(features).probabilities as Float64Array;
    SKLEARN_GB.binary_p1.forEach((v: number, i: number) => expect(Math.abs(probs[2 * i + 1] - v)).toBeLessThan(1e-6));
  });
});
