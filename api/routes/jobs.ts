import { z } from 'zod';
import { jobWriteScope, REGISTERED_JOB_KINDS } from '../../services/job-kinds';
import { callerId, keyScopes, type RouteDeps } from '../context';
import { pageOf } from '../presenters/page.schema';
import { presentJob } from '../presenters/job';
import { jobSchema } from '../presenters/job.schema';
import { route, RouteDef } from '../route';
import { jobListQuery, jobParams } from './jobs.schema';

/** Background jobs of the projects the caller belongs to. */
export function jobRoutes({ services }: RouteDeps): RouteDef[] {
  const { jobs } = services;
  const tag = 'jobs';
  return [
    route({
      method: 'get',
      path: '/api/jobs',
      tag,
      auth: 'user',
      scope: 'read:projects',
      summary: 'Jobs, filtered by project, kind, status or entity',
      query: jobListQuery,
      responses: { 200: { description: 'List envelope of jobs', schema: pageOf(jobSchema) } },
      handler: async (ctx, { query }) => {
        const page = await jobs.list(callerId(ctx), query);
        return { ...page, items: page.items.map((j) => presentJob(j, { temporal_ui_url: jobs.temporalUiUrl(j) })) };
      },
    }),
    route({
      method: 'get',
      path: '/api/jobs/:job_id',
      tag,
      auth: 'user',
      scope: 'read:projects',
      summary: 'One job with live workflow progress and its Temporal UI link',
      params: jobParams,
      responses: { 200: { description: '{job}', schema: z.object({ job: jobSchema.extend({ live: z.unknown().optional() }) }) }, 404: { description: 'Job not found' } },
      handler: async (ctx, { params }) => {
        const { job, live } = await jobs.get(callerId(ctx), params.job_id);
        return { job: presentJob(job, { temporal_ui_url: jobs.temporalUiUrl(job), live }) };
      },
    }),
    route({
      method: 'post',
      path: '/api/jobs/:job_id/cancel',
      tag,
      auth: 'user',
      scopeRule: `The write scope of what the job acts on: ${cancelScopes()}`,
      summary: 'Cancel a queued or running job (editor or above); it ends `canceled`',
      params: jobParams,
      responses: { 200: { description: '{ok}' }, 404: { description: 'Job not found' }, 409: { description: 'Job already finished' } },
      handler: async (ctx, { params }) => {
        await jobs.cancelForUser(callerId(ctx), params.job_id, keyScopes(ctx));
        return { ok: true };
      },
    }),
  ];
}

/** Each kind's cancel scope, from the registry: `write:<resource> (<kinds>)`, kinds sharing a scope listed together. */
function cancelScopes(): string {
  const byScope = new Map<string, string[]>();
  for (const kind of REGISTERED_JOB_KINDS) {
    const scope = jobWriteScope(kind);
    byScope.set(scope, [...(byScope.get(scope) ?? []), kind]);
  }
  return [...byScope].map(([scope, kinds]) => `${scope} (${kinds.join(', ')})`).join(', ');
}
