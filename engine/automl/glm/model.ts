/**
 * A trained GLM: the design (encodings), coefficients per output on the design scale, scoring,
 * exact contributions, variable importance and the versioned JSON.
 *
 * Contributions: the margin is b0 + sum_c b_c x_c over design columns c, so with the training
 * column means m_c it splits exactly into per-feature terms sum_{c in feature} b_c (x_c - m_c) and
 * BiasTerm = b0 + sum_c b_c m_c. They sum to the margin for every row (for multinomial, per class).
 */
import type { Frame, ProblemKind } from '../frame';
import { FeatureSpec, Prediction, RowObject, ScoringEvent, VariableImportance, marginsToProbabilities } from '../model';
import type { Contribution } from '../treeshap';
import { JsonBackedModel } from '../json-model';
import { DesignJSON, encodeInput, featureColumnRanges } from '../encoding/design';
import type { FamilyName } from './family';

export interface GLMJSON {
  format_version: 1;
  algo: 'GLM';
  kind: ProblemKind;
  family: FamilyName | 'multinomial';
  link: 'identity' | 'logistic' | 'log' | 'softmax';
  classes: string[];
  features: FeatureSpec[];
  design: DesignJSON;
  /** coefficients[k] = [intercept, b_1..b_p] of output k on the design scale. */
  coefficients: number[][];
  lambda: number;
  alpha: number;
  params: Record<string, unknown>;
  scoring_history: ScoringEvent[];
  info: Record<string, unknown>;
}

/** A coefficient row of the table users see: standardized and original-scale values. */
export interface CoefficientRow {
  name: string;
  /** One per output (class for multinomial). */
  standardized: number[];
  original: number[];
}

export class GLMModel extends JsonBackedModel<GLMJSON> {
  get algo(): 'GLM' {
    return 'GLM';
  }
  get nOutputs(): number {
    return this.json.coefficients.length;
  }

  /** Margins (row-major n x outputs) of an encoded design matrix. */
  marginsFromDesign(d: Float64Array): Float64Array {
    const p = this.json.design.width;
    const K = this.nOutputs;
    const n = p ? d.length / p : 0;
    const out = new Float64Array(n * K);
    for (let k = 0; k < K; k++) {
      const b = this.json.coefficients[k];
      for (let i = 0; i < n; i++) {
        let s = b[0];
        for (let c = 0; c < p; c++) s += b[c + 1] * d[i * p + c];
        out[i * K + k] = s;
      }
    }
    return out;
  }

  predictRaw(input: Frame | RowObject[]): Float64Array {
    return this.marginsFromDesign(encodeInput(this.json.design, input));
  }

  predict(input: Frame | RowObject[]): Prediction {
    return predictionFromMargins(this.predictRaw(input), this.json.kind, this.json.link, this.json.classes);
  }

  /** Exact per-feature contributions of output `output` (class index for multinomial). */
  contributions(input: Frame | RowObject[], output = 0): Contribution[][] {
    const { design } = this.json;
    const d = encodeInput(design, input);
    const p = design.width;
    const b = this.json.coefficients[output];
    const ranges = featureColumnRanges(design);
    let bias = b[0];
    for (let c = 0; c < p; c++) bias += b[c + 1] * design.columnMeans[c];
    const n = p ? d.length / p : 0;
    const rows: Contribution[][] = [];
    for (let i = 0; i < n; i++) {
      const rec: Contribution[] = ranges.map(([s, e], j) => {
        let v = 0;
        for (let c = s; c < e; c++) v += b[c + 1] * (d[i * p + c] - design.columnMeans[c]);
        return { feature: design.features[j].name, value: v };
      });
      rec.push({ feature: 'BiasTerm', value: bias });
      rows.push(rec);
    }
    return rows;
  }

  /** Coefficients by design column, standardized and on the original scale of numeric inputs. */
  coefficientTable(): CoefficientRow[] {
    const { design, coefficients } = this.json;
    const rows: CoefficientRow[] = [{ name: 'Intercept', standardized: coefficients.map((b) => b[0]), original: coefficients.map((b) => b[0]) }];
    for (const e of design.encodings) {
      if (e.kind === 'numeric') {
        rows.push({ name: e.feature, standardized: coefficients.map((b) => b[e.column + 1]), original: coefficients.map((b) => b[e.column + 1] / e.scale) });
        rows[0].original = rows[0].original.map((v, k) => v - (coefficients[k][e.column + 1] * e.mean) / e.scale);
      } else {
        e.codes.forEach((_, q) => rows.push({ name: `${e.feature}.${e.levels[q]}`, standardized: coefficients.map((b) => b[e.start + q + 1]), original: coefficients.map((b) => b[e.start + q + 1]) }));
      }
    }
    return rows;
  }

  /**
   * Importance per feature: the sum over its design columns (and outputs) of the absolute
   * standardized coefficients, H2O's GLM importance aggregated to the feature.
   */
  varimp(): VariableImportance[] {
    const ranges = featureColumnRanges(this.json.design);
    const rel = ranges.map(([s, e]) => {
      let v = 0;
      for (const b of this.json.coefficients) for (let c = s; c < e; c++) v += Math.abs(b[c + 1]);
      return v;
    });
    return importanceTable(
      this.json.features.map((f) => f.name),
      rel,
    );
  }

  toJSON(): GLMJSON {
    return this.json;
  }

  static fromJSON(j: GLMJSON): GLMModel {
    if (j.format_version !== 1 || j.algo !== 'GLM') throw new Error(`unsupported GLM model (format_version ${String(j.format_version)})`);
    return new GLMModel(j);
  }
}

/** H2O-style importance rows from relative importances, sorted best first. */
export function importanceTable(names: string[], rel: number[]): VariableImportance[] {
  const max = Math.max(0, ...rel);
  const sum = rel.reduce((a, b) => a + b, 0);
  return names
    .map((variable, j) => ({ variable, relative_importance: rel[j], scaled_importance: max > 0 ? rel[j] / max : 0, percentage: sum > 0 ? rel[j] / sum : 0 }))
    .sort((a, b) => b.relative_importance - a.relative_importance || a.variable.localeCompare(b.variable));
}

/** Labels/probabilities or values from margins, with the tree models' conventions. */
export function predictionFromMargins(m: Float64Array, kind: ProblemKind, link: 'identity' | 'logistic' | 'log' | 'softmax', classes: string[]): Prediction {
  if (kind === 'regression') return { label: null, probabilities: null, value: link === 'log' ? m.map((v) => Math.exp(v)) : m.slice() };
  const K = classes.length;
  const probs = marginsToProbabilities(m, kind === 'binary' ? 'logistic' : 'softmax', K);
  const n = probs.length / K;
  const label: string[] = new Array(n);
  for (let i = 0; i < n; i++) {
    let best = 0;
    for (let k = 1; k < K; k++) if (probs[i * K + k] > probs[i * K + best]) best = k;
    label[i] = classes[best];
  }
  return { label, probabilities: probs, value: null };
}
