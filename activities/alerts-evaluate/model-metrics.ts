import type { DataSource } from 'typeorm';
import { MoreThan } from 'typeorm';
import { DatasetVersion, type Deployment, Experiment, Model } from '../../entities';
import { binCounts, driftReport, type DriftFeatureSpec, psiFromCounts, referenceDistribution, type ReferenceDistribution } from '../../engine/data';
import { TtlCache } from '../../platform/ttl-cache';
import { sameLabel } from '../../services/outcome-labels';
import type { Measurement, MetricSources, Window } from './metrics';

type ReferenceBins = ReferenceDistribution['features'][string];

/**
 * The metrics that need the deployed model: drift of the window's inputs and of its predictions against training
 * time, accuracy on ground truth (or estimated without it), and the model's age. Rows read into memory are capped:
 * the newest of the window count, as in a drift run (activities/drift-compute/compute.ts).
 */

/** Logged input rows a drift or accuracy estimate reads at most, ... */
const MAX_WINDOW_ROWS = 5_000;
/** ... and at most this many values (rows × features). */
const MAX_WINDOW_CELLS = 1_000_000;
/** Rows re-scored for a confidence-based accuracy estimate. */
const MAX_ESTIMATE_ROWS = 2_000;
/** Labelled predictions and regression predictions read at most. */
const MAX_LABELLED = 50_000;

/**
 * Training-time distributions, per model and feature set: computed by DuckDB over the training Parquet file (seconds
 * on a large dataset), so an evaluation every minute reads it once per ten minutes per worker process.
 */
const references = new TtlCache<string, ReferenceDistribution>(10 * 60_000, 200);

interface Trained {
  model: Model;
  experiment: Experiment;
  version: DatasetVersion;
}

async function trainedModel(ds: DataSource, d: Deployment): Promise<Trained | null> {
  const model = await ds.getRepository(Model).findOneBy({ id: d.modelId });
  const experiment = model && (await ds.getRepository(Experiment).findOneBy({ id: model.experimentId }));
  const version = experiment && (await ds.getRepository(DatasetVersion).findOneBy({ id: experiment.datasetVersionId }));
  return model && experiment && version ? { model, experiment, version } : null;
}

function none(d: Deployment, samples = 0): Measurement {
  return { deploymentId: d.id, value: null, samples, estimated: false, sufficient: false, labels: {} };
}

function reference(src: MetricSources, t: Trained, features: DriftFeatureSpec[]): Promise<ReferenceDistribution> {
  const key = `${t.model.id}:${features.map((f) => `${f.name}/${f.dtype}`).join('|')}`;
  return references.getOrLoad(key, async () => referenceDistribution(await src.datasetVersions.parquetPath(t.version), features));
}

/** The model's input features, less the columns the deployment masks in stored payloads (placeholders, not data). */
async function inputFeatures(src: MetricSources, d: Deployment, model: Model): Promise<DriftFeatureSpec[]> {
  const masked = new Set(Object.keys((d.config as { privacy_column_map?: Record<string, string> }).privacy_column_map ?? {}));
  return (await src.serving.schema(model)).filter((c) => !masked.has(c.name)).map((c) => ({ name: c.name, dtype: c.dtype }));
}

/** The window's newest logged input rows (answered 200, stored with their payload); a batch request's log holds several. */
async function windowInputs(ds: DataSource, deploymentId: string, window: Window, limit: number): Promise<Record<string, unknown>[]> {
  const rows: { r: Record<string, unknown> }[] = await ds.query(
    `SELECT r FROM (SELECT inputs, created_at, id FROM inference_logs
                     WHERE deployment_id = $1 AND created_at >= $2 AND created_at < $3 AND inputs IS NOT NULL AND status_code = 200
                     ORDER BY created_at DESC LIMIT $4) l
       CROSS JOIN LATERAL jsonb_array_elements(CASE jsonb_typeof(l.inputs) WHEN 'array' THEN l.inputs ELSE jsonb_build_array(l.inputs) END) r
      WHERE jsonb_typeof(r) = 'object'
      ORDER BY l.created_at DESC, l.id DESC LIMIT $4`,
    [deploymentId, window.since, window.until, limit],
  );
  return rows.map((x) => x.r);
}

/** drift_psi: the worst feature's PSI of the window's logged inputs against the model's training data. */
export async function driftPsi(src: MetricSources, d: Deployment, window: Window, minSamples: number): Promise<Measurement> {
  const t = await trainedModel(src.ds, d);
  if (!t) return none(d);
  const features = await inputFeatures(src, d, t.model);
  const rows = await windowInputs(src.ds, d.id, window, Math.max(1, Math.min(MAX_WINDOW_ROWS, Math.floor(MAX_WINDOW_CELLS / Math.max(1, features.length)))));
  if (!rows.length) return none(d);
  const report = driftReport(await reference(src, t, features), features, rows);
  return { deploymentId: d.id, value: report.max_psi, samples: rows.length, estimated: false, sufficient: rows.length >= minSamples, labels: {} };
}

const isClassification = (t: Trained) => t.experiment.problemKind === 'binary' || t.experiment.problemKind === 'multiclass';

/**
 * prediction_anomaly: PSI of the window's predictions against the training-time prediction distribution. For a
 * classifier that is the class distribution of its own validation predictions (the columns of the confusion matrix
 * stored with its metrics: cross-validated, or on the validation split), else the training target's; for a
 * regression the training target's deciles (the model's validation predictions are not stored).
 */
export async function predictionAnomaly(src: MetricSources, d: Deployment, window: Window, minSamples: number): Promise<Measurement> {
  const t = await trainedModel(src.ds, d);
  if (!t) return none(d);
  const target: DriftFeatureSpec = { name: t.experiment.targetColumn, dtype: isClassification(t) ? 'string' : 'float64' };
  let expected: number[];
  let actual: number[];
  if (isClassification(t)) {
    const ref = validationClasses(t.model) ?? categoricalOf((await reference(src, t, [target])).features[target.name]);
    if (!ref) return none(d);
    const counts: { label: string; n: number }[] = await src.ds.query(
      `SELECT p #>> '{}' AS label, count(*)::int AS n FROM inference_logs l
         CROSS JOIN LATERAL jsonb_array_elements(CASE jsonb_typeof(l.prediction) WHEN 'array' THEN l.prediction ELSE jsonb_build_array(l.prediction) END) p
        WHERE l.deployment_id = $1 AND l.created_at >= $2 AND l.created_at < $3 AND l.status_code = 200 AND l.prediction IS NOT NULL
        GROUP BY 1`,
      [d.id, window.since, window.until],
    );
    const index = new Map(ref.labels.map((l, i) => [l, i]));
    actual = new Array<number>(ref.labels.length + 1).fill(0);
    for (const c of counts) actual[index.get(c.label) ?? ref.labels.length] += c.n;
    expected = [...ref.counts, 0];
  } else {
    const bins = (await reference(src, t, [target])).features[target.name];
    if (!bins || bins.kind !== 'numeric') return none(d);
    const values: { v: number }[] = await src.ds.query(
      `SELECT (p #>> '{}')::double precision AS v FROM (SELECT prediction FROM inference_logs
                WHERE deployment_id = $1 AND created_at >= $2 AND created_at < $3 AND status_code = 200 AND prediction IS NOT NULL
                ORDER BY created_at DESC LIMIT $4) l
         CROSS JOIN LATERAL jsonb_array_elements(CASE jsonb_typeof(l.prediction) WHEN 'array' THEN l.prediction ELSE jsonb_build_array(l.prediction) END) p
        WHERE jsonb_typeof(p) = 'number' LIMIT $4`,
      [d.id, window.since, window.until, MAX_LABELLED],
    );
    actual = binCounts(
      values.map((x) => x.v),
      bins.edges,
    );
    expected = bins.counts;
  }
  const samples = actual.reduce((a, b) => a + b, 0);
  if (!samples) return none(d);
  return { deploymentId: d.id, value: psiFromCounts(expected, actual), samples, estimated: false, sufficient: samples >= minSamples, labels: {} };
}

/** The class distribution of a classifier's validation predictions: its confusion matrix's columns (rows are actual). */
function validationClasses(model: Model): { labels: string[]; counts: number[] } | null {
  const cm = (model.metrics as { confusion_matrix?: { labels?: unknown; matrix?: unknown } }).confusion_matrix;
  if (!cm || !Array.isArray(cm.labels) || !Array.isArray(cm.matrix)) return null;
  const labels = cm.labels.map(String);
  const counts = labels.map((_, j) => (cm.matrix as number[][]).reduce((s, row) => s + (Number(row?.[j]) || 0), 0));
  return counts.some((c) => c > 0) ? { labels, counts } : null;
}

function categoricalOf(bins: ReferenceBins | undefined): { labels: string[]; counts: number[] } | null {
  return bins?.kind === 'categorical' && bins.categories.length ? { labels: bins.categories, counts: bins.counts } : null;
}

/** (predicted, actual) pairs of the window's labelled predictions: a batch request pairs its rows with an array of outcomes. */
async function labelledPairs(ds: DataSource, deploymentId: string, window: Window): Promise<[unknown, unknown][]> {
  const rows: { prediction: unknown; actual: unknown }[] = await ds.query(
    `SELECT l.prediction, f.actual FROM inference_logs l
       JOIN inference_feedback f ON f.deployment_id = l.deployment_id AND f.request_id = l.request_id
      WHERE l.deployment_id = $1 AND l.created_at >= $2 AND l.created_at < $3 AND l.status_code = 200 AND l.prediction IS NOT NULL
      ORDER BY l.created_at DESC LIMIT $4`,
    [deploymentId, window.since, window.until, MAX_LABELLED],
  );
  const pairs: [unknown, unknown][] = [];
  for (const r of rows) {
    const ps = Array.isArray(r.prediction) ? r.prediction : [r.prediction];
    const as = Array.isArray(r.actual) ? r.actual : [r.actual];
    // An outcome list that does not match the request's rows cannot be paired: left out rather than guessed.
    if (ps.length !== as.length) continue;
    ps.forEach((p, i) => pairs.push([p, as[i]]));
  }
  return pairs;
}

const metricOf = (model: Model, key: string): number | null => {
  const v = (model.metrics as Record<string, unknown>)[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
};

/**
 * accuracy_degradation: how much worse the model does on ground truth than on validation. Classification: validation
 * accuracy − accuracy on the window's labelled predictions; regression: the relative increase of RMSE. With fewer than
 * `min_samples` labelled predictions a classifier's accuracy is estimated as NannyML's CBPE does: the mean probability
 * of the predicted class (its expected correctness, the probabilities being calibrated) over the window's logged
 * inputs, re-scored by the model (inference logs keep labels, not probabilities), `estimated: true`.
 */
export async function accuracyDegradation(src: MetricSources, d: Deployment, window: Window, minSamples: number): Promise<Measurement> {
  const t = await trainedModel(src.ds, d);
  if (!t) return none(d);
  const pairs = await labelledPairs(src.ds, d.id, window);
  if (!isClassification(t)) {
    const rmse = metricOf(t.model, 'rmse');
    const errors = pairs.map(([p, a]) => Number(p) - Number(a)).filter((e) => Number.isFinite(e));
    if (rmse === null || rmse <= 0 || !errors.length) return none(d, errors.length);
    const observed = Math.sqrt(errors.reduce((s, e) => s + e * e, 0) / errors.length);
    return { deploymentId: d.id, value: (observed - rmse) / rmse, samples: errors.length, estimated: false, sufficient: errors.length >= minSamples, labels: {} };
  }
  const validation = metricOf(t.model, 'accuracy');
  if (validation === null) return none(d, pairs.length);
  if (pairs.length && pairs.length >= minSamples) {
    const correct = pairs.filter(([p, a]) => sameLabel(a, p)).length;
    return { deploymentId: d.id, value: validation - correct / pairs.length, samples: pairs.length, estimated: false, sufficient: true, labels: {} };
  }
  const expected = await expectedAccuracy(src, d, t.model, window);
  if (!expected) return none(d, pairs.length);
  return { deploymentId: d.id, value: validation - expected.accuracy, samples: expected.rows, estimated: true, sufficient: expected.rows >= minSamples, labels: {} };
}

/** CBPE's expected accuracy of the window's logged inputs: the mean probability of each row's predicted class. */
async function expectedAccuracy(src: MetricSources, d: Deployment, model: Model, window: Window): Promise<{ accuracy: number; rows: number } | null> {
  const rows = await windowInputs(src.ds, d.id, window, MAX_ESTIMATE_ROWS);
  if (!rows.length) return null;
  let out;
  try {
    out = await src.serving.predict(model, rows);
  } catch {
    // Rows the model no longer takes (a masked column, a changed schema): no estimate rather than a failed cycle.
    return null;
  }
  const probs = out.predictions.map((p) => p.probabilities?.[String(p.prediction)]).filter((p): p is number => typeof p === 'number' && Number.isFinite(p));
  if (!probs.length) return null;
  return { accuracy: probs.reduce((a, b) => a + b, 0) / probs.length, rows: probs.length };
}

/** model_staleness: days since the model was trained; labelled `newer_dataset_version` when its dataset has a newer version. */
export async function modelStaleness(ds: DataSource, d: Deployment, now: Date): Promise<Measurement> {
  const t = await trainedModel(ds, d);
  if (!t) return none(d);
  const newer = await ds.getRepository(DatasetVersion).exists({ where: { datasetId: t.version.datasetId, version: MoreThan(t.version.version) } });
  const days = (now.getTime() - t.model.createdAt.getTime()) / 86_400_000;
  return { deploymentId: d.id, value: days, samples: 1, estimated: false, sufficient: true, labels: newer ? { newer_dataset_version: 'true' } : {} };
}
