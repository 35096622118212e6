import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { Artifact, Dataset, DatasetVersion, ProjectQualityPolicy } from '../../entities';
import { DataValidationError, ingestFile, IngestResult, qualityReport, QualityPolicy, QualityReport, UnsupportedFileTypeError } from '../../engine/data';
import type { ArtifactStore, StoredObject } from '../../platform/artifact-store';
import { notFound, unprocessable } from '../errors';
import { assertProjectAccess } from './access';

export interface IngestedUpload {
  ingest: IngestResult;
  /** The project's quality thresholds, for the report {@link commitVersion} computes. */
  policy: Partial<QualityPolicy>;
  stagingDir: string;
}

/**
 * Parses an uploaded file into the canonical Parquet form. Engine errors become the spec's 422s.
 * The caller removes `stagingDir`.
 */
export async function ingestUpload(filePath: string, tmpRoot: string, policy: Partial<QualityPolicy>, maxColumns?: number): Promise<IngestedUpload> {
  const stagingDir = path.join(tmpRoot, `ingest-${randomUUID()}`);
  try {
    const ingest = await ingestFile(filePath, stagingDir, { maxColumns });
    return { ingest, policy, stagingDir };
  } catch (err) {
    fs.rmSync(stagingDir, { recursive: true, force: true });
    if (err instanceof UnsupportedFileTypeError) throw unprocessable('Unsupported file type');
    if (err instanceof DataValidationError) throw unprocessable(err.message);
    throw err;
  }
}

/**
 * Moves the staged Parquet into the artifact store (a rename: the file is not copied), then hashes it while the
 * quality report reads it: the hash runs on the event loop and DuckDB's scan on its own threads. If either fails,
 * the stored file is removed.
 */
async function storeWithQuality(store: ArtifactStore, projectId: string, filename: string, upload: IngestedUpload): Promise<{ stored: StoredObject; quality: QualityReport }> {
  const storageKey = await store.moveIn(projectId, filename, upload.ingest.parquet_path);
  const [stored, quality] = await Promise.allSettled([
    store.describe(storageKey),
    qualityReport(store.pathOf(storageKey), upload.policy),
  ]);
  if (stored.status === 'fulfilled' && quality.status === 'fulfilled') return { stored: stored.value, quality: quality.value };
  store.remove(storageKey);
  throw stored.status === 'rejected' ? stored.reason : (quality as PromiseRejectedResult).reason;
}

export async function projectQualityPolicy(em: EntityManager, projectId: string): Promise<Partial<QualityPolicy>> {
  const row = await em.getRepository(ProjectQualityPolicy).findOneBy({ projectId });
  return (row?.policy ?? {}) as Partial<QualityPolicy>;
}

/**
 * Moves the staged Parquet into the artifact store, scores its quality and writes the version (and, for a new
 * dataset, the dataset) in one transaction. If the transaction fails the stored file is
 * removed, so a failed upload leaves nothing behind.
 */
export async function commitVersion(
  ds: DataSource,
  store: ArtifactStore,
  p: {
    projectId: string;
    dataset: { id?: string; name: string; description: string };
    description: string;
    upload: IngestedUpload;
    originalName: string;
    userId: string;
  },
): Promise<{ dataset: Dataset; version: DatasetVersion; artifact: Artifact }> {
  const { ingest } = p.upload;
  const { stored, quality } = await storeWithQuality(store, p.projectId, `${safeStem(p.dataset.name)}.parquet`, p.upload);
  try {
    return await ds.transaction(async (em) => {
      let dataset: Dataset;
      let versionNumber = 0;
      if (p.dataset.id) {
        dataset = await em.getRepository(Dataset).findOneOrFail({ where: { id: p.dataset.id }, lock: { mode: 'pessimistic_write' } });
        const [{ next }] = await em.query('SELECT coalesce(max(version) + 1, 0)::int AS next FROM dataset_versions WHERE dataset_id = $1', [dataset.id]);
        versionNumber = next;
        await em.getRepository(Dataset).update({ id: dataset.id }, { updatedAt: new Date() });
      } else {
        dataset = em.getRepository(Dataset).create({ projectId: p.projectId, name: p.dataset.name, description: p.dataset.description, createdBy: p.userId });
        await em.getRepository(Dataset).insert(dataset);
      }
      const artifact = em.getRepository(Artifact).create({
        projectId: p.projectId,
        kind: 'dataset_file',
        ownerType: 'dataset',
        ownerId: dataset.id,
        filename: path.posix.basename(stored.storageKey),
        contentType: 'application/vnd.apache.parquet',
        sizeBytes: stored.sizeBytes,
        sha256: stored.sha256,
        storageKey: stored.storageKey,
      });
      await em.getRepository(Artifact).insert(artifact);
      const version = em.getRepository(DatasetVersion).create({
        datasetId: dataset.id,
        version: versionNumber,
        description: p.description,
        rowCount: ingest.row_count,
        columnCount: ingest.column_count,
        columns: ingest.columns.map((c) => ({ name: c.name, dtype: c.dtype })),
        artifactId: artifact.id,
        source: { filename: p.originalName, format: ingest.format, encoding: ingest.encoding, delimiter: ingest.delimiter, has_header: ingest.has_header, bytes: ingest.bytes },
        quality: { overall_score: quality.overall_score, checks: quality.checks, target: quality.target, sample_rows: quality.sample_rows },
        // The exact profile costs more than the whole ingest on big files: `GET .../analyze` computes it once, on demand.
        statistics: null,
        createdBy: p.userId,
      });
      await em.getRepository(DatasetVersion).insert(version);
      return { dataset, version, artifact };
    });
  } catch (err) {
    store.remove(stored.storageKey);
    throw err;
  }
}

function safeStem(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 80) || 'dataset';
}

/** A dataset the user can reach with at least `minRole`; otherwise 404 `Dataset not found`. */
export async function datasetForUser(em: EntityManager, userId: string, datasetId: string, minRole: 'viewer' | 'editor' = 'viewer'): Promise<Dataset> {
  const dataset = await em.getRepository(Dataset).findOneBy({ id: datasetId });
  if (!dataset) throw notFound('Dataset not found');
  await assertProjectAccess(em, userId, dataset.projectId, 'Dataset not found', minRole);
  return dataset;
}

/** A dataset version the user can reach; otherwise 404 `Dataset version not found`. */
export async function versionForUser(em: EntityManager, userId: string, versionId: string): Promise<DatasetVersion> {
  const v = await em.getRepository(DatasetVersion).findOneBy({ id: versionId });
  if (!v) throw notFound('Dataset version not found');
  const dataset = await em.getRepository(Dataset).findOneByOrFail({ id: v.datasetId });
  await assertProjectAccess(em, userId, dataset.projectId, 'Dataset version not found');
  return v;
}

/** The latest version, or a given version number, of a dataset; 404 `Dataset version not found`. */
export async function versionOf(em: EntityManager, datasetId: string, version?: number): Promise<DatasetVersion> {
  const qb = em.getRepository(DatasetVersion).createQueryBuilder('v').where('v.dataset_id = :datasetId', { datasetId });
  if (version !== undefined) qb.andWhere('v.version = :version', { version });
  const v = await qb.orderBy('v.version', 'DESC').getOne();
  if (!v) throw notFound('Dataset version not found');
  return v;
}

/** Removes a version's stored file and rows. */
export async function deleteVersionFiles(ds: DataSource, store: ArtifactStore, artifactIds: string[]): Promise<void> {
  if (!artifactIds.length) return;
  const artifacts = await ds.getRepository(Artifact).createQueryBuilder('a').where('a.id IN (:...ids)', { ids: artifactIds }).getMany();
  await ds.getRepository(Artifact).createQueryBuilder().delete().where('id IN (:...ids)', { ids: artifactIds }).execute();
  for (const a of artifacts) store.remove(a.storageKey);
}
