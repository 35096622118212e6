import { z } from 'zod';
import { callerId, type RouteDeps } from '../context';
import { pageOf } from '../presenters/page.schema';
import { presentReport } from '../presenters/report';
import { reportSchema } from '../presenters/report.schema';
import { RANGE_RESPONSES, sendStoredFile } from '../byte-range';
import { route, RouteDef } from '../route';
import { createReportBody, reportListQuery, reportParams } from './reports.schema';

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
      body: createReportBody,
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
      query: reportListQuery,
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
