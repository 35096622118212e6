import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { Artifact, Dataset, DatasetVersion, Job, User } from '../../entities';
import { compareVersions, DatasetProfile, DEFAULT_QUALITY_POLICY, preview, sample, writeCsv, writeXlsx } from '../../engine/data';
import { profileVersion } from '../../platform/dataset-profile';
import { SingleFlight } from '../../platform/single-flight';
import type { AppContext, AppDeps } from '../context';
import { conflict, notFound, unprocessable } from '../errors';
import { route, RouteDef } from '../route';
import { projectForUser } from '../services/access';
import { commitVersion, datasetForUser, deleteVersionFiles, ingestUpload, projectQualityPolicy, versionForUser, versionOf } from '../services/datasets';
import { JobService } from '../services/jobs';
import { receiveUpload } from '../uploads';
import { likePattern, listQuery, pageQuery, uuidParam } from '../validation';

const SORT = ['created_at', 'name', 'rows', 'columns', 'project_name'] as const;
const datasetParams = z.object({ dataset_id: uuidParam });
const versionParams = z.object({ dataset_id: uuidParam, version: z.coerce.number().int().min(0) });
const PREVIEW_ROWS = 20;

const SUMMARY_SQL = `SELECT d.id, d.name, d.description, d.project_id, p.name AS project_name, v.id AS dataset_version_id,
    v.artifact_id, v.row_count AS rows, v.column_count AS columns, v.version, d.created_at, d.updated_at
  FROM datasets d
  JOIN projects p ON p.id = d.project_id
  JOIN LATERAL (SELECT * FROM dataset_versions x WHERE x.dataset_id = d.id ORDER BY x.version DESC LIMIT 1) v ON true
  WHERE d.project_id IN (SELECT pm.project_id FROM project_members pm WHERE pm.user_id = $1)`;

interface SummaryRow {
  id: string; name: string; description: string; project_id: string; project_name: string; dataset_version_id: string;
  artifact_id: string; rows: string | number; columns: number; version: number; created_at: Date; updated_at: Date;
}

function presentDataset(r: SummaryRow) {
  return { ...r, rows: Number(r.rows), columns: Number(r.columns), created_at: new Date(r.created_at).toISOString(), updated_at: new Date(r.updated_at).toISOString() };
}

function presentVersion(v: DatasetVersion, createdByName: string | null = null) {
  return {
    id: v.id, dataset_id: v.datasetId, version: v.version, row_count: v.rowCount, column_count: v.columnCount, description: v.description,
    columns: v.columns, artifact_id: v.artifactId, source: v.source, created_by_name: createdByName, created_at: v.createdAt,
  };
}

/** How long an analyze waits for a running background profile, and how often it looks. */
const PROFILE_WAIT_MS = 2 * 60 * 1000;
const PROFILE_POLL_MS = 250;

/** Datasets: upload, versions, statistics, quality, comparison, downloads. */
export function datasetRoutes(deps: AppDeps): RouteDef[] {
  const { ds, store, config } = deps;
  const tmpRoot = path.join(config.dataDir, 'tmp', 'uploads');
  const tag = 'datasets';
  const analyzing = new SingleFlight<DatasetProfile>();
  const jobs = new JobService(ds, deps.temporal, config, deps.log);
  const me = (ctx: AppContext) => ctx.state.principal!.user.id;
  const parquetOf = async (v: DatasetVersion) => {
    const a = await ds.getRepository(Artifact).findOneByOrFail({ id: v.artifactId });
    return store.pathOf(a.storageKey);
  };

  async function summary(userId: string, datasetId: string) {
    const rows: SummaryRow[] = await ds.query(`${SUMMARY_SQL} AND d.id = $2`, [userId, datasetId]);
    if (!rows[0]) throw notFound('Dataset not found');
    return presentDataset(rows[0]);
  }

  async function sendTable(ctx: AppContext, v: DatasetVersion, name: string, format: 'csv' | 'xlsx') {
    const src = await parquetOf(v);
    fs.mkdirSync(tmpRoot, { recursive: true });
    const out = path.join(tmpRoot, `${v.id}-${Date.now()}.${format}`);
    if (format === 'csv') await writeCsv(src, out);
    else await writeXlsx(src, out);
    const stream = fs.createReadStream(out);
    stream.on('close', () => fs.rmSync(out, { force: true }));
    ctx.type = format === 'csv' ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    ctx.attachment(`${name.replace(/[^A-Za-z0-9_-]+/g, '_') || 'dataset'}-v${v.version}.${format}`);
    ctx.length = fs.statSync(out).size;
    ctx.body = stream;
  }

  /**
   * Starts a `dataset_profile` job for a large new version, so its first analyze finds the profile ready. The job is an
   * optimization, not part of the version: it is written after the version's commit, and if that fails (or no worker
   * takes it) analyze computes the profile when asked.
   */
  async function profileInBackground(ctx: AppContext, projectId: string, version: DatasetVersion) {
    const minRows = config.profileInBackgroundMinRows;
    if (minRows <= 0 || version.rowCount < minRows) return;
    try {
      const job = await ds.transaction((em) => jobs.create(em, { kind: 'dataset_profile', projectId, entityId: version.id, createdBy: me(ctx), input: { versionId: version.id } }));
      // Not awaited: the upload's answer does not wait on Temporal (start logs its own failure; the reconciler retries).
      void jobs.start(job);
    } catch (err) {
      ctx.state.log.warn({ err, versionId: version.id }, 'could not start the background profile');
    }
  }

  /**
   * The version's profile: the one a running `dataset_profile` job stores (waited for up to PROFILE_WAIT_MS), or else
   * computed and stored here.
   */
  async function profileOf(versionId: string): Promise<DatasetProfile> {
    const deadline = Date.now() + PROFILE_WAIT_MS;
    while (Date.now() < deadline && (await ds.getRepository(Job).existsBy({ kind: 'dataset_profile', entityId: versionId, status: 'running' }))) {
      await new Promise((r) => setTimeout(r, PROFILE_POLL_MS));
    }
    const done = await profileVersion(ds, store, versionId);
    const stored = (await ds.getRepository(DatasetVersion).findOneBy({ id: versionId }))?.statistics as DatasetProfile | null | undefined;
    if (!stored) throw new Error(done.skipped ?? 'the profile was not stored');
    return stored;
  }

  /** Experiments keep their training data: a version they use cannot be deleted under them. */
  async function assertNoExperiments(versionIds: string[]) {
    if (!versionIds.length) return;
    const [{ n }] = await ds.query('SELECT count(*)::int AS n FROM experiments WHERE dataset_version_id = ANY($1)', [versionIds]);
    if (n > 0) throw conflict(`The data is used by ${n} experiment(s); delete them first`);
  }

  async function upload(ctx: AppContext, target: { datasetId?: string }) {
    const received = await receiveUpload(ctx, tmpRoot, config.limits.maxDatasetUploadBytes);
    try {
      const f = received.fields;
      let projectId: string;
      let name = '';
      let description = f.description ?? '';
      let dataset: Dataset | undefined;
      if (target.datasetId) {
        dataset = await datasetForUser(ds.manager, me(ctx), target.datasetId, 'editor');
        projectId = dataset.projectId;
        name = dataset.name;
        if (!f.description?.trim()) throw unprocessable([{ loc: ['body', 'description'], msg: 'Field required', type: 'missing' }]);
      } else {
        const parsed = z.object({ project_id: uuidParam, name: z.string().trim().min(1).max(200), description: z.string().max(5000).default('') }).safeParse(f);
        if (!parsed.success) {
          throw unprocessable(parsed.error.issues.map((i) => ({ loc: ['body', ...i.path.map(String)], msg: i.message, type: i.code })));
        }
        projectId = parsed.data.project_id;
        name = parsed.data.name;
        description = parsed.data.description;
        await projectForUser(ds.manager, me(ctx), projectId, 'editor');
      }
      if (!received.file) throw unprocessable([{ loc: ['body', 'file'], msg: 'Field required', type: 'missing' }]);
      const upload = await ingestUpload(received.file.path, tmpRoot, await projectQualityPolicy(ds.manager, projectId), config.limits.maxDatasetColumns);
      try {
        const committed = await commitVersion(ds, store, {
          projectId,
          dataset: { id: dataset?.id, name, description },
          description,
          upload,
          originalName: received.file.filename,
          userId: me(ctx),
        });
        await profileInBackground(ctx, committed.dataset.projectId, committed.version);
        return committed;
      } finally {
        fs.rmSync(upload.stagingDir, { recursive: true, force: true });
      }
    } finally {
      received.cleanup();
    }
  }

  return [
    route({
      method: 'post', path: '/api/datasets/upload', tag, auth: 'user', scope: 'write:datasets', requestContentType: 'multipart/form-data',
      summary: 'Upload a CSV or Parquet file as a new dataset (version 0); delimiter, encoding and header are detected',
      responses: { 201: { description: '{id, dataset_id, dataset_version_id, artifact_id, quality: {overall_score, issues}}' }, 413: { description: 'File exceeds MAX_DATASET_UPLOAD_BYTES' }, 422: { description: 'Unsupported file type, or unreadable content' } },
      handler: async (ctx) => {
        const { dataset, version, artifact } = await upload(ctx, {});
        ctx.status = 201;
        const q = version.quality as { overall_score: number; checks: unknown[] };
        return { id: dataset.id, dataset_id: dataset.id, dataset_version_id: version.id, artifact_id: artifact.id, version: version.version, row_count: version.rowCount, column_count: version.columnCount, columns: version.columns, quality: { overall_score: q.overall_score, issues: q.checks } };
      },
    }),
    route({
      method: 'get', path: '/api/datasets', tag, auth: 'user', scope: 'read:datasets',
      summary: 'Datasets of one project, or of every accessible project',
      query: listQuery(SORT).extend({ project_id: uuidParam.optional() }),
      responses: { 200: { description: 'List envelope of datasets' } },
      handler: async (ctx, { query }) => {
        const params: unknown[] = [me(ctx)];
        let where = '';
        if (query.project_id) {
          params.push(query.project_id);
          where += ` AND d.project_id = $${params.length}`;
        }
        if (query.search) {
          params.push(likePattern(query.search));
          where += ` AND (d.name ILIKE $${params.length} OR d.description ILIKE $${params.length})`;
        }
        const order = { created_at: 'created_at', name: 'lower(name)', rows: 'rows', columns: 'columns', project_name: 'lower(project_name)' }[query.sort_field];
        const dir = query.sort_direction === 'asc' ? 'ASC' : 'DESC';
        const rows: SummaryRow[] = await ds.query(`SELECT * FROM (${SUMMARY_SQL}${where}) s ORDER BY ${order} ${dir}, id ${dir} LIMIT ${query.limit} OFFSET ${query.offset}`, params);
        const [{ total }] = await ds.query(`SELECT count(*)::int AS total FROM (${SUMMARY_SQL}${where}) s`, params);
        return { items: rows.map(presentDataset), total, limit: query.limit, offset: query.offset };
      },
    }),
    route({
      method: 'get', path: '/api/datasets/count', tag, auth: 'user', scope: 'read:datasets',
      summary: 'Number of accessible datasets, optionally in one project',
      query: z.object({ project_id: uuidParam.optional() }),
      responses: { 200: { description: '{count}' } },
      handler: async (ctx, { query }) => {
        const params: unknown[] = [me(ctx)];
        let sql = 'SELECT count(*)::int AS count FROM datasets d WHERE d.project_id IN (SELECT pm.project_id FROM project_members pm WHERE pm.user_id = $1)';
        if (query.project_id) {
          params.push(query.project_id);
          sql += ' AND d.project_id = $2';
        }
        const [{ count }] = await ds.query(sql, params);
        return { count };
      },
    }),
    route({
      method: 'get', path: '/api/datasets/projects/:project_id/quality-policy', tag, auth: 'user', scope: 'read:datasets',
      summary: 'Quality-check thresholds of a project (defaults where unset)', params: z.object({ project_id: uuidParam }),
      responses: { 200: { description: '{project_id, policy, defaults}' } },
      handler: async (ctx, { params }) => {
        await projectForUser(ds.manager, me(ctx), params.project_id);
        const custom = await projectQualityPolicy(ds.manager, params.project_id);
        return { project_id: params.project_id, policy: { ...DEFAULT_QUALITY_POLICY, ...custom }, defaults: DEFAULT_QUALITY_POLICY };
      },
    }),
    route({
      method: 'put', path: '/api/datasets/projects/:project_id/quality-policy', tag, auth: 'user', scope: 'write:datasets',
      summary: 'Set quality-check thresholds (admin or above); omitted keys keep their defaults', params: z.object({ project_id: uuidParam }),
      body: z
        .object({
          max_missing_percent: z.number().min(0).max(100),
          max_duplicate_percent: z.number().min(0).max(100),
          max_text_unique_ratio: z.number().min(0).max(1),
          max_integer_unique_ratio: z.number().min(0).max(1),
          min_rows_for_identifier: z.number().int().min(1),
          mixed_type_numeric_share: z.number().min(0).max(1),
          max_outlier_percent: z.number().min(0).max(100),
          min_class_ratio: z.number().min(0).max(1),
          max_target_classes: z.number().int().min(2).max(1000),
        })
        .partial()
        .strict(),
      responses: { 200: { description: '{project_id, policy}' } },
      handler: async (ctx, { params, body }) => {
        await projectForUser(ds.manager, me(ctx), params.project_id, 'admin');
        await ds.query(
          `INSERT INTO project_quality_policies (project_id, policy, updated_at) VALUES ($1, $2, now())
           ON CONFLICT (project_id) DO UPDATE SET policy = EXCLUDED.policy, updated_at = now()`,
          [params.project_id, JSON.stringify(body)],
        );
        return { project_id: params.project_id, policy: { ...DEFAULT_QUALITY_POLICY, ...body } };
      },
    }),
    route({
      method: 'get', path: '/api/datasets/:dataset_id', tag, auth: 'user', scope: 'read:datasets',
      summary: 'A dataset with the first 20 rows of its latest version', params: datasetParams,
      responses: { 200: { description: '{dataset, preview, preview_error}' }, 404: { description: 'Dataset not found' } },
      handler: async (ctx, { params }) => {
        const dataset = await summary(me(ctx), params.dataset_id);
        const v = await versionOf(ds.manager, dataset.id);
        let rows: unknown[] = [];
        let previewError: string | null = null;
        try {
          rows = await preview(await parquetOf(v), PREVIEW_ROWS);
        } catch (err) {
          previewError = `Preview unavailable: ${(err as Error).message}`;
        }
        return { dataset: { ...dataset, columns_schema: v.columns }, preview: rows, preview_error: previewError };
      },
    }),
    route({
      method: 'get', path: '/api/datasets/:dataset_id/columns', tag, auth: 'user', scope: 'read:datasets',
      summary: 'Columns of the latest version', params: datasetParams,
      responses: { 200: { description: '{columns: [{name, dtype}]}' } },
      handler: async (ctx, { params }) => {
        await datasetForUser(ds.manager, me(ctx), params.dataset_id);
        return { columns: (await versionOf(ds.manager, params.dataset_id)).columns };
      },
    }),
    route({
      method: 'get', path: '/api/datasets/:dataset_id/download', tag, auth: 'user', scope: 'read:datasets',
      summary: 'Latest version as CSV (default) or XLSX', params: datasetParams,
      query: z.object({ format: z.enum(['csv', 'xlsx']).default('csv') }),
      responses: { 200: { description: 'File', contentType: 'text/csv' } },
      handler: async (ctx, { params, query }) => {
        const d = await datasetForUser(ds.manager, me(ctx), params.dataset_id);
        await sendTable(ctx, await versionOf(ds.manager, d.id), d.name, query.format);
        return undefined;
      },
    }),
    route({
      method: 'get', path: '/api/datasets/:dataset_id/versions/:version/download', tag, auth: 'user', scope: 'read:datasets',
      summary: 'One version as CSV (default) or XLSX', params: versionParams,
      query: z.object({ format: z.enum(['csv', 'xlsx']).default('csv') }),
      responses: { 200: { description: 'File', contentType: 'text/csv' }, 404: { description: 'Dataset version not found' } },
      handler: async (ctx, { params, query }) => {
        const d = await datasetForUser(ds.manager, me(ctx), params.dataset_id);
        await sendTable(ctx, await versionOf(ds.manager, d.id, params.version), d.name, query.format);
        return undefined;
      },
    }),
    route({
      method: 'get', path: '/api/datasets/:dataset_id/analyze', tag, auth: 'user', scope: 'read:datasets',
      summary: 'Column statistics, duplicates, memory and correlations of the latest version (computed once, kept)', params: datasetParams,
      responses: { 200: { description: '{statistics, error}' } },
      handler: async (ctx, { params }) => {
        await datasetForUser(ds.manager, me(ctx), params.dataset_id);
        const v = await versionOf(ds.manager, params.dataset_id);
        if (v.statistics) return { statistics: v.statistics, error: null };
        try {
          // The first analyze of a large version takes seconds (~15 s at 10M rows): callers arriving meanwhile share it,
          // and a background profile job already at work is waited for rather than repeated.
          const statistics = await analyzing.run(v.id, () => profileOf(v.id));
          return { statistics, error: null };
        } catch (err) {
          ctx.state.log.warn({ err }, 'analyze failed');
          return { statistics: null, error: `Analysis failed: ${(err as Error).message}` };
        }
      },
    }),
    route({
      method: 'get', path: '/api/datasets/:dataset_id/quality', tag, auth: 'user', scope: 'read:datasets',
      summary: 'Quality report of the latest version, computed at upload', params: datasetParams,
      responses: { 200: { description: '{quality: {overall_score, checks, target, sample_rows, version}}' } },
      handler: async (ctx, { params }) => {
        await datasetForUser(ds.manager, me(ctx), params.dataset_id);
        const v = await versionOf(ds.manager, params.dataset_id);
        const q = v.quality as { overall_score: number; checks: unknown[]; target?: string | null; sample_rows?: number | null };
        // sample_rows: rows the estimated checks read on a large table, null when every check read it all.
        return { quality: { overall_score: q.overall_score, checks: q.checks, target: q.target ?? null, sample_rows: q.sample_rows ?? null, version: v.version } };
      },
    }),
    route({
      method: 'get', path: '/api/datasets/:dataset_id/lineage', tag, auth: 'user', scope: 'read:datasets',
      summary: 'Experiments, models and deployments built from this dataset', params: datasetParams,
      responses: { 200: { description: '{experiments, models, deployments}' } },
      handler: async (ctx, { params }) => {
        await datasetForUser(ds.manager, me(ctx), params.dataset_id);
        const experiments: { id: string; name: string; target_column: string; problem_type: string; status: string; model_count: number }[] = await ds.query(
          `SELECT e.id, e.name, e.target_column, e.problem_type, e.status, (SELECT count(*)::int FROM models m WHERE m.experiment_id = e.id) AS model_count
             FROM experiments e JOIN dataset_versions v ON v.id = e.dataset_version_id WHERE v.dataset_id = $1 ORDER BY e.created_at`,
          [params.dataset_id],
        );
        const models: { id: string; name: string; algorithm: string; experiment_id: string }[] = experiments.length
          ? await ds.query(`SELECT m.id, m.name, m.algo AS algorithm, m.experiment_id FROM models m WHERE m.experiment_id = ANY($1) ORDER BY m.created_at`, [experiments.map((e) => e.id)])
          : [];
        // Deployments join here when they exist.
        return { experiments, models, deployments: [] };
      },
    }),
    route({
      method: 'delete', path: '/api/datasets/:dataset_id', tag, auth: 'user', scope: 'write:datasets',
      summary: 'Delete a dataset with all versions and their files (editor or above)', params: datasetParams,
      responses: { 200: { description: '{ok}' } },
      handler: async (ctx, { params }) => {
        const d = await datasetForUser(ds.manager, me(ctx), params.dataset_id, 'editor');
        const versions = await ds.getRepository(DatasetVersion).findBy({ datasetId: d.id });
        await assertNoExperiments(versions.map((v) => v.id));
        await ds.getRepository(Dataset).delete({ id: d.id });
        await deleteVersionFiles(ds, store, versions.map((v) => v.artifactId));
        return { ok: true };
      },
    }),
    route({
      method: 'get', path: '/api/datasets/:dataset_id/versions', tag, auth: 'user', scope: 'read:datasets',
      summary: 'Versions in version order', params: datasetParams, query: pageQuery(100),
      responses: { 200: { description: 'List envelope of dataset versions' } },
      handler: async (ctx, { params, query }) => {
        await datasetForUser(ds.manager, me(ctx), params.dataset_id);
        const qb = ds.getRepository(DatasetVersion).createQueryBuilder('v').where('v.dataset_id = :id', { id: params.dataset_id });
        const total = await qb.getCount();
        const rows = await qb.leftJoin(User, 'u', 'u.id = v.created_by').addSelect('u.name', 'creator').orderBy('v.version', 'ASC').offset(query.offset).limit(query.limit).getRawAndEntities();
        return { items: rows.entities.map((v, i) => presentVersion(v, rows.raw[i]?.creator ?? null)), total, limit: query.limit, offset: query.offset };
      },
    }),
    route({
      method: 'post', path: '/api/datasets/:dataset_id/versions', tag, auth: 'user', scope: 'write:datasets', requestContentType: 'multipart/form-data', params: datasetParams,
      summary: 'Upload a new version (multipart: description, file)',
      responses: { 201: { description: '{id, dataset_version_id, version, row_count, column_count}' } },
      handler: async (ctx) => {
        const params = datasetParams.parse(ctx.params);
        const { version } = await upload(ctx, { datasetId: params.dataset_id });
        ctx.status = 201;
        const q = version.quality as { overall_score: number; checks: unknown[] };
        return { id: version.id, dataset_version_id: version.id, version: version.version, row_count: version.rowCount, column_count: version.columnCount, quality: { overall_score: q.overall_score, issues: q.checks } };
      },
    }),
    route({
      method: 'delete', path: '/api/datasets/:dataset_id/versions/:version', tag, auth: 'user', scope: 'write:datasets', params: versionParams,
      summary: 'Delete one version and its file (not the only one: delete the dataset instead)',
      responses: { 200: { description: '{ok}' }, 409: { description: 'Only version' } },
      handler: async (ctx, { params }) => {
        const d = await datasetForUser(ds.manager, me(ctx), params.dataset_id, 'editor');
        const v = await versionOf(ds.manager, d.id, params.version);
        const count = await ds.getRepository(DatasetVersion).countBy({ datasetId: d.id });
        if (count <= 1) throw conflict('Cannot delete the only version of a dataset; delete the dataset instead');
        await assertNoExperiments([v.id]);
        await ds.getRepository(DatasetVersion).delete({ id: v.id });
        await deleteVersionFiles(ds, store, [v.artifactId]);
        return { ok: true };
      },
    }),
    route({
      method: 'get', path: '/api/datasets/:dataset_id/compare', tag, auth: 'user', scope: 'read:datasets', params: datasetParams,
      summary: 'Compare two versions: schema changes and per-column shift with PSI',
      query: z.object({ v1: z.coerce.number().int().min(0), v2: z.coerce.number().int().min(0) }),
      responses: { 200: { description: '{summary, column_diffs}' }, 404: { description: 'Dataset version not found' } },
      handler: async (ctx, { params, query }) => {
        const d = await datasetForUser(ds.manager, me(ctx), params.dataset_id);
        const a = await versionOf(ds.manager, d.id, query.v1);
        const b = await versionOf(ds.manager, d.id, query.v2);
        const cmp = await compareVersions(await parquetOf(a), await parquetOf(b));
        return { summary: { v1: a.version, v2: b.version, ...cmp.summary }, column_diffs: cmp.column_diffs };
      },
    }),
    route({
      method: 'get', path: '/api/dataset-versions/:dataset_version_id', tag, auth: 'user', scope: 'read:datasets',
      summary: 'One dataset version', params: z.object({ dataset_version_id: uuidParam }),
      responses: { 200: { description: '{id, dataset_id, version, row_count, column_count, columns, created_at}' } },
      handler: async (ctx, { params }) => {
        const v = await versionForUser(ds.manager, me(ctx), params.dataset_version_id);
        return presentVersion(v);
      },
    }),
    route({
      method: 'get', path: '/api/dataset-versions/:dataset_version_id/sample', tag, auth: 'user', scope: 'read:datasets',
      summary: 'A reproducible random sample of rows', params: z.object({ dataset_version_id: uuidParam }),
      query: z.object({ n: z.coerce.number().int().min(1).max(10_000).default(100), seed: z.coerce.number().int().min(0).max(2 ** 31 - 1).default(42) }),
      responses: { 200: { description: '{dataset_version_id, rows, count}' } },
      handler: async (ctx, { params, query }) => {
        const v = await versionForUser(ds.manager, me(ctx), params.dataset_version_id);
        const rows = await sample(await parquetOf(v), query.n, query.seed);
        return { dataset_version_id: v.id, rows, count: rows.length };
      },
    }),
  ];
}
