import fs from 'node:fs';
import path from 'node:path';
import { In, type DataSource } from 'typeorm';
import { Artifact, Dataset, DatasetVersion, Job, ProjectQualityPolicy, User } from '../entities';
import {
  compareVersions,
  DatasetProfile,
  DataValidationError,
  DEFAULT_QUALITY_POLICY,
  preview,
  QualityPolicy,
  qualityReport,
  QualityReport,
  sample,
  writeCsv,
  writeXlsx,
  XLSX_MAX_ROWS,
} from '../engine/data';
import type { ArtifactStore } from '../platform/artifact-store';
import type { Config } from '../platform/config';
import type { Logger } from '../platform/logger';
import { scratchDir } from '../platform/scratch';
import { SingleFlight } from '../platform/single-flight';
import { Access } from './access';
import { DatasetVersions, withStagedTable } from './dataset-versions';
import { ConflictError, DataError, NotFoundError, ValidationError } from './errors';
import type { JobService } from './jobs';
import { likePattern, ListQuery, Page, PageQuery, sqlDirection } from './lists';
import { assertStorageRoom } from './quotas';
import { builderArtifactsOf } from './builder/sessions';

export const DATASET_SORT_FIELDS = ['created_at', 'name', 'rows', 'columns', 'project_name'] as const;

/** A dataset as lists show it: with its project and its latest version. */
export interface DatasetSummary {
  id: string;
  name: string;
  description: string;
  project_id: string;
  project_name: string;
  dataset_version_id: string;
  artifact_id: string;
  rows: string | number;
  columns: number;
  version: number;
  created_at: Date;
  updated_at: Date;
}

/** Rows of a version's first page (the dataset view's preview). */
export const PREVIEW_ROWS = 20;
/** How long an analyze waits for a running background profile, and how often it looks. */
const PROFILE_WAIT_MS = 2 * 60 * 1000;
const PROFILE_POLL_MS = 250;

const SUMMARY_SQL = `SELECT d.id, d.name, d.description, d.project_id, p.name AS project_name, v.id AS dataset_version_id,
    v.artifact_id, v.row_count AS rows, v.column_count AS columns, v.version, d.created_at, d.updated_at
  FROM datasets d
  JOIN projects p ON p.id = d.project_id
  JOIN LATERAL (SELECT * FROM dataset_versions x WHERE x.dataset_id = d.id ORDER BY x.version DESC LIMIT 1) v ON true
  WHERE d.project_id IN (SELECT pm.project_id FROM project_access pm WHERE pm.user_id = $1)`;

/** Where the target of a quality report's target-dependent checks comes from; null: none, those checks need one. */
export type QualityTargetSource = 'request' | 'experiment' | null;

/** A version's quality report with the target its target-dependent checks used. */
export interface VersionQuality {
  version: DatasetVersion;
  report: QualityReport;
  targetSource: QualityTargetSource;
  /** The experiment whose target was used (`targetSource` experiment). */
  experiment: { id: string; name: string } | null;
}

/** Where a version's statistics stand: `ready` (stored), its profile job's state, or `none` (computed on first analyze). */
export interface StatisticsState {
  status: 'ready' | 'queued' | 'running' | 'failed' | 'canceled' | 'none';
  /** Why the profile job failed. */
  error: string | null;
}

/** A file received for a new dataset or version, with the form's text fields. */
export interface ReceivedTable {
  path: string;
  filename: string;
}

/** Datasets: upload, versions, statistics, quality, comparison, downloads, deletion. */
export class DatasetService {
  private readonly analyzing = new SingleFlight<DatasetProfile>();
  readonly tmpRoot: string;

  constructor(
    private readonly ds: DataSource,
    private readonly store: ArtifactStore,
    private readonly access: Access,
    readonly versions: DatasetVersions,
    private readonly jobs: JobService,
    private readonly config: Config,
    private readonly log: Logger,
  ) {
    // This process's own folder: what a killed process leaves there is removed when a process starts (platform/scratch.ts).
    this.tmpRoot = scratchDir(path.join(config.dataDir, 'tmp'), 'uploads');
    // Every path to a new version (upload, new version, retraining's derived data) commits through DatasetVersions:
    // each version gets its statistics in the background, so reports find them.
    versions.onCommitted((version) => this.profileInBackground(version));
  }

  async list(userId: string, q: ListQuery<(typeof DATASET_SORT_FIELDS)[number]> & { project_id?: string }): Promise<Page<DatasetSummary>> {
    const params: unknown[] = [userId];
    let where = '';
    if (q.project_id) {
      params.push(q.project_id);
      where += ` AND d.project_id = $${params.length}`;
    }
    if (q.search) {
      params.push(likePattern(q.search));
      where += ` AND (d.name ILIKE $${params.length} OR d.description ILIKE $${params.length})`;
    }
    const order = { created_at: 'created_at', name: 'lower(name)', rows: 'rows', columns: 'columns', project_name: 'lower(project_name)' }[q.sort_field];
    const dir = sqlDirection(q.sort_direction);
    const items: DatasetSummary[] = await this.ds.query(`SELECT * FROM (${SUMMARY_SQL}${where}) s ORDER BY ${order} ${dir}, id ${dir} LIMIT ${q.limit} OFFSET ${q.offset}`, params);
    const [{ total }] = await this.ds.query(`SELECT count(*)::int AS total FROM (${SUMMARY_SQL}${where}) s`, params);
    return { items, total, limit: q.limit, offset: q.offset };
  }

  async count(userId: string, projectId?: string): Promise<number> {
    const params: unknown[] = [userId];
    let sql = 'SELECT count(*)::int AS count FROM datasets d WHERE d.project_id IN (SELECT pm.project_id FROM project_access pm WHERE pm.user_id = $1)';
    if (projectId) {
      params.push(projectId);
      sql += ' AND d.project_id = $2';
    }
    const [{ count }] = await this.ds.query(sql, params);
    return count;
  }

  async summary(userId: string, datasetId: string): Promise<DatasetSummary> {
    const rows: DatasetSummary[] = await this.ds.query(`${SUMMARY_SQL} AND d.id = $2`, [userId, datasetId]);
    if (!rows[0]) throw new NotFoundError('Dataset not found');
    return rows[0];
  }

  /** A dataset with the first rows of its latest version, or of the version asked for (a broken file still shows the dataset). */
  async withPreview(userId: string, datasetId: string, versionNumber?: number) {
    const dataset = await this.summary(userId, datasetId);
    const version = await this.versionOf(dataset.id, versionNumber);
    try {
      return { dataset, version, rows: await preview(await this.versions.parquetPath(version), PREVIEW_ROWS), error: null };
    } catch (err) {
      return { dataset, version, rows: [], error: `Preview unavailable: ${(err as Error).message}` };
    }
  }

  /**
   * The quality report of a version (the latest unless one is asked for). Checks that depend on a target (class
   * balance) use the target named in the request, else the target of the latest experiment on this dataset when the
   * version has that column, else none: they are listed as needing a target, never computed on a guess. The report
   * stored at upload has no target; one with a target is computed here.
   */
  async quality(userId: string, datasetId: string, q: { version?: number; target?: string }): Promise<VersionQuality> {
    const { dataset, version } = q.version === undefined ? await this.latestForUser(userId, datasetId) : await this.versionForUser(userId, datasetId, q.version);
    const has = (column: string) => version.columns.some((c) => c.name === column);
    if (q.target !== undefined && !has(q.target)) {
      throw ValidationError.field(['query', 'target'], `Unknown column: ${q.target} is not a column of version ${version.version}`);
    }
    const experiment = q.target === undefined ? await this.latestExperimentTarget(dataset.id) : null;
    const target = q.target ?? (experiment && has(experiment.target) ? experiment.target : null);
    const stored = version.quality as unknown as QualityReport;
    // Reports stored before targets were named carry a guessed one: those are computed again without it.
    if (target === null && !stored.target) return { version, report: stored, targetSource: null, experiment: null };
    const report = await qualityReport(await this.versions.parquetPath(version), await this.qualityPolicy(dataset.projectId), { target });
    return {
      version,
      report,
      targetSource: target === null ? null : q.target !== undefined ? 'request' : 'experiment',
      experiment: target !== null && experiment ? { id: experiment.id, name: experiment.name } : null,
    };
  }

  /** The target of the latest experiment trained on any version of a dataset. */
  private async latestExperimentTarget(datasetId: string): Promise<{ id: string; name: string; target: string } | null> {
    const [row]: { id: string; name: string; target: string }[] = await this.ds.query(
      `SELECT e.id, e.name, e.target_column AS target FROM experiments e JOIN dataset_versions v ON v.id = e.dataset_version_id
        WHERE v.dataset_id = $1 ORDER BY e.created_at DESC, e.id DESC LIMIT 1`,
      [datasetId],
    );
    return row ?? null;
  }

  /** The project's quality thresholds as stored (keys it never set are absent). */
  async qualityPolicy(projectId: string): Promise<Partial<QualityPolicy>> {
    const row = await this.ds.getRepository(ProjectQualityPolicy).findOneBy({ projectId });
    return (row?.policy ?? {}) as Partial<QualityPolicy>;
  }

  async qualityPolicyForUser(userId: string, projectId: string) {
    await this.access.project(userId, projectId);
    return { policy: { ...DEFAULT_QUALITY_POLICY, ...(await this.qualityPolicy(projectId)) }, defaults: DEFAULT_QUALITY_POLICY };
  }

  /** Replaces the project's thresholds (admin or above); omitted keys keep their defaults. */
  async setQualityPolicy(userId: string, projectId: string, policy: Partial<QualityPolicy>): Promise<QualityPolicy> {
    await this.access.project(userId, projectId, 'admin');
    await this.ds.getRepository(ProjectQualityPolicy).upsert({ projectId, policy: policy as never, updatedAt: new Date() }, ['projectId']);
    return { ...DEFAULT_QUALITY_POLICY, ...policy };
  }

  /** A new dataset from an uploaded file (editor or above in the project): version 0. */
  async createFromFile(userId: string, p: { projectId: string; name: string; description: string; file?: ReceivedTable }) {
    await this.access.project(userId, p.projectId, 'editor');
    const file = requireFile(p.file);
    return this.commitFile(userId, p.projectId, { name: p.name, description: p.description }, p.description, file);
  }

  /** The next version of a dataset from an uploaded file (editor or above); a version needs a description. */
  async addVersionFromFile(userId: string, p: { datasetId: string; description?: string; file?: ReceivedTable }) {
    const dataset = await this.access.dataset(userId, p.datasetId, 'editor');
    if (!p.description?.trim()) throw ValidationError.field(['body', 'description'], 'Field required', 'missing');
    const file = requireFile(p.file);
    return this.commitFile(userId, dataset.projectId, { id: dataset.id, name: dataset.name, description: dataset.description }, p.description, file);
  }

  private async commitFile(userId: string, projectId: string, dataset: { id?: string; name: string; description: string }, description: string, file: ReceivedTable) {
    // The received file's size stands for what the version will store (its Parquet is usually smaller).
    await assertStorageRoom(this.ds.manager, projectId, (await fs.promises.stat(file.path)).size);
    const policy = await this.qualityPolicy(projectId);
    const committed = await withStagedTable(
      file.path,
      this.tmpRoot,
      (staged) => this.versions.commit({ projectId, dataset, description, staged, policy, origin: { filename: file.filename }, userId }),
      { maxColumns: this.config.limits.maxDatasetColumns, maxRows: this.config.limits.maxDatasetRows, maxCells: this.config.limits.maxDatasetCells },
    );
    return committed;
  }

  /**
   * Starts a `dataset_profile` job for a new version (of at least PROFILE_IN_BACKGROUND_MIN_ROWS rows: by default
   * every one), so analyze and reports find its statistics ready. Idempotent: a version already profiled, or with a
   * profile job open or done, gets no second one. The job is not part of the version: it is written after the
   * version's commit, its failure shows on the version (`statistics_status`), and analyze computes what it lacks.
   */
  private async profileInBackground(version: DatasetVersion): Promise<void> {
    const minRows = this.config.profileInBackgroundMinRows;
    if (minRows <= 0 || version.rowCount < minRows || version.statistics) return;
    try {
      const job = await this.ds.transaction(async (em) => {
        const [owner]: { project_id: string }[] = await em.query('SELECT project_id FROM datasets WHERE id = $1', [version.datasetId]);
        const taken = await em.getRepository(Job).existsBy({ kind: 'dataset_profile', entityId: version.id, status: In(['queued', 'running', 'succeeded']) });
        if (!owner || taken) return null;
        return this.jobs.create(em, { kind: 'dataset_profile', projectId: owner.project_id, entityId: version.id, createdBy: version.createdBy, input: { versionId: version.id } });
      });
      if (!job) return;
      // Not awaited: the upload's answer does not wait on Temporal (start logs its own failure; the reconciler retries).
      void this.jobs.start(job);
    } catch (err) {
      this.log.warn({ err, versionId: version.id }, 'could not start the background profile');
    }
  }

  /** The latest version of a dataset the user can read. */
  async latestForUser(userId: string, datasetId: string): Promise<{ dataset: Dataset; version: DatasetVersion }> {
    const dataset = await this.access.dataset(userId, datasetId);
    return { dataset, version: await this.versionOf(dataset.id) };
  }

  /** One version (by number) of a dataset the user can read. */
  async versionForUser(userId: string, datasetId: string, version: number): Promise<{ dataset: Dataset; version: DatasetVersion }> {
    const dataset = await this.access.dataset(userId, datasetId);
    return { dataset, version: await this.versionOf(dataset.id, version) };
  }

  /** The versions of a dataset in version order, with their creators' names and where their statistics stand. */
  async listVersions(userId: string, datasetId: string, q: PageQuery): Promise<Page<{ version: DatasetVersion; createdByName: string | null; statistics: StatisticsState }>> {
    await this.access.dataset(userId, datasetId);
    const qb = this.ds.getRepository(DatasetVersion).createQueryBuilder('v').where('v.dataset_id = :id', { id: datasetId });
    const total = await qb.getCount();
    const rows = await qb.leftJoin(User, 'u', 'u.id = v.created_by').addSelect('u.name', 'creator').orderBy('v.version', 'ASC').offset(q.offset).limit(q.limit).getRawAndEntities();
    const states = await this.statisticsStates(rows.entities);
    return {
      items: rows.entities.map((version, i) => ({ version, createdByName: rows.raw[i]?.creator ?? null, statistics: states.get(version.id)! })),
      total,
      limit: q.limit,
      offset: q.offset,
    };
  }

  /** Where each version's statistics stand: stored, or the state of its latest `dataset_profile` job with its error. */
  async statisticsStates(versions: DatasetVersion[]): Promise<Map<string, StatisticsState>> {
    const pending = versions.filter((v) => !v.statistics).map((v) => v.id);
    const jobs: { entity_id: string; status: string; error: string | null }[] = pending.length
      ? await this.ds.query(`SELECT DISTINCT ON (entity_id) entity_id, status, error FROM jobs WHERE kind = 'dataset_profile' AND entity_id = ANY($1) ORDER BY entity_id, created_at DESC, id DESC`, [
          pending,
        ])
      : [];
    return new Map(
      versions.map((v): [string, StatisticsState] => {
        if (v.statistics) return [v.id, { status: 'ready', error: null }];
        const job = jobs.find((j) => j.entity_id === v.id);
        // A job that succeeded without storing them (the version was profiled another way meanwhile) counts as none.
        const status = !job || job.status === 'succeeded' ? 'none' : (job.status as StatisticsState['status']);
        return [v.id, { status, error: job?.status === 'failed' ? job.error : null }];
      }),
    );
  }

  /**
   * The version's profile: stored, or the one a running `dataset_profile` job stores (waited for
   * up to PROFILE_WAIT_MS), or computed here. Callers arriving together share one computation.
   */
  async analyze(userId: string, datasetId: string, versionNumber?: number): Promise<{ statistics: DatasetProfile | null; error: string | null }> {
    const { version } = versionNumber === undefined ? await this.latestForUser(userId, datasetId) : await this.versionForUser(userId, datasetId, versionNumber);
    if (version.statistics) return { statistics: version.statistics as DatasetProfile, error: null };
    try {
      return { statistics: await this.analyzing.run(version.id, () => this.profileOf(version.id)), error: null };
    } catch (err) {
      this.log.warn({ err }, 'analyze failed');
      return { statistics: null, error: `Analysis failed: ${(err as Error).message}` };
    }
  }

  private async profileOf(versionId: string): Promise<DatasetProfile> {
    const deadline = Date.now() + PROFILE_WAIT_MS;
    while (Date.now() < deadline && (await this.ds.getRepository(Job).existsBy({ kind: 'dataset_profile', entityId: versionId, status: 'running' }))) {
      await new Promise((r) => setTimeout(r, PROFILE_POLL_MS));
    }
    const done = await this.versions.profile(versionId);
    const stored = (await this.ds.getRepository(DatasetVersion).findOneBy({ id: versionId }))?.statistics as DatasetProfile | null | undefined;
    if (!stored) throw new Error(done.skipped ?? 'the profile was not stored');
    return stored;
  }

  /** Experiments, models and deployments built from a dataset. */
  async lineage(userId: string, datasetId: string) {
    await this.access.dataset(userId, datasetId);
    const experiments: { id: string; name: string; target_column: string; problem_type: string; status: string; model_count: number }[] = await this.ds.query(
      `SELECT e.id, e.name, e.target_column, e.problem_type, e.status, (SELECT count(*)::int FROM models m WHERE m.experiment_id = e.id) AS model_count
         FROM experiments e JOIN dataset_versions v ON v.id = e.dataset_version_id WHERE v.dataset_id = $1 ORDER BY e.created_at`,
      [datasetId],
    );
    const models: { id: string; name: string; algorithm: string; experiment_id: string }[] = experiments.length
      ? await this.ds.query(`SELECT m.id, m.name, m.algo AS algorithm, m.experiment_id FROM models m WHERE m.experiment_id = ANY($1) ORDER BY m.created_at`, [experiments.map((e) => e.id)])
      : [];
    const deployments: { id: string; name: string; model_id: string; stage: string; is_active: boolean }[] = models.length
      ? await this.ds.query(`SELECT d.id, d.name, d.model_id, d.stage, d.is_active FROM deployments d WHERE d.model_id = ANY($1) ORDER BY d.created_at, d.id`, [models.map((m) => m.id)])
      : [];
    return { experiments, models, deployments };
  }

  /** Compares two versions: schema changes and per-column shift with PSI. */
  async compare(userId: string, datasetId: string, v1: number, v2: number) {
    await this.access.dataset(userId, datasetId);
    const a = await this.versionOf(datasetId, v1);
    const b = await this.versionOf(datasetId, v2);
    const cmp = await compareVersions(await this.versions.parquetPath(a), await this.versions.parquetPath(b));
    return { summary: { v1: a.version, v2: b.version, ...cmp.summary }, column_diffs: cmp.column_diffs };
  }

  /** A reproducible random sample of a version's rows. */
  async sample(userId: string, versionId: string, n: number, seed: number) {
    const { version } = await this.access.version(userId, versionId);
    return { version, rows: await sample(await this.versions.parquetPath(version), n, seed) };
  }

  /**
   * A version written as CSV or XLSX to a temporary file; the stream removes the file when it
   * closes, so an aborted download leaves nothing behind.
   */
  async exportTable(version: DatasetVersion, format: 'csv' | 'xlsx'): Promise<{ stream: fs.ReadStream; size: number }> {
    if (format === 'xlsx' && version.rowCount > XLSX_MAX_ROWS - 1) {
      throw new DataError(`XLSX export is limited to ${XLSX_MAX_ROWS - 1} data rows (Excel's sheet limit); version ${version.version} has ${version.rowCount}. Download it as CSV instead.`);
    }
    const src = await this.versions.parquetPath(version);
    fs.mkdirSync(this.tmpRoot, { recursive: true });
    const out = path.join(this.tmpRoot, `${version.id}-${Date.now()}-${Math.random().toString(16).slice(2)}.${format}`);
    try {
      if (format === 'csv') await writeCsv(src, out);
      else await writeXlsx(src, out);
      const size = fs.statSync(out).size;
      const stream = fs.createReadStream(out);
      stream.on('close', () => fs.rmSync(out, { force: true }));
      return { stream, size };
    } catch (err) {
      fs.rmSync(out, { force: true });
      if (err instanceof DataValidationError) throw new DataError(err.message);
      throw err;
    }
  }

  /**
   * Deletes a dataset with all its versions and their files (editor or above). Experiments keep
   * their training data: a dataset they use cannot be deleted under them (409).
   */
  async delete(userId: string, datasetId: string): Promise<void> {
    const dataset = await this.access.dataset(userId, datasetId, 'editor');
    const artifactIds = await this.ds.transaction(async (em) => {
      await em.getRepository(Dataset).findOne({ where: { id: dataset.id }, lock: { mode: 'pessimistic_write' } });
      const versions = await em.getRepository(DatasetVersion).findBy({ datasetId: dataset.id });
      await assertNoExperiments(
        em.query.bind(em),
        versions.map((v) => v.id),
      );
      // Builder sessions on the dataset go with it (cascade); their step outputs are artifacts to remove too.
      const builderOutputs = await builderArtifactsOf(em, { datasetId: dataset.id });
      await em.getRepository(Dataset).delete({ id: dataset.id });
      return [...versions.map((v) => v.artifactId), ...builderOutputs.map((a) => a.id)];
    });
    await this.removeArtifacts(artifactIds);
  }

  /**
   * Deletes one version and its file (editor or above); never the only one (409: delete the
   * dataset instead). The dataset row is locked while versions are counted, so concurrent
   * deletes cannot remove the last version between them.
   */
  async deleteVersion(userId: string, datasetId: string, versionNumber: number): Promise<void> {
    const dataset = await this.access.dataset(userId, datasetId, 'editor');
    const artifactIds = await this.ds.transaction(async (em) => {
      await em.getRepository(Dataset).findOneOrFail({ where: { id: dataset.id }, lock: { mode: 'pessimistic_write' } });
      const version = await em.getRepository(DatasetVersion).findOneBy({ datasetId: dataset.id, version: versionNumber });
      if (!version) throw new NotFoundError('Dataset version not found');
      if ((await em.getRepository(DatasetVersion).countBy({ datasetId: dataset.id })) <= 1) {
        throw new ConflictError('Cannot delete the only version of a dataset; delete the dataset instead');
      }
      await assertNoExperiments(em.query.bind(em), [version.id]);
      // Builder sessions started from this version go with it (cascade); their step outputs are artifacts to remove too.
      const builderOutputs = await builderArtifactsOf(em, { sourceVersionId: version.id });
      await em.getRepository(DatasetVersion).delete({ id: version.id });
      return [version.artifactId, ...builderOutputs.map((a) => a.id)];
    });
    await this.removeArtifacts(artifactIds);
  }

  /** The latest version, or a given version number, of a dataset; 404 `Dataset version not found`. */
  async versionOf(datasetId: string, version?: number): Promise<DatasetVersion> {
    const qb = this.ds.getRepository(DatasetVersion).createQueryBuilder('v').where('v.dataset_id = :datasetId', { datasetId });
    if (version !== undefined) qb.andWhere('v.version = :version', { version });
    const v = await qb.orderBy('v.version', 'DESC').getOne();
    if (!v) throw new NotFoundError('Dataset version not found');
    return v;
  }

  /** Removes artifact rows and then their files (a file without a row is harmless; a row without a file is not). */
  private async removeArtifacts(artifactIds: string[]): Promise<void> {
    if (!artifactIds.length) return;
    const artifacts = await this.ds.getRepository(Artifact).findBy({ id: In(artifactIds) });
    await this.ds.getRepository(Artifact).delete({ id: In(artifactIds) });
    await Promise.all(artifacts.map((a) => this.store.remove(a.storageKey)));
  }
}

function requireFile(file: ReceivedTable | undefined): ReceivedTable {
  if (!file) throw ValidationError.field(['body', 'file'], 'Field required', 'missing');
  return file;
}

/** Experiments and synthgen models keep their training data: a version they use cannot be deleted under them. */
async function assertNoExperiments(query: (sql: string, params: unknown[]) => Promise<{ n: number }[]>, versionIds: string[]): Promise<void> {
  if (!versionIds.length) return;
  const [{ n }] = await query('SELECT count(*)::int AS n FROM experiments WHERE dataset_version_id = ANY($1)', [versionIds]);
  if (n > 0) throw new ConflictError(`The data is used by ${n} experiment(s); delete them first`);
  const [{ n: m }] = await query('SELECT count(*)::int AS n FROM synthgen_models WHERE dataset_version_id = ANY($1)', [versionIds]);
  if (m > 0) throw new ConflictError(`The data is used by ${m} synthgen model(s); delete them first`);
}
