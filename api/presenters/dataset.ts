import type { DatasetVersion } from '../../entities';
import type { DatasetSummary, StatisticsState, VersionQuality } from '../../services/datasets';
import type { Presented } from './common.schema';
import type { datasetSchema, qualitySchema, uploadQualitySchema, versionSchema } from './dataset.schema';

/** The quality report stored with a version (engine/data/quality.ts); reports stored before `target` and `sample_rows` lack them. */
type StoredQuality = Pick<Presented<typeof qualitySchema>, 'overall_score' | 'checks'> & { target?: string | null; sample_rows?: number | null };

/** A dataset with its latest version's size, as lists and `GET /api/datasets/{id}` show it. */
export function presentDataset(r: DatasetSummary): Presented<typeof datasetSchema> {
  return { ...r, rows: Number(r.rows), columns: Number(r.columns), created_at: new Date(r.created_at).toISOString(), updated_at: new Date(r.updated_at).toISOString() };
}

/** A version with where its statistics stand (`statistics_status`: ready, its profile job's state, or none). */
export function presentVersion(v: DatasetVersion, createdByName: string | null, statistics: StatisticsState): Presented<typeof versionSchema> {
  return {
    id: v.id,
    dataset_id: v.datasetId,
    version: v.version,
    row_count: v.rowCount,
    column_count: v.columnCount,
    description: v.description,
    columns: v.columns,
    artifact_id: v.artifactId,
    source: v.source,
    created_by_name: createdByName,
    statistics_status: statistics.status,
    statistics_error: statistics.error,
    created_at: v.createdAt,
  };
}

/** The quality report stored with a version, in the shape uploads answer it (`issues` are the checks). */
export function presentUploadQuality(v: DatasetVersion): Presented<typeof uploadQualitySchema> {
  const q = v.quality as StoredQuality;
  return { overall_score: q.overall_score, issues: q.checks };
}

/** The full quality report of a version (`GET /api/datasets/{id}/quality`), with where its target comes from. */
export function presentQuality(q: VersionQuality): Presented<typeof qualitySchema> {
  const r = q.report as StoredQuality;
  // sample_rows: rows the estimated checks read on a large table, null when every check read it all.
  return {
    overall_score: r.overall_score,
    checks: r.checks,
    target: r.target ?? null,
    target_source: q.targetSource,
    target_experiment: q.experiment,
    sample_rows: r.sample_rows ?? null,
    version: q.version.version,
  };
}
