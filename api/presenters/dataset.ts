import type { DatasetVersion } from '../../entities';
import type { DatasetSummary } from '../../services/datasets';

/** A dataset with its latest version's size, as lists and `GET /api/datasets/{id}` show it. */
export function presentDataset(r: DatasetSummary) {
  return { ...r, rows: Number(r.rows), columns: Number(r.columns), created_at: new Date(r.created_at).toISOString(), updated_at: new Date(r.updated_at).toISOString() };
}

export function presentVersion(v: DatasetVersion, createdByName: string | null = null) {
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
    created_at: v.createdAt,
  };
}

/** The quality report stored with a version, in the shape uploads answer it (`issues` are the checks). */
export function presentUploadQuality(v: DatasetVersion) {
  const q = v.quality as { overall_score: number; checks: unknown[] };
  return { overall_score: q.overall_score, issues: q.checks };
}

/** The full quality report of a version (`GET /api/datasets/{id}/quality`). */
export function presentQuality(v: DatasetVersion) {
  const q = v.quality as { overall_score: number; checks: unknown[]; target?: string | null; sample_rows?: number | null };
  // sample_rows: rows the estimated checks read on a large table, null when every check read it all.
  return { overall_score: q.overall_score, checks: q.checks, target: q.target ?? null, sample_rows: q.sample_rows ?? null, version: v.version };
}
