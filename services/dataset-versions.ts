import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { IsNull, type DataSource } from 'typeorm';
import { Artifact, Dataset, DatasetVersion } from '../entities';
import { analyze, DataValidationError, ingestFile, IngestOptions, IngestResult, qualityReport, QualityPolicy, QualityReport, UnsupportedFileTypeError } from '../engine/data';
import type { ArtifactStore, StoredObject } from '../platform/artifact-store';
import { DataError } from './errors';

/** A file parsed into the canonical Parquet form, waiting in a staging folder to become a version. */
export interface StagedTable {
  ingest: IngestResult;
  stagingDir: string;
}

/** Where a new version comes from, as `source` records it (an upload's file name, a transform's session, ...). */
export interface VersionOrigin {
  filename: string;
  [key: string]: unknown;
}

/** What profiling a version did: `computed` when it stored the profile; `skipped` says why it had nothing to do. */
export type ProfileResult = {
  version_id: string;
  row_count: number;
  computed: boolean;
  skipped?: string;
};

/** How often `heartbeat` is called while DuckDB computes (it reports no progress of its own). */
const PROFILE_HEARTBEAT_MS = 5000;

/** Runs `work`, calling `heartbeat` every {@link PROFILE_HEARTBEAT_MS} while it runs (no-op without one). */
async function beating<T>(heartbeat: (() => void) | undefined, work: () => Promise<T>): Promise<T> {
  if (!heartbeat) return work();
  const beat = setInterval(heartbeat, PROFILE_HEARTBEAT_MS);
  try {
    return await work();
  } finally {
    clearInterval(beat);
  }
}

/**
 * Parses a file (CSV in any common dialect and encoding, or Parquet) into the canonical Parquet
 * form in a new staging folder under `tmpRoot`. The engine's refusals become `DataError`s with
 * the spec's texts. The caller removes `stagingDir` (see {@link withStagedTable}).
 */
export async function stageTable(filePath: string, tmpRoot: string, opts: IngestOptions = {}): Promise<StagedTable> {
  const stagingDir = path.join(tmpRoot, `ingest-${randomUUID()}`);
  try {
    return { ingest: await ingestFile(filePath, stagingDir, opts), stagingDir };
  } catch (err) {
    fs.rmSync(stagingDir, { recursive: true, force: true });
    if (err instanceof UnsupportedFileTypeError) throw new DataError('Unsupported file type');
    if (err instanceof DataValidationError) throw new DataError(err.message);
    throw err;
  }
}

/**
 * Stages a file, runs `use` on it, and removes the staging folder whatever happens. `heartbeat` is called while the
 * staging (DuckDB's ingest, minutes on a large table) runs.
 */
export async function withStagedTable<T>(filePath: string, tmpRoot: string, use: (staged: StagedTable) => Promise<T>, opts: IngestOptions = {}, heartbeat?: () => void): Promise<T> {
  const staged = await beating(heartbeat, () => stageTable(filePath, tmpRoot, opts));
  try {
    return await use(staged);
  } finally {
    fs.rmSync(staged.stagingDir, { recursive: true, force: true });
  }
}

/**
 * Dataset versions as the domain makes them: every path that ends in "a new version of this
 * dataset" (an upload, a privacy transform, a synthetic generation) commits through here, and
 * every version is profiled through here.
 */
export class DatasetVersions {
  private readonly committedListeners: ((version: DatasetVersion) => Promise<void>)[] = [];

  constructor(
    private readonly ds: DataSource,
    private readonly store: ArtifactStore,
  ) {}

  /** Called after each committed version (retraining's new-dataset-version trigger); a listener handles its own failures. */
  onCommitted(listener: (version: DatasetVersion) => Promise<void>): void {
    this.committedListeners.push(listener);
  }

  /**
   * Moves the staged Parquet into the artifact store, scores its quality with the project's
   * policy and writes the version (and, for a new dataset, the dataset) in one transaction.
   * If anything fails the stored file is removed, so a failed commit leaves nothing behind.
   */
  async commit(p: {
    projectId: string;
    /** An existing dataset (`id`), or the name and description of a new one. */
    dataset: { id?: string; name: string; description: string };
    description: string;
    staged: StagedTable;
    policy: Partial<QualityPolicy>;
    origin: VersionOrigin;
    userId: string | null;
    /** Called while the quality report (DuckDB, minutes on a large table) runs, as `profile`'s. */
    heartbeat?: () => void;
  }): Promise<{ dataset: Dataset; version: DatasetVersion; artifact: Artifact }> {
    const { ingest } = p.staged;
    const { stored, quality } = await beating(p.heartbeat, () => this.storeWithQuality(p.projectId, `${safeStem(p.dataset.name)}.parquet`, p.staged, p.policy));
    let committed: { dataset: Dataset; version: DatasetVersion; artifact: Artifact };
    try {
      committed = await this.ds.transaction(async (em) => {
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
          source: { ...p.origin, format: ingest.format, encoding: ingest.encoding, delimiter: ingest.delimiter, has_header: ingest.has_header, bytes: ingest.bytes },
          quality: { overall_score: quality.overall_score, checks: quality.checks, target: quality.target, sample_rows: quality.sample_rows },
          // The exact profile costs more than the whole ingest on big files: it is computed once, on demand or by a job.
          statistics: null,
          createdBy: p.userId,
        });
        await em.getRepository(DatasetVersion).insert(version);
        return { dataset, version, artifact };
      });
    } catch (err) {
      await this.store.remove(stored.storageKey);
      throw err;
    }
    for (const listener of this.committedListeners) await listener(committed.version);
    return committed;
  }

  /**
   * The exact profile of a version (what analyze answers), stored on the version unless someone
   * stored it first. Shared by the `dataset_profile` job and a request's analyze. A version
   * deleted in the meantime leaves nothing to do, which is not a failure.
   */
  async profile(versionId: string, heartbeat: () => void = () => undefined): Promise<ProfileResult> {
    const version = await this.ds.getRepository(DatasetVersion).findOneBy({ id: versionId });
    const artifact = version ? await this.ds.getRepository(Artifact).findOneBy({ id: version.artifactId }) : null;
    if (!version || !artifact) return { version_id: versionId, row_count: 0, computed: false, skipped: 'the dataset version was deleted' };
    if (version.statistics) return { version_id: versionId, row_count: version.rowCount, computed: false, skipped: 'already profiled' };
    const beat = setInterval(heartbeat, PROFILE_HEARTBEAT_MS);
    try {
      let statistics;
      try {
        statistics = await analyze(await this.store.localPath(artifact.storageKey));
      } catch (err) {
        // The version's own data (a corrupt file, a table past DuckDB's memory): a retried job would fail the same way.
        if (err instanceof DataValidationError) throw new DataError(`The dataset version cannot be profiled: ${err.message}`);
        throw err;
      }
      const written = await this.ds.getRepository(DatasetVersion).update({ id: versionId, statistics: IsNull() }, { statistics: statistics as never });
      return { version_id: versionId, row_count: version.rowCount, computed: (written.affected ?? 0) > 0 };
    } finally {
      clearInterval(beat);
    }
  }

  /** The local path of a version's Parquet file. */
  async parquetPath(v: DatasetVersion): Promise<string> {
    const a = await this.ds.getRepository(Artifact).findOneByOrFail({ id: v.artifactId });
    return this.store.localPath(a.storageKey);
  }

  /**
   * Moves the staged Parquet into the artifact store (locally a rename: the file is not copied; with S3
   * an upload that keeps the file as the local copy), then hashes it while the quality report reads it:
   * the hash runs on the event loop and DuckDB's scan on its own threads. If either fails, the stored
   * file is removed.
   */
  private async storeWithQuality(projectId: string, filename: string, staged: StagedTable, policy: Partial<QualityPolicy>): Promise<{ stored: StoredObject; quality: QualityReport }> {
    const storageKey = await this.store.moveIn(projectId, filename, staged.ingest.parquet_path);
    const [stored, quality] = await Promise.allSettled([this.store.describe(storageKey), this.store.localPath(storageKey).then((p) => qualityReport(p, policy))]);
    if (stored.status === 'fulfilled' && quality.status === 'fulfilled') return { stored: stored.value, quality: quality.value };
    await this.store.remove(storageKey);
    throw stored.status === 'rejected' ? stored.reason : (quality as PromiseRejectedResult).reason;
  }
}

function safeStem(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 80) || 'dataset';
}
