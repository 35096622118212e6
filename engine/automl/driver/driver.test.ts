import path from 'node:path';
import fs from 'node:fs';
import { readCsvFrame } from '../frame';
import { parseAutoMLConfig } from './config';
import { compareByMetric } from './model-metrics';
import { planModels } from './plan';
import { prepareExperiment, ExperimentDataError } from './prepare';
import { commonRounds, trainCandidate } from './candidate';
import { trainStackedEnsembles } from './ensemble';

function dataset(name: string): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return path.join(process.env.DATASETS_DIR ?? path.join(dir, '..', 'shared', 'datasets'), name);
}

describe('AutoML driver', () => {
  it('validates config keys, ranges and metrics per problem kind', () => {
    expect(parseAutoMLConfig({}, 'binary').config).toMatchObject({ max_runtime_secs: 3600, max_models: 20, sort_metric: 'AUC', seed: 42, nfolds: 5, stopping_rounds: 3 });
    expect(parseAutoMLConfig({}, 'multiclass').config?.sort_metric).toBe('logloss');
    expect(parseAutoMLConfig({}, 'regression').config?.sort_metric).toBe('RMSE');
    expect(parseAutoMLConfig({ nfolds: -1 }, 'binary').config?.nfolds).toBe(5);
    expect(parseAutoMLConfig({ sort_metric: 'RMSE' }, 'binary').issues[0].loc).toEqual(['config', 'sort_metric']);
    expect(parseAutoMLConfig({ max_models: 0 }, 'binary').issues[0].loc).toEqual(['config', 'max_models']);
    expect(parseAutoMLConfig({ nfolds: 1 }, 'binary').issues).toHaveLength(1);
    expect(parseAutoMLConfig({ exclude_algos: ['Magic'] }, 'binary').issues).toHaveLength(1);
    expect(parseAutoMLConfig({ distribution: 'poisson' }, 'binary').issues).toHaveLength(1);
    expect(parseAutoMLConfig({ distribution: 'poisson' }, 'regression').config?.distribution).toBe('poisson');
    expect(parseAutoMLConfig({ bogus: 1 }, 'binary').issues[0].msg).toContain('bogus');
    expect(parseAutoMLConfig({ balance_classes: 'yes' }, 'binary').issues).toHaveLength(1);
  });

  it('plans defaults first, then grid models, within max_models and exclusions', () => {
    const { config } = parseAutoMLConfig({ max_models: 14, exclude_algos: ['DRF'] }, 'binary');
    const plan = planModels(config!, 'binary');
    expect(plan).toHaveLength(14);
    expect(plan.some((s) => s.algo === 'DRF')).toBe(false);
    expect(plan[0].origin).toBe('default');
    expect(plan[plan.length - 1].origin).toBe('grid');
    expect(planModels(config!, 'binary')).toEqual(plan);
  });

  it('plans GLM and DeepLearning in H2O order and honours exclude_algos for them and StackedEnsemble', () => {
    const { config } = parseAutoMLConfig({ max_models: 6 }, 'binary');
    expect(planModels(config!, 'binary').map((s) => s.name)).toEqual(['XGBoost_1', 'GLM_1', 'GBM_1', 'DRF_1', 'DeepLearning_1', 'XRT_1']);
    const { config: ex } = parseAutoMLConfig({ max_models: 6, exclude_algos: ['GLM', 'DeepLearning'] }, 'binary');
    expect(planModels(ex!, 'binary').some((s) => s.algo === 'GLM' || s.algo === 'DeepLearning')).toBe(false);
  });

  it('skips stacked ensembles when StackedEnsemble is excluded', async () => {
    const frame = await readCsvFrame(dataset('mpg.csv'));
    const { config } = parseAutoMLConfig({ nfolds: 0, exclude_algos: ['StackedEnsemble'] }, 'regression');
    const pe = prepareExperiment(frame, 'mpg', 'regression', config!);
    const glm = planModels(config!, 'regression').find((s) => s.algo === 'GLM')!;
    const a = trainCandidate(pe, glm);
    expect(a.metrics.metric_context.split).toBe('validation');
    expect(trainStackedEnsembles(pe, [a, { ...a, spec: { ...a.spec, name: 'GLM_2' } }])).toEqual([]);
  });

  it('trains cross-validated candidates on titanic with sane, reproducible metrics', async () => {
    const frame = await readCsvFrame(dataset('titanic.csv'));
    const { config } = parseAutoMLConfig({ nfolds: 3, max_models: 3, seed: 7 }, 'binary');
    const pe = prepareExperiment(frame, 'survived', 'classification', config!);
    expect(pe.data.kind).toBe('binary');
    const plan = planModels(config!, 'binary');
    const results = plan.map((s) => trainCandidate(pe, s));
    for (const r of results) {
      expect(r.metrics.auc as number).toBeGreaterThan(0.8);
      expect(r.metrics.metric_context.split).toBe('cross_validation');
      expect(r.metrics.confusion_matrix!.labels).toEqual(['0', '1']);
      expect(r.holdout.scores.length).toBe(2 * pe.data.target.y.length);
    }
    const again = trainCandidate(pe, plan[0]);
    expect(again.metrics.auc).toBe(results[0].metrics.auc);
    const ranked = [...results].sort((a, b) => compareByMetric('AUC')(a.metrics, b.metrics));
    expect((ranked[0].metrics.auc as number) >= (ranked[2].metrics.auc as number)).toBe(true);
  }, 120_000);

  it('cuts boosting folds to the round count with the least holdout loss summed over folds', () => {
    const curve = (pairs: [number, number][]) => new Map(pairs);
    // Fold 1 alone would stop at 10; weighted by rows, 20 wins; 30 was not scored in fold 2.
    const folds = [
      {
        loss: curve([
          [10, 1.0],
          [20, 1.1],
          [30, 0.5],
        ]),
        rows: 10,
      },
      {
        loss: curve([
          [10, 2.0],
          [20, 1.5],
        ]),
        rows: 30,
      },
    ];
    expect(commonRounds(folds)).toBe(20);
    expect(
      commonRounds([
        { loss: curve([[5, 1]]), rows: 1 },
        { loss: curve([[10, 1]]), rows: 1 },
      ]),
    ).toBeNull();
  });

  it('gives cross-validated GBM folds one round count and the final model that count', async () => {
    const frame = await readCsvFrame(dataset('mpg.csv'));
    const { config } = parseAutoMLConfig({ nfolds: 3, seed: 7 }, 'regression');
    const pe = prepareExperiment(frame, 'mpg', 'regression', config!);
    const r = trainCandidate(
      pe,
      planModels(config!, 'regression').find((s) => s.name === 'GBM_1')!,
    );
    const cut = r.events.find((e) => e.includes('folds cut to'));
    expect(cut).toBeDefined();
    const rounds = Number(/cut to (\d+) rounds/.exec(cut!)![1]);
    expect(r.parameters.ntrees.actual).toBe(rounds);
    expect(rounds % 5).toBe(0); // scored every 5 trees, as H2O AutoML does
  }, 60_000);

  it('uses a validation split when nfolds is 0 and handles regression', async () => {
    const frame = await readCsvFrame(dataset('mpg.csv'));
    const { config } = parseAutoMLConfig({ nfolds: 0, max_models: 1 }, 'regression');
    const pe = prepareExperiment(frame, 'mpg', 'regression', config!);
    const r = trainCandidate(pe, planModels(config!, 'regression')[0]);
    expect(r.metrics.metric_context.split).toBe('validation');
    expect(r.metrics.rmse as number).toBeLessThan(4);
    expect(r.metrics.r2 as number).toBeGreaterThan(0.7);
  }, 60_000);

  it('rejects a missing target column and a target that cannot be classified', async () => {
    const frame = await readCsvFrame(dataset('mpg.csv'));
    const { config } = parseAutoMLConfig({}, 'regression');
    expect(() => prepareExperiment(frame, 'nope', 'regression', config!)).toThrow(ExperimentDataError);
    expect(() => prepareExperiment(frame, 'mpg', 'classification', config!)).toThrow(ExperimentDataError);
  });
});
