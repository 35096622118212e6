import { z } from 'zod';
import type { DatasetVersion } from '../../entities';
import { callerId, type AppContext, type RouteDeps } from '../context';
import { columnSchema } from '../presenters/common.schema';
import { presentDataset, presentQuality, presentUploadQuality, presentVersion } from '../presenters/dataset';
import {
  analyzeSchema,
  comparisonSchema,
  datasetDetailSchema,
  datasetSchema,
  qualitySchema,
  sampleSchema,
  uploadedDatasetSchema,
  uploadedVersionSchema,
  versionSchema,
} from '../presenters/dataset.schema';
import { pageOf } from '../presenters/page.schema';
import { route, RouteDef } from '../route';
import { withoutPaths } from '../redact-paths';
import { receiveUpload } from '../uploads';
import { pageQuery, parseOrThrow } from '../validation';
import {
  compareQuery,
  qualityQuery,
  versionQuery,
  datasetCountQuery,
  datasetListQuery,
  datasetParams,
  datasetVersionParams,
  newVersionForm,
  projectParams,
  qualityPolicyBody,
  sampleQuery,
  tableFormat,
  uploadFields,
  uploadForm,
  versionParams,
} from './datasets.schema';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Datasets: upload, versions, statistics, quality, comparison, downloads. */
export function datasetRoutes({ services, config }: RouteDeps): RouteDef[] {
  const { datasets } = services;
  const tag = 'datasets';

  const { maxDatasetColumns, maxDatasetRows, maxDatasetCells } = config.limits;
  /** The refusals of a file's content, with the configured size limits (a Parquet file's size is read from its footer). */
  const contentRefusals = {
    413: {
      description: "File exceeds the caller's plan's max_upload_bytes (default MAX_DATASET_UPLOAD_BYTES), refused from its Content-Length before the body is read, or cut off when it grows past it",
    },
    422: {
      description:
        'Unsupported file type, unreadable content, or a table past a size limit, named in `detail`: more than ' +
        `MAX_DATASET_COLUMNS (${maxDatasetColumns}) columns, MAX_DATASET_ROWS (${maxDatasetRows}) rows or MAX_DATASET_CELLS ` +
        `(${maxDatasetCells}) cells (rows × columns). A Parquet file is refused from its footer before its data is read; a CSV's ` +
        'conversion stops one row past the limit. Nothing is stored.',
    },
  };

  /** Receives the file within the caller's plan's `max_upload_bytes`, read before any byte of the body. */
  const receive = async (ctx: AppContext, beforeFile?: (fields: Record<string, string>) => Promise<void>) => {
    const maxFileBytes = (await services.plans.of(callerId(ctx))).limits.max_upload_bytes;
    return receiveUpload(ctx, { tmpRoot: datasets.tmpRoot, maxFileBytes, limitName: 'max_upload_bytes of the plan', idleTimeoutMs: config.limits.uploadIdleTimeoutMs, beforeFile });
  };

  /** Streams a version as a CSV or XLSX attachment named after the dataset. */
  async function sendTable(ctx: AppContext, v: DatasetVersion, name: string, format: 'csv' | 'xlsx') {
    const { stream, size } = await datasets.exportTable(v, format);
    ctx.type = format === 'csv' ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    ctx.attachment(`${name.replace(/[^A-Za-z0-9_-]+/g, '_') || 'dataset'}-v${v.version}.${format}`);
    ctx.length = size;
    ctx.body = stream;
  }

  return [
    route({
      method: 'post',
      path: '/api/datasets/upload',
      tag,
      auth: 'user',
      scope: 'write:datasets',
      requestContentType: 'multipart/form-data',
      form: uploadForm,
      summary: 'Upload a CSV or Parquet file as a new dataset (version 0); delimiter, encoding and header are detected',
      responses: {
        201: { description: '{id, dataset_id, dataset_version_id, artifact_id, quality: {overall_score, issues}}', schema: uploadedDatasetSchema },
        ...contentRefusals,
      },
      handler: async (ctx) => {
        // The fields sent before the file decide whether the file is wanted at all.
        const received = await receive(ctx, async (early) => {
          const fields = uploadFields.safeParse(early);
          if (fields.success) await services.access.project(callerId(ctx), fields.data.project_id, 'editor');
        });
        try {
          const fields = parseOrThrow(uploadFields, received.fields, 'body');
          const { dataset, version, artifact } = await datasets.createFromFile(callerId(ctx), {
            projectId: fields.project_id,
            name: fields.name,
            description: fields.description,
            file: received.file,
          });
          ctx.status = 201;
          return {
            id: dataset.id,
            dataset_id: dataset.id,
            dataset_version_id: version.id,
            artifact_id: artifact.id,
            version: version.version,
            row_count: version.rowCount,
            column_count: version.columnCount,
            columns: version.columns,
            quality: presentUploadQuality(version),
          };
        } finally {
          received.cleanup();
        }
      },
    }),
    route({
      method: 'get',
      path: '/api/datasets',
      tag,
      auth: 'user',
      scope: 'read:datasets',
      summary: 'Datasets of one project, or of every accessible project',
      query: datasetListQuery,
      responses: { 200: { description: 'List envelope of datasets', schema: pageOf(datasetSchema) } },
      handler: async (ctx, { query }) => {
        const page = await datasets.list(callerId(ctx), query);
        return { ...page, items: page.items.map(presentDataset) };
      },
    }),
    route({
      method: 'get',
      path: '/api/datasets/count',
      tag,
      auth: 'user',
      scope: 'read:datasets',
      summary: 'Number of accessible datasets, optionally in one project',
      query: datasetCountQuery,
      responses: { 200: { description: '{count}', schema: z.object({ count: z.number().int() }) } },
      handler: async (ctx, { query }) => ({ count: await datasets.count(callerId(ctx), query.project_id) }),
    }),
    route({
      method: 'get',
      path: '/api/datasets/projects/:project_id/quality-policy',
      tag,
      auth: 'user',
      scope: 'read:datasets',
      summary: 'Quality-check thresholds of a project (defaults where unset)',
      params: projectParams,
      responses: { 200: { description: '{project_id, policy, defaults}' } },
      handler: async (ctx, { params }) => ({ project_id: params.project_id, ...(await datasets.qualityPolicyForUser(callerId(ctx), params.project_id)) }),
    }),
    route({
      method: 'put',
      path: '/api/datasets/projects/:project_id/quality-policy',
      tag,
      auth: 'user',
      scope: 'write:datasets',
      summary: 'Set quality-check thresholds (admin or above); omitted keys keep their defaults',
      params: projectParams,
      body: qualityPolicyBody,
      responses: { 200: { description: '{project_id, policy}' } },
      handler: async (ctx, { params, body }) => ({ project_id: params.project_id, policy: await datasets.setQualityPolicy(callerId(ctx), params.project_id, body) }),
    }),
    route({
      method: 'get',
      path: '/api/datasets/:dataset_id',
      tag,
      auth: 'user',
      scope: 'read:datasets',
      summary: 'A dataset with the first 20 rows of its latest version, or of the version asked for (`preview_version` says which)',
      params: datasetParams,
      query: versionQuery,
      responses: { 200: { description: '{dataset, preview, preview_error, preview_version}', schema: datasetDetailSchema }, 404: { description: 'Dataset not found, or Dataset version not found' } },
      handler: async (ctx, { params, query }) => {
        const d = await datasets.withPreview(callerId(ctx), params.dataset_id, query.version);
        return {
          dataset: { ...presentDataset(d.dataset), columns_schema: d.version.columns },
          preview: d.rows,
          preview_error: d.error && withoutPaths(d.error),
          preview_version: d.version.version,
        };
      },
    }),
    route({
      method: 'get',
      path: '/api/datasets/:dataset_id/columns',
      tag,
      auth: 'user',
      scope: 'read:datasets',
      summary: 'Columns of the latest version',
      params: datasetParams,
      responses: { 200: { description: '{columns: [{name, dtype}]}', schema: z.object({ columns: z.array(columnSchema) }) } },
      handler: async (ctx, { params }) => ({ columns: (await datasets.latestForUser(callerId(ctx), params.dataset_id)).version.columns }),
    }),
    route({
      method: 'get',
      path: '/api/datasets/:dataset_id/download',
      tag,
      auth: 'user',
      scope: 'read:datasets',
      summary: 'Latest version as CSV (default) or XLSX',
      params: datasetParams,
      query: tableFormat,
      responses: { 200: { description: 'File', contentType: ['text/csv', XLSX] } },
      handler: async (ctx, { params, query }) => {
        const { dataset, version } = await datasets.latestForUser(callerId(ctx), params.dataset_id);
        await sendTable(ctx, version, dataset.name, query.format);
        return undefined;
      },
    }),
    route({
      method: 'get',
      path: '/api/datasets/:dataset_id/versions/:version/download',
      tag,
      auth: 'user',
      scope: 'read:datasets',
      summary: 'One version as CSV (default) or XLSX',
      params: versionParams,
      query: tableFormat,
      responses: { 200: { description: 'File', contentType: ['text/csv', XLSX] }, 404: { description: 'Dataset version not found' } },
      handler: async (ctx, { params, query }) => {
        const { dataset, version } = await datasets.versionForUser(callerId(ctx), params.dataset_id, params.version);
        await sendTable(ctx, version, dataset.name, query.format);
        return undefined;
      },
    }),
    route({
      method: 'get',
      path: '/api/datasets/:dataset_id/analyze',
      tag,
      auth: 'user',
      scope: 'read:datasets',
      summary: 'Column statistics, duplicates, memory and correlations of the latest version, or of the version asked for (computed once, kept)',
      params: datasetParams,
      query: versionQuery,
      responses: { 200: { description: '{statistics, error}', schema: analyzeSchema }, 404: { description: 'Dataset not found, or Dataset version not found' } },
      handler: async (ctx, { params, query }) => {
        const analyzed = await datasets.analyze(callerId(ctx), params.dataset_id, query.version);
        return { ...analyzed, error: analyzed.error && withoutPaths(analyzed.error) };
      },
    }),
    route({
      method: 'get',
      path: '/api/datasets/:dataset_id/quality',
      tag,
      auth: 'user',
      scope: 'read:datasets',
      summary:
        'Quality report of the latest version, or of the version asked for. Checks that depend on a target (class balance) use `target`, else the target of the latest experiment on the dataset, else none: they are then listed with `needs_target` and left out of the score, never computed on a guessed target',
      params: datasetParams,
      query: qualityQuery,
      responses: {
        200: { description: '{quality: {overall_score, checks, target, target_source, target_experiment, sample_rows, version}}', schema: z.object({ quality: qualitySchema }) },
        404: { description: 'Dataset not found, or Dataset version not found' },
        422: { description: '`target` is not a column of the version (named in the answer), or a parameter of the wrong type' },
      },
      handler: async (ctx, { params, query }) => ({ quality: presentQuality(await datasets.quality(callerId(ctx), params.dataset_id, query)) }),
    }),
    route({
      method: 'get',
      path: '/api/datasets/:dataset_id/lineage',
      tag,
      auth: 'user',
      scope: 'read:datasets',
      summary: 'Experiments, models and deployments built from this dataset',
      params: datasetParams,
      responses: { 200: { description: '{experiments, models, deployments}' } },
      handler: async (ctx, { params }) => datasets.lineage(callerId(ctx), params.dataset_id),
    }),
    route({
      method: 'delete',
      path: '/api/datasets/:dataset_id',
      tag,
      auth: 'user',
      scope: 'write:datasets',
      summary: 'Delete a dataset with all versions and their files (editor or above)',
      params: datasetParams,
      responses: { 200: { description: '{ok}' } },
      handler: async (ctx, { params }) => {
        await datasets.delete(callerId(ctx), params.dataset_id);
        return { ok: true };
      },
    }),
    route({
      method: 'get',
      path: '/api/datasets/:dataset_id/versions',
      tag,
      auth: 'user',
      scope: 'read:datasets',
      summary: 'Versions in version order',
      params: datasetParams,
      query: pageQuery(100),
      responses: { 200: { description: 'List envelope of dataset versions', schema: pageOf(versionSchema) } },
      handler: async (ctx, { params, query }) => {
        const page = await datasets.listVersions(callerId(ctx), params.dataset_id, query);
        return { ...page, items: page.items.map((v) => presentVersion(v.version, v.createdByName, v.statistics)) };
      },
    }),
    route({
      method: 'post',
      path: '/api/datasets/:dataset_id/versions',
      tag,
      auth: 'user',
      scope: 'write:datasets',
      requestContentType: 'multipart/form-data',
      params: datasetParams,
      form: newVersionForm,
      summary: 'Upload a new version (multipart: description, file)',
      responses: { 201: { description: '{id, dataset_version_id, version, row_count, column_count}', schema: uploadedVersionSchema }, ...contentRefusals },
      handler: async (ctx) => {
        const params = datasetParams.parse(ctx.params);
        // Nobody's file is read into a dataset they cannot write to.
        await services.access.dataset(callerId(ctx), params.dataset_id, 'editor');
        const received = await receive(ctx);
        try {
          const { version } = await datasets.addVersionFromFile(callerId(ctx), { datasetId: params.dataset_id, description: received.fields.description, file: received.file });
          ctx.status = 201;
          return { id: version.id, dataset_version_id: version.id, version: version.version, row_count: version.rowCount, column_count: version.columnCount, quality: presentUploadQuality(version) };
        } finally {
          received.cleanup();
        }
      },
    }),
    route({
      method: 'delete',
      path: '/api/datasets/:dataset_id/versions/:version',
      tag,
      auth: 'user',
      scope: 'write:datasets',
      params: versionParams,
      summary: 'Delete one version and its file (not the only one: delete the dataset instead)',
      responses: { 200: { description: '{ok}' }, 409: { description: 'Only version' } },
      handler: async (ctx, { params }) => {
        await datasets.deleteVersion(callerId(ctx), params.dataset_id, params.version);
        return { ok: true };
      },
    }),
    route({
      method: 'get',
      path: '/api/datasets/:dataset_id/compare',
      tag,
      auth: 'user',
      scope: 'read:datasets',
      params: datasetParams,
      summary: 'Compare two versions: schema changes and per-column shift with PSI',
      query: compareQuery,
      responses: { 200: { description: '{summary, column_diffs}', schema: comparisonSchema }, 404: { description: 'Dataset version not found' } },
      handler: async (ctx, { params, query }) => datasets.compare(callerId(ctx), params.dataset_id, query.v1, query.v2),
    }),
    route({
      method: 'get',
      path: '/api/dataset-versions/:dataset_version_id',
      tag,
      auth: 'user',
      scope: 'read:datasets',
      summary: 'One dataset version',
      params: datasetVersionParams,
      responses: { 200: { description: '{id, dataset_id, version, row_count, column_count, columns, created_at}', schema: versionSchema } },
      handler: async (ctx, { params }) => {
        const { version } = await services.access.version(callerId(ctx), params.dataset_version_id);
        return presentVersion(version, null, (await datasets.statisticsStates([version])).get(version.id)!);
      },
    }),
    route({
      method: 'get',
      path: '/api/dataset-versions/:dataset_version_id/sample',
      tag,
      auth: 'user',
      scope: 'read:datasets',
      summary: 'A reproducible random sample of rows',
      params: datasetVersionParams,
      query: sampleQuery,
      responses: { 200: { description: '{dataset_version_id, rows, count}', schema: sampleSchema } },
      handler: async (ctx, { params, query }) => {
        const { version, rows } = await datasets.sample(callerId(ctx), params.dataset_version_id, query.n, query.seed);
        return { dataset_version_id: version.id, rows, count: rows.length };
      },
    }),
  ];
}
