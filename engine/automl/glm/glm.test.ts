import { loadDataset } from './testdata';
import { trainGLM } from './train';
import { GLMModel } from './model';
import { exportGLMOnnx } from './onnx';
import { runOnnx } from '../onnx/ort-runner';
import { designFeeds } from '../encoding/feeds';
import type { RequestedKind } from '../frame';

/** scikit-learn coefficients from bench/reference/glm_reference.py (standardized design, see there). */
const REF: Record<string, { lambda: number; alpha: number; intercept: number[]; coef: number[][]; names: string[]; classes?: string[] }> = {
  gaussian: {
    lambda: 0.05,
    alpha: 0.5,
    intercept: [24.568466917862594],
    coef: [[-0.19568322301305566, 0.06077619334460668, -0.5511112507425101, -4.3746443324288675, 0.0, 2.674758725105194, 0.3498124421085231, -1.7955221535577668]],
    names: ['cylinders', 'displacement', 'horsepower', 'weight', 'acceleration', 'model_year', 'origin.japan', 'origin.usa'],
  },
  poisson: {
    lambda: 0.01,
    alpha: 0.0,
    intercept: [3.1656780993704],
    coef: [[-0.022722244012802467, 0.07055390709412288, -0.045662211466387624, -0.250263307665006, 0.008705151100238956, 0.1192594614957318, -0.017585071639522613, -0.08885332428390211]],
    names: ['cylinders', 'displacement', 'horsepower', 'weight', 'acceleration', 'model_year', 'origin.japan', 'origin.usa'],
  },
  gamma: {
    lambda: 0.01,
    alpha: 0.0,
    intercept: [3.1581060228151547],
    coef: [[-0.035487776225259574, 0.04885593586062746, -0.05085731266797948, -0.21076846496324167, -0.003749630881516906, 0.11152231050612185, -0.0025211151364565726, -0.0790160667812068]],
    names: ['cylinders', 'displacement', 'horsepower', 'weight', 'acceleration', 'model_year', 'origin.japan', 'origin.usa'],
  },
  tweedie: {
    lambda: 0.01,
    alpha: 0.0,
    intercept: [3.165590122266839],
    coef: [[-0.030586696831543764, 0.06984270693428396, -0.04776555277999672, -0.23786730619351204, 0.0036538800498118343, 0.11629717683685054, -0.012603543734221838, -0.08830693913174702]],
    names: ['cylinders', 'displacement', 'horsepower', 'weight', 'acceleration', 'model_year', 'origin.japan', 'origin.usa'],
  },
  binomial: {
    lambda: 0.01,
    alpha: 0.5,
    intercept: [-0.8346367542767864],
    coef: [[0.362650097534371, 1.0064899869535275, -0.17938321010173902, 0.0, -0.06695969033726457, 0.6085583461599373, 0.2586090586407597, 0.1602980743601822]],
    names: ['C1', 'C2', 'C3', 'C4', 'C5', 'C6', 'C7', 'C8'],
  },
  multinomial: {
    lambda: 0.01,
    alpha: 0.0,
    classes: ['Adelie', 'Chinstrap', 'Gentoo'],
    intercept: [0.3586661022872075, -0.5147824744706249, 0.1561163721834173],
    coef: [
      [-1.7482808173366235, 0.8141401627419358, -0.553496905072122, -0.05533921107342664, -0.4634597103708912, 0.4885549799708494, 0.5880398290936151],
      [1.4862792290984377, 0.3317080643034294, -0.33256702172360103, -0.7959353548932822, 0.9988434867775261, -0.2755585566845626, -0.40597309785060026],
      [0.2620015882381871, -1.1458482270453658, 0.8860639267957232, 0.8512745659667087, -0.5353837764066347, -0.21299642328628676, -0.18206673124301512],
    ],
    names: ['bill_length_mm', 'bill_depth_mm', 'flipper_length_mm', 'body_mass_g', 'island.Dream', 'island.Torgersen', 'sex.MALE'],
  },
};

function expectCoefficients(model: GLMModel, ref: (typeof REF)[string], tol: number): void {
  const names = model.json.design.columnNames;
  let worst = 0;
  ref.coef.forEach((row, k) => {
    const b = model.json.coefficients[k];
    ref.names.forEach((name, q) => {
      const c = names.indexOf(name);
      expect(c).toBeGreaterThanOrEqual(0);
      worst = Math.max(worst, Math.abs(b[c + 1] - row[q]));
    });
  });
  const K = model.json.coefficients.length;
  const mean = K > 1 ? model.json.coefficients.reduce((s, b) => s + b[0], 0) / K : 0;
  ref.intercept.forEach((v, k) => (worst = Math.max(worst, Math.abs(model.json.coefficients[k][0] - mean - v))));
  expect(worst).toBeLessThan(tol);
}

describe('GLM against scikit-learn', () => {
  it('gaussian elastic net = ElasticNet(alpha=lambda, l1_ratio=alpha)', async () => {
    const { data } = await loadDataset('mpg.csv', 'mpg', 'regression');
    const r = REF.gaussian;
    expectCoefficients(trainGLM(data, { lambda: r.lambda, alpha: r.alpha, beta_epsilon: 1e-9, objective_epsilon: 0 }), r, 1e-4);
  });
  it.each(['poisson', 'gamma', 'tweedie'] as const)('%s ridge = sklearn regressor(alpha=lambda)', async (fam) => {
    const { data } = await loadDataset('mpg.csv', 'mpg', 'regression');
    const r = REF[fam];
    expectCoefficients(trainGLM(data, { family: fam, lambda: r.lambda, alpha: r.alpha, tweedie_variance_power: 1.5, beta_epsilon: 1e-9, objective_epsilon: 0 }), r, 1e-4);
  });
  it('binomial elastic net = LogisticRegression(C=1/(lambda n), l1_ratio=alpha)', async () => {
    const { data } = await loadDataset('pima-indians-diabetes.csv', 'C9', 'binary');
    const r = REF.binomial;
    expectCoefficients(trainGLM(data, { lambda: r.lambda, alpha: r.alpha, beta_epsilon: 1e-9, objective_epsilon: 0 }), r, 1e-4);
  });
  it('multinomial ridge with categoricals and missing values = LogisticRegression (lbfgs)', async () => {
    const { data } = await loadDataset('penguins.csv', 'species', 'multiclass');
    const r = REF.multinomial;
    expectCoefficients(trainGLM(data, { lambda: r.lambda, alpha: r.alpha, beta_epsilon: 1e-9, objective_epsilon: 0 }), r, 1e-4);
  });
});

describe('GLM behaviour', () => {
  it('lambda search picks a lambda on validation rows and records the path', async () => {
    const { data } = await loadDataset('german.csv', 'C21', 'binary');
    const n = data.target.y.length;
    const rows = Uint32Array.from({ length: n }, (_, i) => i).filter((i) => i % 4 !== 0);
    const validRows = Uint32Array.from({ length: n }, (_, i) => i).filter((i) => i % 4 === 0);
    const m = trainGLM({ ...data, rows, validRows });
    const path = m.json.info.lambda_path as { lambda: number; validation_deviance: number }[];
    expect(path.length).toBeGreaterThan(3);
    const best = Math.min(...path.map((p) => p.validation_deviance));
    expect(path.find((p) => p.lambda === m.json.lambda)?.validation_deviance).toBe(best);
    expect(m.varimp()[0].relative_importance).toBeGreaterThan(0);
    // A JSON round trip scores identically.
    const again = GLMModel.fromJSON(JSON.parse(JSON.stringify(m.toJSON())));
    expect(Array.from(again.predictRaw(data.features))).toEqual(Array.from(m.predictRaw(data.features)));
  });

  it('contributions sum to the margin, per class for multinomial', async () => {
    const { frame, data } = await loadDataset('penguins.csv', 'species', 'multiclass');
    const m = trainGLM(data);
    const margins = m.predictRaw(frame);
    for (let k = 0; k < 3; k++) {
      const c = m.contributions(frame, k);
      c.forEach((rec, i) => expect(rec.reduce((s, r) => s + r.value, 0)).toBeCloseTo(margins[i * 3 + k], 9));
      expect(c[0].map((r) => r.feature)).toEqual([...data.features.names, 'BiasTerm']);
    }
  });

  it('non_negative keeps every coefficient >= 0', async () => {
    const { data } = await loadDataset('mpg.csv', 'mpg', 'regression');
    const m = trainGLM(data, { non_negative: true, lambda: 0.01 });
    for (const b of m.json.coefficients) for (let c = 1; c < b.length; c++) expect(b[c]).toBeGreaterThanOrEqual(0);
  });
});

const ONNX_CASES: [string, string, RequestedKind, number | undefined][] = [
  ['titanic.csv', 'survived', 'binary', undefined],
  ['penguins.csv', 'species', 'multiclass', undefined],
  ['diamonds.csv', 'price', 'regression', 3000],
  ['mpg.csv', 'mpg', 'regression', undefined],
  ['taxis.csv', 'total', 'regression', 2000],
];

describe('GLM ONNX export', () => {
  it.each(ONNX_CASES)(
    '%s matches the TypeScript scorer',
    async (file, target, kind, limit) => {
      const { frame, data } = await loadDataset(file, target, kind, limit);
      const m = trainGLM(data, kind === 'regression' && file === 'mpg.csv' ? { family: 'poisson' } : {});
      const out = await runOnnx(exportGLMOnnx(m), designFeeds(m.features, frame));
      const margins = m.predictRaw(frame);
      const om = out.margin.data as number[];
      for (let i = 0; i < margins.length; i++) expect(Math.abs(margins[i] - om[i]) / Math.max(1, Math.abs(margins[i]))).toBeLessThan(1e-5);
      const pred = m.predict(frame);
      if (kind === 'regression') {
        const v = out.variable.data as number[];
        pred.value!.forEach((t, i) => expect(Math.abs(t - v[i]) / Math.max(1, Math.abs(t))).toBeLessThan(1e-5));
      } else {
        const p = out.probabilities.data as number[];
        pred.probabilities!.forEach((t, i) => expect(Math.abs(t - p[i])).toBeLessThan(1e-5));
        expect(out.label.data).toEqual(pred.label);
      }
    },
    60_000,
  );
});
