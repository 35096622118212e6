import type { DataSource } from 'typeorm';
import { Artifact, DatasetVersion, Experiment, Model } from '../entities';
import type { ColumnSchema } from '../entities';
import { categoricalFromStrings, Column, Frame, makeFrame, modelFromJSON, ScoringModel } from '../engine/automl';
import { getOwn, setOwn } from '../engine/own-keys';
import { OnnxSessionPool } from '../engine/serving';
import type { ArtifactStore } from '../platform/artifact-store';
import { TtlCache } from '../platform/ttl-cache';
import type { Access } from './access';
import { FieldIssue, InternalError, ValidationError } from './errors';
import { ignoredColumns } from './experiments';

export type InputRow = Record<string, unknown>;

interface Loaded {
  model: ScoringModel;
  schema: ColumnSchema[];
  /** The schema's names, in its order, and as a set: what a request row is checked against. */
  features: readonly string[];
  featureSet: ReadonlySet<string>;
  /** The training target: a pasted training row carries it, and it is ignored without a warning. */
  target: string | null;
  threshold: number | null;
  onnxArtifact: Artifact;
}

export interface PredictionOut {
  prediction: string | number;
  probabilities?: Record<string, number>;
}

const ACCESS_CACHE_MS = 5_000;
const NUMERIC_DTYPES = new Set(['int64', 'float64']);
const BOOL_WORDS = new Map<string, boolean>([
  ['true', true],
  ['false', false],
  ['t', true],
  ['f', false],
  ['yes', true],
  ['no', false],
  ['y', true],
  ['n', false],
  ['1', true],
  ['0', false],
]);

/**
 * Scores models with ONNX Runtime (sessions cached in a bounded pool), converting request
 * rows with the training schema, and explains them with TreeSHAP on the TypeScript model.
 */
export class ModelServing {
  private readonly models = new Map<string, Loaded>();
  /**
   * (user, model) → the model row, for ACCESS_CACHE_MS: a busy client pays no membership
   * query per prediction. Deletes and membership changes made through this process forget
   * entries at once; other API processes notice within ACCESS_CACHE_MS.
   */
  private readonly accessCache = new TtlCache<string, Model>(ACCESS_CACHE_MS);
  /** Caches built on this one's decisions (deployment targets) forget with it. */
  private readonly forgetListeners: (() => void)[] = [];
  /** Told of every scored batch (the API's metrics count predictions per model). */
  private readonly predictionListeners: ((modelId: string, rows: number) => void)[] = [];

  constructor(
    private readonly ds: DataSource,
    private readonly store: ArtifactStore,
    private readonly access: Access,
    readonly pool = new OnnxSessionPool(32),
    private readonly capacity = 64,
  ) {}

  private async load(m: Model): Promise<Loaded> {
    const hit = this.models.get(m.id);
    if (hit) return hit;
    const exp = await this.ds.getRepository(Experiment).findOneByOrFail({ id: m.experimentId });
    const version = await this.ds.getRepository(DatasetVersion).findOneBy({ id: exp.datasetVersionId });
    const artifact = await this.ds.getRepository(Artifact).findOneByOrFail({ id: m.artifactId });
    const onnxArtifact = await this.ds.getRepository(Artifact).findOneByOrFail({ id: m.onnxArtifactId as string });
    const model = modelFromJSON(JSON.parse(await readAll(this.store, artifact.storageKey)));
    // The experiment's ignored columns are no input (config.ignored_columns): a row that sends one is warned about it.
    const ignored = new Set(ignoredColumns(exp.config));
    const schema = (version?.columns ?? model.features.map((f) => ({ name: f.name, dtype: f.kind === 'numeric' ? 'float64' : 'object' }))).filter(
      (c) => c.name !== exp.targetColumn && !ignored.has(c.name),
    );
    const threshold = typeof m.metrics.threshold === 'number' ? m.metrics.threshold : null;
    const features = schema.map((c) => c.name);
    const loaded = { model, schema, features, featureSet: new Set(features), target: exp.targetColumn, threshold, onnxArtifact };
    this.models.set(m.id, loaded);
    while (this.models.size > this.capacity) this.models.delete(this.models.keys().next().value as string);
    return loaded;
  }

  /** The model if the user may read it (404 otherwise), from the short-lived access cache. */
  async modelFor(userId: string, modelId: string): Promise<Model> {
    return this.accessCache.getOrLoad(`${userId}:${modelId}`, () => this.access.model(userId, modelId));
  }

  /** Calls `listener` with the model id and the row count of every batch scored from now on (single, batch, deployment and studio predictions alike). */
  onPredicted(listener: (modelId: string, rows: number) => void): void {
    this.predictionListeners.push(listener);
  }

  /** Input schema of a model: feature name → dtype, as users send it (target excluded). */
  async schema(m: Model): Promise<ColumnSchema[]> {
    return (await this.load(m)).schema;
  }

  /** The input columns of a model this process has loaded (null otherwise): what an inference log keeps of a row. */
  inputColumns(m: Model): ReadonlySet<string> | null {
    return this.models.get(m.id)?.featureSet ?? null;
  }

  /**
   * Predicts rows. Binary labels use the model's persisted operating threshold. Throws a ValidationError naming the
   * column for inputs that do not fit the schema, and the rows that share no column with it; rows with keys that are
   * not inputs, or without some features, are scored and come back with `warnings` naming them.
   */
  async predict(m: Model, rows: InputRow[], opts: { contributions?: boolean } = {}) {
    const l = await this.load(m);
    const warnings = schemaWarnings(rows, l);
    const frame = rowsToFrame(rows, l.schema);
    return { ...(await this.predictFrame(m, l, frame, opts)), warnings };
  }

  async predictFrame(m: Model, l: Loaded | null, frame: Frame, opts: { contributions?: boolean } = {}) {
    const loaded = l ?? (await this.load(m));
    const { model } = loaded;
    const onnxBytes = async () => Buffer.from(await readAll(this.store, loaded.onnxArtifact.storageKey, null));
    const output = model.kind === 'regression' ? 'variable' : 'probabilities';
    let scores: Float32Array;
    let hit: boolean;
    try {
      const r = await this.pool.run(m.id, onnxBytes, model.onnxFeeds(frame), frame.nrows, [output]);
      scores = r.outputs[output];
      hit = r.hit;
    } catch {
      throw new InternalError('Prediction failed');
    }
    const n = frame.nrows;
    for (const listener of this.predictionListeners) listener(m.id, n);
    const predictions: PredictionOut[] = [];
    if (model.kind === 'regression') {
      for (let i = 0; i < n; i++) predictions.push({ prediction: scores[i] });
    } else {
      const K = model.classes.length;
      for (let i = 0; i < n; i++) {
        const p: Record<string, number> = {};
        let best = 0;
        for (let k = 0; k < K; k++) {
          setOwn(p, model.classes[k], scores[i * K + k]);
          if (scores[i * K + k] > scores[i * K + best]) best = k;
        }
        if (model.kind === 'binary' && loaded.threshold !== null) best = scores[i * K + 1] >= loaded.threshold ? 1 : 0;
        predictions.push({ prediction: model.classes[best], probabilities: p });
      }
    }
    let contributions: { feature: string; value: number }[][] | undefined;
    if (opts.contributions) {
      if (model.algo === 'StackedEnsemble') throw new ValidationError('Contributions are not available for StackedEnsemble models');
      if (model.kind === 'multiclass') {
        // One output per class: explain the class each row was predicted as.
        contributions = predictions.map((p, i) => model.contributions(sliceFrame(frame, i), model.classes.indexOf(String(p.prediction)))?.[0] ?? []);
      } else {
        contributions = model.contributions(frame, 0) ?? undefined;
      }
    }
    return { predictions, contributions, cache: hit ? 'hit' : 'miss', threshold: loaded.threshold, classes: model.classes, kind: model.kind };
  }

  forget(modelId: string): void {
    this.models.delete(modelId);
    this.accessCache.deleteWhere((_, m) => m.id === modelId);
    for (const f of this.forgetListeners) f();
  }

  /** Project membership, project or experiment deletions: access is decided afresh. */
  forgetAccess(): void {
    this.accessCache.clear();
    for (const f of this.forgetListeners) f();
  }

  /** Calls `f` whenever this process forgets access decisions or a model. */
  onForget(f: () => void): void {
    this.forgetListeners.push(f);
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}

function sliceFrame(frame: Frame, i: number): Frame {
  return makeFrame(
    frame.names,
    frame.columns.map((c): Column => {
      if (c.kind === 'numeric') return { kind: 'numeric', values: c.values.subarray(i, i + 1) };
      if (c.kind === 'datetime') return { kind: 'datetime', epochMs: c.epochMs.subarray(i, i + 1) };
      return { kind: 'categorical', codes: c.codes.subarray(i, i + 1), levels: c.levels };
    }),
  );
}

async function readAll(store: ArtifactStore, key: string, encoding: BufferEncoding | null = 'utf8'): Promise<string & Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of store.read(key)) chunks.push(c as Buffer);
  const buf = Buffer.concat(chunks);
  return (encoding ? buf.toString(encoding) : buf) as string & Buffer;
}

/** A note on rows that were scored anyway: keys that are not inputs of the model, or features a row did not send. */
export interface InputWarning {
  type: 'unknown_columns' | 'missing_features';
  /** The columns, in the order first met (at most MAX_WARNED_COLUMNS, each at most MAX_NAME_LENGTH characters). */
  columns: string[];
  /** Indexes of the rows concerned (at most MAX_WARNED_ROWS). */
  rows: number[];
  message: string;
}

/** A warning names at most this many columns and rows, and a name at most this long: a row may have thousands of keys. */
const MAX_WARNED_COLUMNS = 50;
const MAX_WARNED_ROWS = 100;
const MAX_NAME_LENGTH = 200;

/** At most `max` names of `names`, and how many more there are. */
function listed(names: readonly string[], total = names.length, max = MAX_WARNED_COLUMNS): string {
  const shown = names.slice(0, max).join(', ');
  return total > max ? `${shown} and ${total - max} more` : shown;
}

/** Distinct values in the order first met, the first `max` kept, all counted. */
class FirstSeen {
  readonly kept: string[] = [];
  private readonly seen = new Set<string>();
  constructor(private readonly max: number) {}
  add(v: string): void {
    if (this.seen.has(v)) return;
    this.seen.add(v);
    if (this.kept.length < this.max) this.kept.push(v.length > MAX_NAME_LENGTH ? `${v.slice(0, MAX_NAME_LENGTH)}…` : v);
  }
  get count(): number {
    return this.seen.size;
  }
}

/**
 * How request rows meet the training schema (own keys only). A row that shares no column with it would be scored
 * from nothing but missing values, so it is refused with the spec's "Prediction failed" and the expected columns
 * (422: the request is at fault). Keys that are not inputs (the target column aside) are ignored, and features not
 * sent are scored as missing values, as trees and GLMs handle them; both are named in the warnings, not silently.
 */
export function schemaWarnings(rows: InputRow[], l: Pick<Loaded, 'features' | 'featureSet' | 'target'>): InputWarning[] {
  const unknown = new FirstSeen(MAX_WARNED_COLUMNS);
  const missing = new FirstSeen(MAX_WARNED_COLUMNS);
  const unknownRows: number[] = [];
  const missingRows: number[] = [];
  const empty: number[] = [];
  rows.forEach((r, i) => {
    let shared = 0;
    let strays = false;
    for (const k of Object.keys(r)) {
      if (l.featureSet.has(k)) shared++;
      else if (k !== l.target) {
        strays = true;
        unknown.add(k);
      }
    }
    if (shared === 0) {
      empty.push(i);
      return;
    }
    if (strays) unknownRows.push(i);
    if (shared < l.features.length) {
      missingRows.push(i);
      for (const f of l.features) if (!Object.hasOwn(r, f)) missing.add(f);
    }
  });
  if (empty.length) {
    const which = empty.length === 1 ? `row ${empty[0]} has` : `rows ${listed(empty.map(String), empty.length, 10)} have`;
    throw new ValidationError(`Prediction failed: inputs must match the training schema; ${which} none of its columns (expected: ${listed(l.features)})`);
  }
  const share = (n: number) => (rows.length === 1 ? '' : ` (${n} of ${rows.length} rows)`);
  const warnings: InputWarning[] = [];
  if (unknownRows.length)
    warnings.push({
      type: 'unknown_columns',
      columns: unknown.kept,
      rows: unknownRows.slice(0, MAX_WARNED_ROWS),
      message: `Not input columns of the model, ignored: ${listed(unknown.kept, unknown.count)}${share(unknownRows.length)}`,
    });
  if (missingRows.length)
    warnings.push({
      type: 'missing_features',
      columns: missing.kept,
      rows: missingRows.slice(0, MAX_WARNED_ROWS),
      message: `Features not sent, predicted as missing values: ${listed(missing.kept, missing.count)}${share(missingRows.length)}`,
    });
  return warnings;
}

/**
 * Request rows → a frame typed by the training schema. Numbers may come as numeric strings;
 * datetimes as ISO strings or epoch milliseconds; unknown keys are ignored; absent features
 * are missing values (trees route them by their learned default; {@link schemaWarnings} names both). Inputs are read as own
 * properties: a feature named `constructor` or `toString` absent from a row is missing, not
 * Object's function.
 */
export function rowsToFrame(rows: InputRow[], schema: ColumnSchema[]): Frame {
  const issues: FieldIssue[] = [];
  const columns: Column[] = schema.map((c) => {
    if (NUMERIC_DTYPES.has(c.dtype)) {
      const values = new Float64Array(rows.length);
      rows.forEach((r, i) => {
        const v = getOwn(r, c.name);
        if (v === null || v === undefined || v === '') values[i] = NaN;
        else if (typeof v === 'number' && Number.isFinite(v)) values[i] = v;
        else if (typeof v === 'boolean') values[i] = Number(v);
        else if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) values[i] = Number(v);
        else issues.push({ loc: ['body', 'inputs', i, c.name], msg: `${c.name} must be a number`, type: 'type_error' });
      });
      return { kind: 'numeric', values };
    }
    if (c.dtype === 'datetime64') {
      const epochMs = new Float64Array(rows.length);
      rows.forEach((r, i) => {
        const v = getOwn(r, c.name);
        const t = v === null || v === undefined || v === '' ? NaN : typeof v === 'number' ? v : typeof v === 'string' ? Date.parse(v) : NaN;
        if (Number.isNaN(t) && v !== null && v !== undefined && v !== '') issues.push({ loc: ['body', 'inputs', i, c.name], msg: `${c.name} must be a date/time`, type: 'type_error' });
        epochMs[i] = t;
      });
      return { kind: 'datetime', epochMs };
    }
    if (c.dtype === 'bool') {
      // Stored booleans read back as 'true'/'false'; accept the spellings CSV files use.
      return categoricalFromStrings(
        rows.map((r, i) => {
          const v = getOwn(r, c.name);
          if (v === null || v === undefined || v === '') return null;
          const b = typeof v === 'boolean' ? v : BOOL_WORDS.get(String(v).trim().toLowerCase());
          if (b === undefined) {
            issues.push({ loc: ['body', 'inputs', i, c.name], msg: `${c.name} must be a boolean`, type: 'type_error' });
            return null;
          }
          return b ? 'true' : 'false';
        }),
      );
    }
    return categoricalFromStrings(
      rows.map((r, i) => {
        const v = getOwn(r, c.name);
        if (v === null || v === undefined) return null;
        if (typeof v === 'object') {
          issues.push({ loc: ['body', 'inputs', i, c.name], msg: `${c.name} must be a string, number or boolean`, type: 'type_error' });
          return null;
        }
        // Booleans are stored as the strings DuckDB writes for them.
        return typeof v === 'boolean' ? (v ? 'true' : 'false') : String(v);
      }),
    );
  });
  if (issues.length) throw new ValidationError(issues);
  return makeFrame(
    schema.map((c) => c.name),
    columns,
  );
}
