/**
 * A trained multilayer perceptron (H2O DeepLearning semantics): the design (standardized
 * numerics, one-hot categoricals with every level), dense layers, scoring in float64 from the
 * stored float32 weights, and contributions.
 *
 * Contributions are integrated gradients (Sundararajan et al. 2017) of the margin from the
 * training-mean baseline (the design's column means: a row of average numerics and level
 * frequencies), with a 32-step midpoint rule; a feature's value is the sum over its design
 * columns. BiasTerm = margin - sum of the feature values, i.e. f(baseline) plus the quadrature
 * error, so records sum to the margin exactly. Cost per row and output: 32 forward + backward
 * passes, 64 x (number of weights) multiply-adds (about 0.3 M for the AutoML default [64, 64] on
 * 20 design columns), no background sample needed.
 */
import type { Frame, ProblemKind } from '../frame';
import type { FeatureSpec, Prediction, RowObject, ScoringEvent, VariableImportance } from '../model';
import type { Contribution } from '../treeshap';
import { JsonBackedModel } from '../json-model';
import { DesignJSON, encodeInput, featureColumnRanges } from '../encoding/design';
import { importanceTable, predictionFromMargins } from '../glm/model';

export type Activation = 'Rectifier' | 'Tanh' | 'RectifierWithDropout' | 'TanhWithDropout';

export interface DenseLayerJSON {
  /** Row-major in x out. */
  weights: number[];
  bias: number[];
  inputs: number;
  outputs: number;
}

export interface DeepLearningJSON {
  format_version: 1;
  algo: 'DeepLearning';
  kind: ProblemKind;
  classes: string[];
  features: FeatureSpec[];
  design: DesignJSON;
  activation: Activation;
  /** Hidden layers then the output layer (linear: margins). */
  layers: DenseLayerJSON[];
  link: 'identity' | 'logistic' | 'softmax';
  params: Record<string, unknown>;
  scoring_history: ScoringEvent[];
  info: Record<string, unknown>;
}

const IG_STEPS = 32;

export function isTanh(a: Activation): boolean {
  return a === 'Tanh' || a === 'TanhWithDropout';
}

export class DeepLearningModel extends JsonBackedModel<DeepLearningJSON> {
  get algo(): 'DeepLearning' {
    return 'DeepLearning';
  }
  get nOutputs(): number {
    return this.json.layers[this.json.layers.length - 1].outputs;
  }

  /** Forward pass of one design row; keeps pre-activations when `trace` is given. */
  private forward(x: Float64Array, trace?: Float64Array[]): Float64Array {
    const tanh = isTanh(this.json.activation);
    let h = x;
    this.json.layers.forEach((l, li) => {
      const z = new Float64Array(l.outputs);
      for (let o = 0; o < l.outputs; o++) z[o] = l.bias[o];
      for (let i = 0; i < l.inputs; i++) {
        const v = h[i];
        if (v === 0) continue;
        const row = i * l.outputs;
        for (let o = 0; o < l.outputs; o++) z[o] += v * l.weights[row + o];
      }
      trace?.push(z);
      h = li === this.json.layers.length - 1 ? z : z.map((v) => (tanh ? Math.tanh(v) : Math.max(0, v)));
    });
    return h;
  }

  /** d margin_k / d x at design row x. */
  private gradient(x: Float64Array, k: number): Float64Array {
    const trace: Float64Array[] = [];
    this.forward(x, trace);
    const tanh = isTanh(this.json.activation);
    const L = this.json.layers;
    let dz = new Float64Array(L[L.length - 1].outputs);
    dz[k] = 1;
    for (let li = L.length - 1; li >= 0; li--) {
      const l = L[li];
      const dh = new Float64Array(l.inputs);
      for (let i = 0; i < l.inputs; i++) {
        let s = 0;
        const row = i * l.outputs;
        for (let o = 0; o < l.outputs; o++) s += l.weights[row + o] * dz[o];
        dh[i] = s;
      }
      if (li === 0) return dh;
      const zPrev = trace[li - 1];
      dz = dh.map((v, i) => (tanh ? v * (1 - Math.tanh(zPrev[i]) ** 2) : zPrev[i] > 0 ? v : 0));
    }
    return dz;
  }

  marginsFromDesign(d: Float64Array): Float64Array {
    const p = this.json.design.width;
    const K = this.nOutputs;
    const n = p ? d.length / p : 0;
    const out = new Float64Array(n * K);
    for (let i = 0; i < n; i++) out.set(this.forward(d.subarray(i * p, (i + 1) * p)), i * K);
    return out;
  }

  predictRaw(input: Frame | RowObject[]): Float64Array {
    return this.marginsFromDesign(encodeInput(this.json.design, input));
  }

  predict(input: Frame | RowObject[]): Prediction {
    const link = this.json.link === 'identity' ? 'identity' : this.json.link;
    return predictionFromMargins(this.predictRaw(input), this.kind, link, this.classes);
  }

  /** Integrated-gradient contributions of output `output` (see the file comment). */
  contributions(input: Frame | RowObject[], output = 0): Contribution[][] {
    const { design } = this.json;
    const p = design.width;
    const d = encodeInput(design, input);
    const base = Float64Array.from(design.columnMeans);
    const ranges = featureColumnRanges(design);
    const rows: Contribution[][] = [];
    const n = p ? d.length / p : 0;
    const xs = new Float64Array(p);
    for (let i = 0; i < n; i++) {
      const x = d.subarray(i * p, (i + 1) * p);
      const ig = new Float64Array(p);
      for (let s = 0; s < IG_STEPS; s++) {
        const a = (s + 0.5) / IG_STEPS;
        for (let c = 0; c < p; c++) xs[c] = base[c] + a * (x[c] - base[c]);
        const g = this.gradient(xs, output);
        for (let c = 0; c < p; c++) ig[c] += g[c];
      }
      const rec: Contribution[] = ranges.map(([s, e], j) => {
        let v = 0;
        for (let c = s; c < e; c++) v += ((x[c] - base[c]) * ig[c]) / IG_STEPS;
        return { feature: design.features[j].name, value: v };
      });
      const margin = this.forward(x)[output];
      rec.push({ feature: 'BiasTerm', value: margin - rec.reduce((t, r) => t + r.value, 0) });
      rows.push(rec);
    }
    return rows;
  }

  /** Sum of absolute first-layer weights per feature (a first-layer simplification of H2O's Gedeon importance). */
  varimp(): VariableImportance[] {
    const L = this.json.layers;
    const imp = new Float64Array(L[0].inputs);
    const first = L[0];
    for (let i = 0; i < first.inputs; i++) for (let o = 0; o < first.outputs; o++) imp[i] += Math.abs(first.weights[i * first.outputs + o]);
    const ranges = featureColumnRanges(this.json.design);
    const rel = ranges.map(([s, e]) => {
      let v = 0;
      for (let c = s; c < e; c++) v += imp[c];
      return v;
    });
    return importanceTable(
      this.features.map((f) => f.name),
      rel,
    );
  }

  toJSON(): DeepLearningJSON {
    return this.json;
  }

  static fromJSON(j: DeepLearningJSON): DeepLearningModel {
    if (j.format_version !== 1 || j.algo !== 'DeepLearning') throw new Error(`unsupported DeepLearning model (format_version ${String(j.format_version)})`);
    return new DeepLearningModel(j);
  }
}
