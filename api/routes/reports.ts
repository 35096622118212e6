import { z } from 'zod';
import { REPORT_KINDS } from '../../entities';
import { INCLUDE_SWITCHES, REPORT_FORMATS } from '../../services/reports/options';
import { callerId, type RouteDeps } from '../context';
import { pageOf } from '../presenters/page.schema';
import { presentReport } from '../presenters/report';
import { reportSchema } from '../presenters/report.schema';
import { RANGE_RESPONSES, sendStoredFile } from '../byte-range';
import { route, RouteDef } from '../route';
import { pageQuery, uuidParam } from '../validation';

const MAX_TITLE = 200;
const MAX_COMMENTS = 20_000;

/** The spec's report options; an unknown key is refused rather than silently ignored (a misspelt switch would otherwise do nothing). */
const reportOptions = z.strictObject({
  format: z.enum(REPORT_FORMATS).optional(),
  title: z.string().trim().min(1).max(MAX_TITLE).optional(),
  comments: z.string().max(MAX_COMMENTS).optional(),
  llm_insights: z.boolean().optional(),
  ...Object.fromEntries(INCLUDE_SWITCHES.map((k) => [k, z.boolean().optional()])),
}) as z.ZodType<Partial<Record<(typeof INCLUDE_SWITCHES)[number] | 'llm_insights', boolean>> & { format?: (typeof REPORT_FORMATS)[number]; title?: string; comments?: string }>;

const reportParams = z.object({ report_id: uuidParam });
const notReady = { description: 'Report has no artifact yet (still processing)' };

/** Reports (prefix /api/reports): HTML, PDF or DOCX documents made by `report_generate` jobs. */
export function reportRoutes({ services }: RouteDeps): RouteDef[] {
  const { reports } = services;
  const tag = 'reports';
  return [
    route({
      method: 'post',
      path: '/api/reports',
      tag,
      auth: 'user',
      scope: 'write:reports',
      rateLimit: 'report',
      summary: 'Queue a report on an experiment, model, project, deployment or synthgen job (format html, pdf or docx)',
      body: z.object({
        project_id: uuidParam,
        kind: z
          .string()
          .max(50)
          .meta({ enum: [...REPORT_KINDS] }),
        entity_id: uuidParam,
        options: reportOptions.optional(),
      }),
      responses: {
        201: { description: '{id, report_id, job_id, status: queued}', schema: z.object({ id: z.string(), report_id: z.string(), job_id: z.string(), status: z.string() }) },
        404: { description: 'Project, or the entity in the project, not found' },
        422: { description: 'Invalid kind, or an option of the wrong type' },
      },
      handler: async (ctx, { body }) => {
        const { report, job } = await reports.create(callerId(ctx), body);
        ctx.status = 201;
        return { id: report.id, report_id: report.id, job_id: job.id, status: report.status };
      },
    }),
    route({
      method: 'get',
      path: '/api/reports',
      tag,
      auth: 'user',
      scope: 'read:reports',
      summary: "A project's reports, newest first",
      query: pageQuery(500).extend({ project_id: uuidParam, kind: z.enum(REPORT_KINDS).optional(), entity_id: uuidParam.optional() }),
      responses: { 200: { description: 'List envelope of reports', schema: pageOf(reportSchema) }, 404: { description: 'Project not found' } },
      handler: async (ctx, { query }) => {
        const page = await reports.list(callerId(ctx), query);
        return { ...page, items: page.items.map(presentReport) };
      },
    }),
    route({
      method: 'get',
      path: '/api/reports/:report_id',
      tag,
      auth: 'user',
      scope: 'read:reports',
      summary: 'A report with its status and, once made, its artifact',
      params: reportParams,
      responses: {
        200: { description: '{report: {id, project_id, kind, entity_id, status, summary, artifact_id, job_id}}', schema: z.object({ report: reportSchema }) },
        404: { description: 'Report not found' },
      },
      handler: async (ctx, { params }) => ({ report: presentReport(await reports.get(callerId(ctx), params.report_id)) }),
    }),
    route({
      method: 'get',
      path: '/api/reports/:report_id/view',
      tag,
      auth: 'user',
      scope: 'read:reports',
      summary: 'The report inline (HTML or PDF; DOCX is sent as a download), framable by same-origin pages only',
      params: reportParams,
      responses: { 200: { description: 'The document', contentType: ['text/html', 'application/pdf'] }, ...RANGE_RESPONSES, 404: { description: 'Report not found' }, 409: notReady },
      handler: async (ctx, { params }) => {
        const { artifact, open } = await reports.file(callerId(ctx), params.report_id);
        ctx.set('X-Frame-Options', 'SAMEORIGIN');
        // The HTML is self-contained: no script, no request beyond its own data: images.
        ctx.set('Content-Security-Policy', "default-src 'none'; img-src data:; style-src 'unsafe-inline'; frame-ancestors 'self'");
        return sendStoredFile(ctx, artifact, open, artifact.contentType.includes('wordprocessingml') ? 'attachment' : 'inline');
      },
    }),
    route({
      method: 'get',
      path: '/api/reports/:report_id/download',
      tag,
      auth: 'user',
      scope: 'read:reports',
      summary: 'The report as an attachment named after what it is',
      params: reportParams,
      responses: { 200: { description: 'The document', contentType: ['application/octet-stream', '*/*'] }, ...RANGE_RESPONSES, 404: { description: 'Report not found' }, 409: notReady },
      handler: async (ctx, { params }) => {
        const { artifact, open } = await reports.file(callerId(ctx), params.report_id);
        return sendStoredFile(ctx, artifact, open);
      },
    }),
  ];
}
