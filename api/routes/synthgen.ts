import { z } from 'zod';
import { MODEL_TYPE_CATALOGUE } from '../../services/synthgen/config';
import { callerId, type RouteDeps } from '../context';
import { pageOf } from '../presenters/page.schema';
import { presentSynthJob, presentSynthJobSummary, presentSynthModel } from '../presenters/synthgen';
import { modelTypeSchema, synthJobSchema, synthJobSummarySchema, synthModelSchema } from '../presenters/synthgen.schema';
import { RANGE_RESPONSES, sendStoredFile } from '../byte-range';
import { route, RouteDef } from '../route';
import { createModelBody, generateBody, jobDownloadQuery, jobListQuery, jobParams, modelListQuery, modelParams } from './synthgen.schema';

const modelNotFound = { description: 'Model not found' };
const jobNotFound = { description: 'Job not found' };

/** SynthGen (prefix /api/synthgen): generative models trained on a dataset version, and the rows they generate. */
export function synthgenRoutes({ services, config }: RouteDeps): RouteDef[] {
  const { synthgen } = services;
  const tag = 'synthgen';
  const maxRows = config.synthgen.maxRows;

  return [
    route({
      method: 'post',
      path: '/api/synthgen/models',
      tag,
      auth: 'user',
      scope: 'write:synthgen',
      summary: 'Create a model on a dataset version of the project and queue its `synthgen_train` job (status `pending`, then `ready` or `failed`)',
      body: createModelBody,
      responses: {
        201: { description: "{id, model_id, job_id, status: 'pending'}", schema: z.object({ id: z.string(), model_id: z.string(), job_id: z.string(), status: z.string() }) },
        404: { description: 'Project not found, or Dataset version not found (missing or of another project)' },
        422: { description: 'Invalid model_type; a config option unknown to the type, of the wrong type or out of bounds, or pac not dividing batch_size (named)' },
      },
      handler: async (ctx, { body }) => {
        const { model, job } = await synthgen.create(callerId(ctx), body);
        ctx.status = 201;
        return { id: model.id, model_id: model.id, job_id: job.id, status: model.status };
      },
    }),
    route({
      method: 'get',
      path: '/api/synthgen/models',
      tag,
      auth: 'user',
      scope: 'read:synthgen',
      summary: 'Models of a project, or of every project the caller is a member of; newest first',
      query: modelListQuery,
      responses: { 200: { description: 'List envelope of models', schema: pageOf(synthModelSchema) }, 404: { description: 'Project not found' } },
      handler: async (ctx, { query }) => {
        const page = await synthgen.list(callerId(ctx), query);
        return { ...page, items: page.items.map(presentSynthModel) };
      },
    }),
    route({
      method: 'get',
      path: '/api/synthgen/model-types',
      tag,
      auth: 'user',
      scope: 'read:synthgen',
      summary: 'The four model types',
      responses: { 200: { description: '{model_types: [{id, name, description}]}', schema: z.object({ model_types: z.array(modelTypeSchema) }) } },
      handler: async () => ({ model_types: MODEL_TYPE_CATALOGUE }),
    }),
    route({
      method: 'get',
      path: '/api/synthgen/models/:model_id',
      tag,
      auth: 'user',
      scope: 'read:synthgen',
      params: modelParams,
      summary: 'A model with its jobs (oldest first)',
      responses: {
        200: { description: '{model: {...}, jobs: [{id, job_type, status, created_at}]}', schema: z.object({ model: synthModelSchema, jobs: z.array(synthJobSummarySchema) }) },
        404: modelNotFound,
      },
      handler: async (ctx, { params }) => {
        const { view, jobs } = await synthgen.get(callerId(ctx), params.model_id);
        return { model: presentSynthModel(view), jobs: jobs.map(presentSynthJobSummary) };
      },
    }),
    route({
      method: 'post',
      path: '/api/synthgen/models/:model_id/generate',
      tag,
      auth: 'user',
      scope: 'write:synthgen',
      params: modelParams,
      summary: `Queue a \`synthgen_generate\` job: num_rows rows (1-${maxRows}, default 1000) as CSV and Parquet, with a quality report and a privacy check; the model must be \`ready\``,
      body: generateBody(maxRows),
      responses: {
        200: { description: "{job_id, synthgen_job_id, status: 'pending'}", schema: z.object({ job_id: z.string(), synthgen_job_id: z.string(), status: z.string() }) },
        400: { description: 'Model is not ready' },
        404: modelNotFound,
        422: { description: `num_rows must be between 1 and ${maxRows}; a condition on a column the model does not have, or a value the column never holds (named)` },
      },
      handler: async (ctx, { params, body }) => {
        const job = await synthgen.generate(callerId(ctx), params.model_id, { ...body, seed: body.seed ?? undefined });
        return { job_id: job.id, synthgen_job_id: job.id, status: 'pending' };
      },
    }),
    route({
      method: 'delete',
      path: '/api/synthgen/models/:model_id',
      tag,
      auth: 'user',
      scope: 'write:synthgen',
      params: modelParams,
      summary: 'Delete a model with its jobs, artifacts and files; its open jobs are canceled',
      responses: { 200: { description: '{ok, model_id}' }, 404: modelNotFound },
      handler: async (ctx, { params }) => {
        await synthgen.delete(callerId(ctx), params.model_id);
        return { ok: true, model_id: params.model_id };
      },
    }),
    route({
      method: 'get',
      path: '/api/synthgen/jobs',
      tag,
      auth: 'user',
      scope: 'read:synthgen',
      summary: 'Train and generate jobs, filtered by project, model or status; newest first',
      query: jobListQuery,
      responses: { 200: { description: 'List envelope of jobs', schema: pageOf(synthJobSchema) }, 404: { description: 'Project not found or Model not found' } },
      handler: async (ctx, { query }) => {
        const page = await synthgen.listJobs(callerId(ctx), query);
        return { ...page, items: page.items.map(presentSynthJob) };
      },
    }),
    route({
      method: 'get',
      path: '/api/synthgen/jobs/:job_id',
      tag,
      auth: 'user',
      scope: 'read:synthgen',
      params: jobParams,
      summary: 'A job: status, progress, and for a completed generation its output, quality report and privacy check',
      responses: { 200: { description: 'The job object', schema: synthJobSchema }, 404: jobNotFound },
      handler: async (ctx, { params }) => presentSynthJob(await synthgen.getJob(callerId(ctx), params.job_id)),
    }),
    route({
      method: 'get',
      path: '/api/synthgen/jobs/:job_id/download',
      tag,
      auth: 'user',
      scope: 'read:synthgen',
      params: jobParams,
      query: jobDownloadQuery,
      summary: "A completed generation's rows: CSV, or `format=parquet` for the typed Parquet file",
      responses: {
        200: { description: 'The file', contentType: ['text/csv', 'application/vnd.apache.parquet'] },
        ...RANGE_RESPONSES,
        404: jobNotFound,
        409: { description: 'Job output not available yet' },
      },
      handler: async (ctx, { params, query }) => {
        const { artifact, open } = await synthgen.output(callerId(ctx), params.job_id, query.format);
        return sendStoredFile(ctx, artifact, open);
      },
    }),
  ];
}
