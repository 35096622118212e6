import { Frame, categoricalFromStrings, makeFrame, readCsvFrame } from '../frame';
import { Rng } from '../random';
import { binaryMetrics } from '../metrics';
import { parseAutoMLConfig, planModels, prepareExperiment, trainCandidate, trainStackedEnsembles } from '../driver';
import { modelFromJSON } from '../registry';
import { runOnnx } from '../onnx/ort-runner';
import { sharedDataset } from '../glm/testdata';

/** Pure-noise binary data: no model can beat AUC 0.5 out of sample. */
function noiseFrame(n: number): Frame {
  const rng = new Rng(11);
  const cols = Array.from({ length: 5 }, () => ({ kind: 'numeric' as const, values: Float64Array.from({ length: n }, () => rng.next()) }));
  const y = categoricalFromStrings(Array.from({ length: n }, () => (rng.next() < 0.5 ? 'a' : 'b')));
  return makeFrame(['x0', 'x1', 'x2', 'x3', 'x4', 'y'], [...cols, y]);
}

async function expectOnnxParity(json: unknown, frame: Frame): Promise<void> {
  const m = modelFromJSON(json);
  const out = await runOnnx(m.toONNX(), m.onnxFeeds(frame));
  const pred = m.predict(frame);
  if (m.kind === 'regression') {
    (out.variable.data as number[]).forEach((v, i) => expect(Math.abs(v - pred.value![i]) / Math.max(1, Math.abs(pred.value![i]))).toBeLessThan(1e-5));
  } else {
    (out.probabilities.data as number[]).forEach((v, i) => expect(Math.abs(v - pred.probabilities![i])).toBeLessThan(1e-5));
  }
}

describe('stacked ensembles', () => {
  it('learn only from out-of-fold predictions: a memorizing base model does not make noise look learnable', () => {
    const frame = noiseFrame(300);
    const { config } = parseAutoMLConfig({ nfolds: 3, seed: 5, exclude_algos: ['GBM', 'XGBoost', 'DeepLearning'] }, 'binary');
    const pe = prepareExperiment(frame, 'y', 'classification', config!);
    // DRF with min_rows 1 memorizes its training rows; GLM is the second family.
    const drf = trainCandidate(pe, { name: 'DRF_1', algo: 'DRF', origin: 'default', params: { ntrees: 30, min_rows: 1, max_depth: 30, seed: 5 } });
    const glm = trainCandidate(
      pe,
      planModels(config!, 'binary').find((s) => s.algo === 'GLM')!,
    );
    // In-fold predictions of the final DRF are near perfect: stacking on them would leak.
    const inFold = modelFromJSON(drf.model).predict(pe.data.features).probabilities!;
    const y = pe.data.target.y;
    expect(
      binaryMetrics(
        y,
        Float64Array.from({ length: y.length }, (_, i) => inFold[2 * i + 1]),
      ).auc,
    ).toBeGreaterThan(0.95);
    const [se] = trainStackedEnsembles(pe, [drf, glm]);
    expect(se.spec.name).toBe('StackedEnsemble_AllModels');
    expect(se.metrics.auc as number).toBeLessThan(0.62);
    for (const b of se.model.algo === 'StackedEnsemble' ? se.model.metalearner.coefficients[0].slice(1) : []) expect(b).toBeGreaterThanOrEqual(0);
  }, 60_000);

  it('builds AllModels and BestOfFamily on titanic with a leaderboard-grade metric and ONNX parity', async () => {
    const frame = await readCsvFrame(sharedDataset('titanic.csv'));
    const { config } = parseAutoMLConfig({ nfolds: 3, seed: 7 }, 'binary');
    const pe = prepareExperiment(frame, 'survived', 'classification', config!);
    const specs = planModels(config!, 'binary').filter((s) => ['XGBoost_1', 'GLM_1', 'GBM_1', 'GBM_2'].includes(s.name));
    const cands = specs.map((s) => trainCandidate(pe, { ...s, params: { ...s.params, ntrees: 40 } }));
    const ses = trainStackedEnsembles(pe, cands);
    expect(ses.map((s) => s.spec.name)).toEqual(['StackedEnsemble_AllModels', 'StackedEnsemble_BestOfFamily']);
    expect((ses[1].spec.params.base_models as string[]).length).toBe(3);
    const bestBase = Math.max(...cands.map((c) => c.metrics.auc as number));
    for (const se of ses) expect(se.metrics.auc as number).toBeGreaterThan(bestBase - 0.02);
    const m = modelFromJSON(JSON.parse(JSON.stringify(ses[0].model)));
    expect(m.contributions(pe.data.features)).toBeNull();
    await expectOnnxParity(ses[0].model, pe.data.features);
    // Every candidate goes through the same registry: trees, GLM.
    for (const c of cands) await expectOnnxParity(c.model, pe.data.features);
    expect(modelFromJSON(cands[1].model).contributions(pe.data.features)![0].at(-1)!.feature).toBe('BiasTerm');
  }, 120_000);

  it('chooses the metalearner ridge by cross-validation: many noisy copies of a base get shrunk', () => {
    const frame = noiseFrame(200);
    const { config } = parseAutoMLConfig({ nfolds: 4, seed: 5 }, 'binary');
    const pe = prepareExperiment(frame, 'y', 'classification', config!);
    const rng = new Rng(3);
    const n = pe.data.target.y.length;
    // Forty bases whose holdout scores are pure noise: an unpenalized metalearner overfits them.
    const glm = trainCandidate(
      pe,
      planModels(config!, 'binary').find((s) => s.algo === 'GLM')!,
    );
    const noisy = Array.from({ length: 40 }, (_, b) => {
      const scores = new Float64Array(2 * n);
      for (let i = 0; i < n; i++) {
        scores[2 * i + 1] = rng.next();
        scores[2 * i] = 1 - scores[2 * i + 1];
      }
      return { ...glm, spec: { ...glm.spec, name: `GLM_${b + 2}` }, holdout: { rows: glm.holdout.rows, scores } };
    });
    const [se] = trainStackedEnsembles(pe, noisy);
    const info = (se.model as unknown as { info: { metalearner_params: { lambda: number } } }).info;
    expect(info.metalearner_params.lambda).toBeGreaterThan(1e-4);
    expect(se.metrics.logloss as number).toBeLessThan(0.75);
  }, 60_000);

  it('stacks regression and multiclass candidates (validation split) with ONNX parity', async () => {
    for (const [file, target, kind] of [
      ['mpg.csv', 'mpg', 'regression'],
      ['penguins.csv', 'species', 'multiclass'],
    ] as const) {
      const frame = await readCsvFrame(sharedDataset(file));
      const { config } = parseAutoMLConfig({ nfolds: 0, seed: 3 }, kind);
      const pe = prepareExperiment(frame, target, kind === 'regression' ? 'regression' : 'classification', config!);
      const specs = planModels(config!, kind).filter((s) => ['GLM_1', 'GBM_1', 'DeepLearning_1'].includes(s.name));
      const cands = specs.map((s) => trainCandidate(pe, { ...s, params: { ...s.params, ntrees: 30, epochs: 10 } }));
      const [se] = trainStackedEnsembles(pe, cands);
      expect(se.metrics.metric_context.split).toBe('validation');
      await expectOnnxParity(se.model, pe.data.features);
    }
  }, 120_000);
});
