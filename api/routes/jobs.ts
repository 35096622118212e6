import { z } from 'zod';
import { Job, JOB_KINDS, JOB_STATUSES } from '../../entities';
import type { AppDeps } from '../context';
import { notFound } from '../errors';
import { route, RouteDef } from '../route';
import { assertProjectAccess } from '../services/access';
import { JobService, presentJob } from '../services/jobs';
import { listQuery, uuidParam } from '../validation';

const SORT = ['created_at', 'status', 'kind', 'progress', 'updated_at'] as const;

/** Background jobs of the projects the caller belongs to. */
export function jobRoutes(deps: AppDeps): RouteDef[] {
  const { ds } = deps;
  const jobs = new JobService(ds, deps.temporal, deps.config, deps.log);
  const tag = 'jobs';

  async function jobForUser(userId: string, jobId: string, minRole: 'viewer' | 'editor' = 'viewer'): Promise<Job> {
    const job = await ds.getRepository(Job).findOneBy({ id: jobId });
    if (!job) throw notFound('Job not found');
    await assertProjectAccess(ds.manager, userId, job.projectId, 'Job not found', minRole);
    return job;
  }

  return [
    route({
      method: 'get', path: '/api/jobs', tag, auth: 'user', scope: 'read:projects',
      summary: 'Jobs, filtered by project, kind, status or entity',
      query: listQuery(SORT).extend({
        project_id: uuidParam.optional(),
        kind: z.enum(JOB_KINDS).optional(),
        status: z.enum(JOB_STATUSES).optional(),
        entity_id: uuidParam.optional(),
      }),
      responses: { 200: { description: 'List envelope of jobs' } },
      handler: async (ctx, { query }) => {
        const qb = ds
          .getRepository(Job)
          .createQueryBuilder('j')
          .where('j.project_id IN (SELECT pm.project_id FROM project_members pm WHERE pm.user_id = :userId)', { userId: ctx.state.principal!.user.id });
        if (query.project_id) qb.andWhere('j.project_id = :pid', { pid: query.project_id });
        if (query.kind) qb.andWhere('j.kind = :kind', { kind: query.kind });
        if (query.status) qb.andWhere('j.status = :status', { status: query.status });
        if (query.entity_id) qb.andWhere('j.entity_id = :eid', { eid: query.entity_id });
        if (query.search) qb.andWhere("(j.kind ILIKE :s OR coalesce(j.message,'') ILIKE :s)", { s: `%${query.search}%` });
        const dir = query.sort_direction === 'asc' ? 'ASC' : 'DESC';
        const [rows, total] = await qb.orderBy(`j.${query.sort_field}`, dir).addOrderBy('j.id', dir).skip(query.offset).take(query.limit).getManyAndCount();
        return { items: rows.map((j) => presentJob(j, { temporal_ui_url: jobs.temporalUiUrl(j) })), total, limit: query.limit, offset: query.offset };
      },
    }),
    route({
      method: 'get', path: '/api/jobs/:job_id', tag, auth: 'user', scope: 'read:projects',
      summary: 'One job with live workflow progress and its Temporal UI link',
      params: z.object({ job_id: uuidParam }),
      responses: { 200: { description: '{job}' }, 404: { description: 'Job not found' } },
      handler: async (ctx, { params }) => {
        const job = await jobForUser(ctx.state.principal!.user.id, params.job_id);
        const live = await jobs.liveProgress(job);
        return { job: presentJob(job, { temporal_ui_url: jobs.temporalUiUrl(job), live }) };
      },
    }),
    route({
      method: 'post', path: '/api/jobs/:job_id/cancel', tag, auth: 'user', scope: 'write:projects',
      summary: 'Cancel a queued or running job (editor or above); it ends `canceled`',
      params: z.object({ job_id: uuidParam }),
      responses: { 200: { description: '{ok}' }, 404: { description: 'Job not found' }, 409: { description: 'Job already finished' } },
      handler: async (ctx, { params }) => {
        const job = await jobForUser(ctx.state.principal!.user.id, params.job_id, 'editor');
        await jobs.cancel(job);
        return { ok: true };
      },
    }),
  ];
}
