import { categoricalFromStrings, makeFrame } from '../frame';
import { Rng } from '../random';
import { parseAutoMLConfig, planModels, prepareExperiment, trainCandidate, trainStackedEnsembles } from '.';

describe('a stacked ensemble', () => {
  it('reports the importance of input features, with its weight on each base model kept apart, and binary threshold curves', () => {
    const rng = new Rng(3);
    const n = 240;
    const x0 = Float64Array.from({ length: n }, () => rng.next());
    const x1 = Float64Array.from({ length: n }, () => rng.next());
    const y = categoricalFromStrings(Array.from(x0, (v, i) => (v + 0.3 * x1[i] + 0.2 * rng.next() > 0.75 ? 'yes' : 'no')));
    const frame = makeFrame(['x0', 'x1', 'y'], [{ kind: 'numeric', values: x0 }, { kind: 'numeric', values: x1 }, y]);
    const { config } = parseAutoMLConfig({ nfolds: 3, seed: 3 }, 'binary');
    const pe = prepareExperiment(frame, 'y', 'classification', config!);
    const specs = planModels(config!, 'binary').filter((s) => s.name === 'GLM_1' || s.name === 'DRF_1');
    const cands = specs.map((s) => trainCandidate(pe, { ...s, params: { ...s.params, ntrees: 10 } }));
    const [se] = trainStackedEnsembles(pe, cands);
    expect(se.varimp.map((v) => v.variable).sort()).toEqual(['x0', 'x1']);
    expect(se.varimp[0].variable).toBe('x0');
    expect(se.baseModelImportance.map((v) => v.variable).sort()).toEqual(['DRF_1', 'GLM_1']);
    for (const c of [...cands, se]) {
      expect(c.curves?.threshold_table.length).toBeGreaterThan(5);
      for (const r of c.curves!.threshold_table) for (const v of [r.precision, r.recall, r.f1]) expect(v).toBeGreaterThanOrEqual(0);
    }
  }, 60_000);
});
