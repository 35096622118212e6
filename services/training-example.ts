import { access as fileExists } from 'node:fs/promises';
import type { DataSource } from 'typeorm';
import { DatasetVersion, Deployment, Experiment, Model } from '../entities';
import { readTextColumns, typicalValues, type TypicalValue } from '../engine/data';
import { detectColumns, type ColumnFinding } from '../engine/privacy';
import { TtlCache } from '../platform/ttl-cache';
import type { DatasetVersions } from './dataset-versions';
import type { ModelServing } from './model-serving';
import { anonymizeText, DEFAULT_PRIVACY_THRESHOLD } from './payload-privacy';

/**
 * Rows a typical value must stand for before an example shows it: a median of fewer rows, or a
 * "most frequent" value fewer rows share, is close to being those rows' own value (the most
 * frequent value of an identifier column is one row's).
 */
export const EXAMPLE_MIN_SUPPORT = 5;
/** Rows read (a reproducible sample) to find the columns that hold PII. */
const DETECTION_SAMPLE_ROWS = 500;
/** Findings kept in the cache, whatever a deployment's threshold; each example applies its own. */
const DETECTION_FLOOR = 0.3;
/** A version never changes, so its statistics only leave the cache to bound memory and to notice a lost file. */
const PROFILE_CACHE_MS = 10 * 60_000;
const PROFILE_CACHE_ENTRIES = 256;

export const EXAMPLE_FROM_STATISTICS = 'training_statistics';
export const EXAMPLE_UNAVAILABLE = 'unavailable';

export interface TrainingExample {
  row: Record<string, unknown>;
  /** {@link EXAMPLE_FROM_STATISTICS}, or {@link EXAMPLE_UNAVAILABLE} (and an empty row) when the training data is gone. */
  source: string;
  datasetVersionId: string | null;
  targetColumn: string | null;
}

/** What an example is built from: per column a typical value, and the PII found in a sample. */
interface VersionProfile {
  typical: Record<string, TypicalValue>;
  findings: ColumnFinding[];
}

/**
 * The example input of a deployment (studio schema, API docs): a typical value per feature from
 * statistics of the model's training data, never a row of it. A key that may call these routes
 * (`read:studio`, `read:deployments`) need not be able to read the dataset, and a training row
 * is some person's record. Columns the deployment's `privacy_column_map` masks, and columns the
 * privacy engine finds PII in, show a placeholder; text values have the PII inside them redacted.
 */
export class TrainingExamples {
  private readonly profiles = new TtlCache<string, VersionProfile>(PROFILE_CACHE_MS, PROFILE_CACHE_ENTRIES);

  constructor(
    private readonly ds: DataSource,
    private readonly serving: ModelServing,
    private readonly datasetVersions: DatasetVersions,
  ) {}

  async of(deployment: Deployment, model: Model): Promise<TrainingExample> {
    const exp = await this.ds.getRepository(Experiment).findOneBy({ id: model.experimentId });
    const version = exp ? await this.ds.getRepository(DatasetVersion).findOneBy({ id: exp.datasetVersionId }) : null;
    const schema = await this.serving.schema(model);
    const unavailable = { row: {}, source: EXAMPLE_UNAVAILABLE, datasetVersionId: version?.id ?? null, targetColumn: exp?.targetColumn ?? null };
    if (!exp || !version) return unavailable;
    let profile: VersionProfile;
    try {
      // Looked for on every call, cached statistics or not: an example is offered only while its training data exists.
      const path = await this.datasetVersions.parquetPath(version);
      await fileExists(path);
      profile = await this.profiles.getOrLoad(version.id, () => profileOf(path, version));
    } catch {
      return unavailable;
    }
    const row = exampleRow(schema, profile, privacyOf(deployment));
    return { row, source: EXAMPLE_FROM_STATISTICS, datasetVersionId: version.id, targetColumn: exp.targetColumn };
  }
}

async function profileOf(path: string, version: DatasetVersion): Promise<VersionProfile> {
  const typical = await typicalValues(
    path,
    version.columns.map((c) => c.name),
  );
  const { columns } = await readTextColumns(path, { sampleRows: DETECTION_SAMPLE_ROWS });
  return { typical, findings: detectColumns(columns, { deepScan: true, minConfidence: DETECTION_FLOOR }) };
}

interface ExamplePrivacy {
  columnMap: Record<string, string>;
  threshold: number;
}

/** The deployment's own settings; an example is never masked less than the default threshold would. */
function privacyOf(d: Deployment): ExamplePrivacy {
  const c = d.config as { privacy_column_map?: Record<string, string>; privacy_threshold?: number };
  return { columnMap: c.privacy_column_map ?? {}, threshold: Math.min(c.privacy_threshold ?? DEFAULT_PRIVACY_THRESHOLD, DEFAULT_PRIVACY_THRESHOLD) };
}

/**
 * A masked column's example value: the placeholder stored payloads get for text columns; a
 * column of another type is left missing (null), which every model accepts.
 */
function placeholder(dtype: string, piiType: string): unknown {
  return isText(dtype) ? `[MASKED:${piiType}]` : null;
}

/** Free text and categories; a datetime's ISO string is no text to redact (a redacted one no longer parses). */
function isText(dtype: string): boolean {
  return dtype === 'object' || dtype === 'category';
}

function exampleRow(schema: { name: string; dtype: string }[], profile: VersionProfile, p: ExamplePrivacy): Record<string, unknown> {
  const found = new Map<string, string>();
  for (const f of profile.findings) if (f.scope === 'column' && f.confidence >= p.threshold) found.set(f.column, f.piiType);
  const row: Record<string, unknown> = {};
  for (const { name, dtype } of schema) {
    const piiType = Object.hasOwn(p.columnMap, name) ? p.columnMap[name] : found.get(name);
    const t = Object.hasOwn(profile.typical, name) ? profile.typical[name] : undefined;
    let value: unknown;
    if (piiType !== undefined) value = placeholder(dtype, piiType);
    else if (!t || t.value === null || t.support < EXAMPLE_MIN_SUPPORT) value = null;
    else value = typeof t.value === 'string' && isText(dtype) ? anonymizeText(t.value, p.threshold) : t.value;
    Object.defineProperty(row, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return row;
}
