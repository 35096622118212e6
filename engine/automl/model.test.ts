import { trainDRF } from './drf';
import { trainGBM } from './gbm';
import { TreeEnsembleModel, RowObject } from './model';
import { syntheticData } from './testutil';
import { trainXGBoost } from './xgboost';

describe('TrainedModel', () => {
  const d = syntheticData(600, 'binary', 21);

  it('is deterministic for a seed (identical serialized models)', () => {
    const run = () => [
      trainGBM(d, { ntrees: 4, sample_rate: 0.7, col_sample_rate: 0.6, seed: 5 }),
      trainXGBoost(d, { n_estimators: 4, subsample: 0.7, colsample_bytree: 0.8, colsample_bylevel: 0.8, colsample_bynode: 0.8, seed: 5 }),
      trainDRF(d, { ntrees: 4, seed: 5 }),
      trainDRF(d, { ntrees: 4, seed: 5, histogram_type: 'Random' }),
    ];
    const a = run().map((m) => JSON.stringify(m.toJSON()));
    const b = run().map((m) => JSON.stringify(m.toJSON()));
    expect(b).toEqual(a);
  });

  it('round-trips through JSON with identical predictions', () => {
    for (const m of [trainGBM(d, { ntrees: 4 }), trainXGBoost(syntheticData(300, 'multiclass', 2), { n_estimators: 3 }), trainDRF(d, { ntrees: 3 })]) {
      const json = JSON.parse(JSON.stringify(m.toJSON()));
      expect(json.format_version).toBe(1);
      const back = TreeEnsembleModel.fromJSON(json);
      const x = m.kind === 'multiclass' ? syntheticData(300, 'multiclass', 2).features : d.features;
      expect(Array.from(back.predictRaw(x))).toEqual(Array.from(m.predictRaw(x)));
      expect(back.predict(x).label).toEqual(m.predict(x).label);
      expect(back.featureNames).toEqual(m.featureNames);
    }
    expect(() => TreeEnsembleModel.fromJSON({ ...trainGBM(d, { ntrees: 1 }).toJSON(), format_version: 2 as unknown as 1 })).toThrow();
  });

  it('scores row objects like frames (categories by name, unknown levels as missing)', () => {
    const m = trainGBM(d, { ntrees: 5 });
    const cat = d.features.columns[4];
    if (cat.kind !== 'categorical') throw new Error('c should be categorical');
    const rows: RowObject[] = [];
    for (let i = 0; i < 50; i++) {
      const r: RowObject = {};
      d.features.names.forEach((n, j) => {
        const c = d.features.columns[j];
        r[n] = c.kind === 'numeric' ? (Number.isNaN(c.values[i]) ? null : c.values[i]) : c.kind === 'categorical' && c.codes[i] >= 0 ? c.levels[c.codes[i]] : null;
      });
      rows.push(r);
    }
    const a = Array.from(m.predictRaw(rows));
    const full = m.predictRaw(d.features);
    expect(a).toEqual(Array.from(full.subarray(0, 50)));
    const unknown = m.predictRaw([{ ...rows[0], c: 'never-seen' }]);
    expect(unknown[0]).toBe(m.predictRaw([{ ...rows[0], c: null }])[0]);
  });

  it('reports variable importance as H2O does', () => {
    const vi = trainGBM(d, { ntrees: 10 }).varimp();
    expect(vi).toHaveLength(5);
    expect(vi[0].variable).toBe('x0');
    expect(vi[0].scaled_importance).toBe(1);
    expect(vi.reduce((s, v) => s + v.percentage, 0)).toBeCloseTo(1, 12);
    for (const v of vi) expect(v.scaled_importance).toBeCloseTo(v.relative_importance / vi[0].relative_importance, 12);
  });
});
