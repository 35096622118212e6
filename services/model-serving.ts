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

export type InputRow = Record<string, unknown>;

interface Loaded {
  model: ScoringModel;
  schema: ColumnSchema[];
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
    const schema = (version?.columns ?? model.features.map((f) => ({ name: f.name, dtype: f.kind === 'numeric' ? 'float64' : 'object' }))).filter((c) => c.name !== exp.targetColumn);
    const threshold = typeof m.metrics.threshold === 'number' ? m.metrics.threshold : null;
    const loaded = { model, schema, threshold, onnxArtifact };
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

  /**
   * Predicts rows. Binary labels use the model's persisted operating threshold.
   * Throws a ValidationError naming the column for inputs that do not fit the schema.
   */
  async predict(m: Model, rows: InputRow[], opts: { contributions?: boolean } = {}) {
    const l = await this.load(m);
    const frame = rowsToFrame(rows, l.schema);
    return this.predictFrame(m, l, frame, opts);
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

/**
 * Request rows → a frame typed by the training schema. Numbers may come as numeric strings;
 * datetimes as ISO strings or epoch milliseconds; unknown keys are ignored; absent features
 * are missing values (trees route them by their learned default). Inputs are read as own
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
