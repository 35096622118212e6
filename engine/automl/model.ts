/**
 * The trained-model interface shared by GBM, XGBoost-style boosting and random forests, its one
 * implementation (a tree ensemble plus a link function), scoring, variable importance and the
 * versioned JSON serialization.
 */
import { getOwn } from '../own-keys';
import { Column, Frame, ProblemKind, expandDatetimes } from './frame';
import { Tree, nextNode } from './trees';

export type Algo = 'GBM' | 'XGBoost' | 'DRF';

/**
 * How margins become predictions: identity; log (prediction = exp(margin), poisson/gamma/tweedie);
 * logistic (binary boosting); softmax (multiclass boosting); average (random forests: the margin
 * already is the averaged class frequency, or the regression value).
 */
export type Link = 'identity' | 'log' | 'logistic' | 'softmax' | 'average';

export interface FeatureSpec {
  name: string;
  kind: 'numeric' | 'categorical';
  /** Category levels (codes index them); empty for numeric features. */
  levels: string[];
}

export interface VariableImportance {
  variable: string;
  relative_importance: number;
  scaled_importance: number;
  percentage: number;
}

export interface ScoringEvent {
  number_of_trees: number;
  training: Record<string, number>;
  validation?: Record<string, number>;
}

/** Predictions: labels and row-major n x K probabilities for classifiers, values for regressors. */
export interface Prediction {
  label: string[] | null;
  probabilities: Float64Array | null;
  value: Float64Array | null;
}

/** A row given as an object keyed by feature name (numbers, strings, null/undefined = missing). */
export type RowObject = Record<string, number | string | boolean | null | undefined>;

/** Common interface of every trained tree model. */
export interface TrainedModel {
  algo: Algo;
  kind: ProblemKind;
  featureNames: string[];
  /** Margins, row-major n x nOutputs (nOutputs = K for multiclass, else 1). */
  predictRaw(input: Frame | RowObject[]): Float64Array;
  predict(input: Frame | RowObject[]): Prediction;
  varimp(): VariableImportance[];
  toJSON(): ModelJSON;
}

export interface TreeJSON {
  feature: number[];
  threshold: number[];
  categorical: number[];
  catStart: number[];
  catLength: number[];
  catCodes: number[];
  left: number[];
  right: number[];
  defaultLeft: number[];
  value: number[];
  cover: number[];
  count: number[];
  gain: number[];
}

export interface ModelJSON {
  format_version: 1;
  algo: Algo;
  kind: ProblemKind;
  features: FeatureSpec[];
  classes: string[];
  link: Link;
  /** Margin offset per output. */
  base_score: number[];
  /** 'sum' for boosting, 'average' (divide by trees per output) for forests. */
  aggregation: 'sum' | 'average';
  /** trees[k] are the trees of output k. */
  trees: TreeJSON[][];
  params: Record<string, unknown>;
  scoring_history: ScoringEvent[];
  /** Free-form training facts (distribution, out-of-bag metrics, stopping reason...). */
  info: Record<string, unknown>;
}

function treeToJSON(t: Tree): TreeJSON {
  return {
    feature: Array.from(t.feature),
    threshold: Array.from(t.threshold),
    categorical: Array.from(t.categorical),
    catStart: Array.from(t.catStart),
    catLength: Array.from(t.catLength),
    catCodes: Array.from(t.catCodes),
    left: Array.from(t.left),
    right: Array.from(t.right),
    defaultLeft: Array.from(t.defaultLeft),
    value: Array.from(t.value),
    cover: Array.from(t.cover),
    count: Array.from(t.count),
    gain: Array.from(t.gain),
  };
}

function treeFromJSON(j: TreeJSON): Tree {
  return {
    feature: Int32Array.from(j.feature),
    threshold: Float64Array.from(j.threshold),
    categorical: Uint8Array.from(j.categorical),
    catStart: Int32Array.from(j.catStart),
    catLength: Int32Array.from(j.catLength),
    catCodes: Int32Array.from(j.catCodes),
    left: Int32Array.from(j.left),
    right: Int32Array.from(j.right),
    defaultLeft: Uint8Array.from(j.defaultLeft),
    value: Float64Array.from(j.value),
    cover: Float64Array.from(j.cover),
    count: Float64Array.from(j.count),
    gain: Float64Array.from(j.gain),
  };
}

/** Feature values per feature: numbers (NaN missing) or category codes (-1 missing/unknown). */
export type FeatureMatrix = Float64Array[];

/**
 * Converts input (a frame, possibly with unexpanded datetimes, or row objects) into the model's
 * feature matrix, mapping category strings to the model's codes.
 */
export function toFeatureMatrix(features: FeatureSpec[], input: Frame | RowObject[]): FeatureMatrix {
  if (Array.isArray(input)) return rowsToMatrix(features, input);
  const frame = input.columns.some((c) => c.kind === 'datetime') ? expandDatetimes(input) : input;
  return features.map((spec) => {
    const j = frame.names.indexOf(spec.name);
    const out = new Float64Array(frame.nrows);
    if (j < 0) {
      out.fill(spec.kind === 'numeric' ? NaN : -1);
      return out;
    }
    const col: Column = frame.columns[j];
    if (spec.kind === 'numeric') {
      if (col.kind === 'numeric') out.set(col.values);
      else if (col.kind === 'categorical') for (let i = 0; i < frame.nrows; i++) out[i] = col.codes[i] < 0 ? NaN : Number(col.levels[col.codes[i]]);
      else out.set(col.epochMs);
      return out;
    }
    const index = new Map<string, number>();
    spec.levels.forEach((l, k) => index.set(l, k));
    if (col.kind === 'categorical') {
      const remap = col.levels.map((l) => index.get(l) ?? -1);
      for (let i = 0; i < frame.nrows; i++) out[i] = col.codes[i] < 0 ? -1 : remap[col.codes[i]];
    } else {
      const vals = col.kind === 'numeric' ? col.values : col.epochMs;
      for (let i = 0; i < frame.nrows; i++) out[i] = Number.isNaN(vals[i]) ? -1 : (index.get(String(vals[i])) ?? -1);
    }
    return out;
  });
}

function rowsToMatrix(features: FeatureSpec[], rows: RowObject[]): FeatureMatrix {
  return features.map((spec) => {
    const out = new Float64Array(rows.length);
    const index = new Map<string, number>();
    spec.levels.forEach((l, k) => index.set(l, k));
    for (let i = 0; i < rows.length; i++) {
      const v = getOwn(rows[i], spec.name);
      if (spec.kind === 'numeric') {
        out[i] = v === null || v === undefined || v === '' ? NaN : typeof v === 'boolean' ? Number(v) : Number(v);
      } else {
        out[i] = v === null || v === undefined || v === '' ? -1 : (index.get(typeof v === 'boolean' ? (v ? 'true' : 'false') : String(v)) ?? -1);
      }
    }
    return out;
  });
}

/** Tree ensemble model; GBM, XGBoost and DRF differ only in how they build it. */
export class TreeEnsembleModel implements TrainedModel {
  constructor(
    readonly algo: Algo,
    readonly kind: ProblemKind,
    readonly features: FeatureSpec[],
    readonly classes: string[],
    readonly link: Link,
    readonly baseScore: number[],
    readonly aggregation: 'sum' | 'average',
    readonly trees: Tree[][],
    readonly params: Record<string, unknown>,
    readonly scoringHistory: ScoringEvent[],
    readonly info: Record<string, unknown>,
  ) {}

  get featureNames(): string[] {
    return this.features.map((f) => f.name);
  }

  get nOutputs(): number {
    return this.trees.length;
  }

  /** Margins from a feature matrix, row-major n x nOutputs. */
  marginsFromMatrix(x: FeatureMatrix): Float64Array {
    const n = x.length ? x[0].length : 0;
    const K = this.nOutputs;
    const out = new Float64Array(n * K);
    // Tree by tree over all rows: one tree stays in cache where a deep forest does not. Each row still adds its
    // trees' values in tree order, so the sums are the same as row by row.
    const sums = new Float64Array(n);
    for (let k = 0; k < K; k++) {
      sums.fill(0);
      for (const t of this.trees[k]) {
        const { feature, value } = t;
        for (let i = 0; i < n; i++) {
          let node = 0;
          while (feature[node] >= 0) node = nextNode(t, node, x[feature[node]][i]);
          sums[i] += value[node];
        }
      }
      const nt = this.trees[k].length;
      for (let i = 0; i < n; i++) out[i * K + k] = this.baseScore[k] + (this.aggregation === 'average' && nt ? sums[i] / nt : sums[i]);
    }
    return out;
  }

  predictRaw(input: Frame | RowObject[]): Float64Array {
    return this.marginsFromMatrix(toFeatureMatrix(this.features, input));
  }

  predict(input: Frame | RowObject[]): Prediction {
    return this.predictFromMargins(this.predictRaw(input));
  }

  /** Applies the link: probabilities and argmax labels (first on ties), or values. */
  predictFromMargins(m: Float64Array): Prediction {
    if (this.kind === 'regression') {
      const value = this.link === 'log' ? m.map((v) => Math.exp(v)) : m.slice();
      return { label: null, probabilities: null, value };
    }
    const probs = marginsToProbabilities(m, this.link, this.kind === 'binary' ? 2 : this.nOutputs);
    const K = this.classes.length;
    const n = probs.length / K;
    const label: string[] = new Array(n);
    for (let i = 0; i < n; i++) {
      let best = 0;
      for (let k = 1; k < K; k++) if (probs[i * K + k] > probs[i * K + best]) best = k;
      label[i] = this.classes[best];
    }
    return { label, probabilities: probs, value: null };
  }

  /**
   * Variable importance as H2O reports it: relative = total split gain (squared-error reduction
   * for squared-error trees), scaled = relative / max, percentage = relative / sum.
   */
  varimp(): VariableImportance[] {
    const rel = new Float64Array(this.features.length);
    for (const ts of this.trees) for (const t of ts) for (let i = 0; i < t.feature.length; i++) if (t.feature[i] >= 0) rel[t.feature[i]] += t.gain[i];
    const max = Math.max(0, ...rel);
    const sum = rel.reduce((a, b) => a + b, 0);
    return this.features
      .map((f, j) => ({ variable: f.name, relative_importance: rel[j], scaled_importance: max > 0 ? rel[j] / max : 0, percentage: sum > 0 ? rel[j] / sum : 0 }))
      .sort((a, b) => b.relative_importance - a.relative_importance || a.variable.localeCompare(b.variable));
  }

  toJSON(): ModelJSON {
    return {
      format_version: 1,
      algo: this.algo,
      kind: this.kind,
      features: this.features.map((f) => ({ name: f.name, kind: f.kind, levels: f.levels.slice() })),
      classes: this.classes.slice(),
      link: this.link,
      base_score: this.baseScore.slice(),
      aggregation: this.aggregation,
      trees: this.trees.map((ts) => ts.map(treeToJSON)),
      params: this.params,
      scoring_history: this.scoringHistory,
      info: this.info,
    };
  }

  /** Restores a model from toJSON() output (also after a JSON.stringify/parse round trip). */
  static fromJSON(j: ModelJSON): TreeEnsembleModel {
    if (j.format_version !== 1) throw new Error(`unsupported model format_version ${String(j.format_version)}`);
    return new TreeEnsembleModel(
      j.algo,
      j.kind,
      j.features,
      j.classes,
      j.link,
      j.base_score,
      j.aggregation,
      j.trees.map((ts) => ts.map(treeFromJSON)),
      j.params,
      j.scoring_history,
      j.info,
    );
  }
}

/** Probabilities (row-major n x K) from margins (n x nOutputs) under a link. */
export function marginsToProbabilities(m: Float64Array, link: Link, K: number): Float64Array {
  if (K === 2 && (link === 'logistic' || link === 'average')) {
    const n = m.length;
    const out = new Float64Array(n * 2);
    for (let i = 0; i < n; i++) {
      const p = link === 'logistic' ? 1 / (1 + Math.exp(-m[i])) : Math.min(1, Math.max(0, m[i]));
      out[2 * i] = 1 - p;
      out[2 * i + 1] = p;
    }
    return out;
  }
  const n = m.length / K;
  const out = new Float64Array(m.length);
  for (let i = 0; i < n; i++) {
    if (link === 'softmax') {
      let mx = -Infinity;
      for (let k = 0; k < K; k++) mx = Math.max(mx, m[i * K + k]);
      let s = 0;
      for (let k = 0; k < K; k++) s += out[i * K + k] = Math.exp(m[i * K + k] - mx);
      for (let k = 0; k < K; k++) out[i * K + k] /= s;
    } else {
      let s = 0;
      for (let k = 0; k < K; k++) s += Math.max(0, m[i * K + k]);
      for (let k = 0; k < K; k++) out[i * K + k] = s > 0 ? Math.max(0, m[i * K + k]) / s : 1 / K;
    }
  }
  return out;
}
