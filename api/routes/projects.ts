import { PassThrough } from 'node:stream';
import { z } from 'zod';
import { Project, PROJECT_ROLES, ProjectMember, User } from '../../entities';
import { MissingArtifactError, writeProjectArchive } from '../../platform/project-archive';
import type { AppDeps } from '../context';
import { conflict } from '../errors';
import { route, RouteDef } from '../route';
import { projectForUser } from '../services/access';
import { JobService } from '../services/jobs';
import {
  cleanProjectName,
  createProject,
  deleteProjectsData,
  listProjects,
  PROJECT_SORT_FIELDS,
  projectSummary,
  removeMember,
  upsertMember,
} from '../services/projects';
import { listQuery, NOT_BLANK, pageQuery, uuidParam } from '../validation';

const projectParams = z.object({ project_id: uuidParam });
const description = z.string().max(5000).default('');
/** Blank names are refused with the spec's text `Project name must not be empty`. */
const projectName = z.string().max(200).meta({ pattern: NOT_BLANK });

/** Projects, members, timeline and exports. */
export function projectRoutes(deps: AppDeps): RouteDef[] {
  const { ds } = deps;
  const jobs = new JobService(ds, deps.temporal, deps.config, deps.log);
  const tag = 'projects';
  return [
    route({
      method: 'get', path: '/api/projects', tag, auth: 'user', scope: 'read:projects',
      summary: 'Projects the caller is a member of',
      query: listQuery(PROJECT_SORT_FIELDS),
      responses: { 200: { description: 'List envelope of project summaries' } },
      handler: async (ctx, { query }) => listProjects(ds, ctx.state.principal!.user.id, query),
    }),
    route({
      method: 'post', path: '/api/projects', tag, auth: 'user', scope: 'write:projects',
      summary: 'Create a project; the caller becomes its owner',
      body: z.object({ name: projectName, description }),
      responses: { 201: { description: '{id, project_id, project}' }, 422: { description: 'Project name must not be empty' } },
      handler: async (ctx, { body }) => {
        const p = await createProject(ds, ctx.state.principal!.user.id, body.name, body.description);
        ctx.status = 201;
        return { id: p.id, project_id: p.id, project: { id: p.id, name: p.name, description: p.description, created_at: p.createdAt } };
      },
    }),
    route({
      method: 'get', path: '/api/projects/:project_id', tag, auth: 'user', scope: 'read:projects',
      summary: 'One project', params: projectParams,
      responses: { 200: { description: '{project}' }, 404: { description: 'Project not found' } },
      handler: async (ctx, { params }) => ({ project: await projectSummary(ds, ctx.state.principal!.user.id, params.project_id) }),
    }),
    route({
      method: 'put', path: '/api/projects/:project_id', tag, auth: 'user', scope: 'write:projects',
      summary: 'Rename or describe a project (editor or above)', params: projectParams,
      body: z.object({ name: projectName, description: z.string().max(5000).optional() }),
      responses: { 200: { description: '{project}' }, 404: { description: 'Project not found' } },
      handler: async (ctx, { params, body }) => {
        const { project } = await projectForUser(ds.manager, ctx.state.principal!.user.id, params.project_id, 'editor');
        project.name = cleanProjectName(body.name);
        if (body.description !== undefined) project.description = body.description;
        await ds.getRepository(Project).update({ id: project.id }, { name: project.name, description: project.description });
        return { project: { id: project.id, name: project.name, description: project.description } };
      },
    }),
    route({
      method: 'delete', path: '/api/projects/:project_id', tag, auth: 'user', scope: 'write:projects',
      summary: 'Delete a project and all it holds (owner only)', params: projectParams,
      responses: { 200: { description: '{ok}' }, 404: { description: 'Project not found' } },
      handler: async (ctx, { params }) => {
        const { project } = await projectForUser(ds.manager, ctx.state.principal!.user.id, params.project_id, 'owner');
        const files = await ds.transaction((em) => deleteProjectsData(em, [project.id]));
        for (const key of files) deps.store.remove(key);
        deps.serving?.forgetAccess();
        return { ok: true };
      },
    }),
    route({
      method: 'get', path: '/api/projects/:project_id/members', tag, auth: 'user', scope: 'read:projects',
      summary: 'Members and their roles', params: projectParams, query: pageQuery(100),
      responses: { 200: { description: 'List envelope of members' } },
      handler: async (ctx, { params, query }) => {
        await projectForUser(ds.manager, ctx.state.principal!.user.id, params.project_id);
        const qb = ds
          .getRepository(ProjectMember)
          .createQueryBuilder('m')
          .innerJoin(User, 'u', 'u.id = m.user_id')
          .select(['m.user_id AS user_id', 'u.email AS email', 'u.name AS name', 'm.role AS role', 'm.created_at AS created_at'])
          .where('m.project_id = :p', { p: params.project_id });
        const total = await qb.getCount();
        const items = await qb.orderBy('m.created_at', 'ASC').addOrderBy('m.user_id', 'ASC').offset(query.offset).limit(query.limit).getRawMany();
        return { items, total, limit: query.limit, offset: query.offset };
      },
    }),
    route({
      method: 'post', path: '/api/projects/:project_id/members', tag, auth: 'user', scope: 'write:projects',
      summary: 'Add a registered user or change a role (owner only; never above your own role)', params: projectParams,
      body: z.object({ email: z.string().max(320), role: z.enum(PROJECT_ROLES).default('editor') }),
      responses: { 201: { description: '{member}' }, 403: { description: 'Not the owner' }, 404: { description: 'Project not found' } },
      handler: async (ctx, { params, body }) => {
        const { role } = await projectForUser(ds.manager, ctx.state.principal!.user.id, params.project_id);
        const member = await ds.transaction((em) => upsertMember(em, params.project_id, role, body.email, body.role));
        ctx.status = 201;
        return { member };
      },
    }),
    route({
      method: 'delete', path: '/api/projects/:project_id/members/:user_id', tag, auth: 'user', scope: 'write:projects',
      summary: 'Remove a member (owner only), or leave the project yourself',
      params: z.object({ project_id: uuidParam, user_id: uuidParam }),
      responses: { 200: { description: '{ok}' }, 404: { description: 'Project or member not found' }, 409: { description: 'Last owner' } },
      handler: async (ctx, { params }) => {
        const me = ctx.state.principal!.user.id;
        const { role } = await projectForUser(ds.manager, me, params.project_id);
        await ds.transaction((em) => removeMember(em, params.project_id, { id: me, role }, params.user_id));
        deps.serving?.forgetAccess();
        return { ok: true };
      },
    }),
    route({
      method: 'get', path: '/api/projects/:project_id/timeline', tag, auth: 'user', scope: 'read:projects',
      summary: 'Dataset and experiment events of the project, newest first', params: projectParams,
      responses: { 200: { description: '{project_id, events}' } },
      handler: async (ctx, { params }) => {
        await projectForUser(ds.manager, ctx.state.principal!.user.id, params.project_id);
        const datasetEvents: { id: string; name: string; version: number; rows: string; columns: number; timestamp: Date }[] = await ds.query(
          `SELECT v.id, d.name, v.version, v.row_count AS rows, v.column_count AS columns, v.created_at AS timestamp
             FROM dataset_versions v JOIN datasets d ON d.id = v.dataset_id WHERE d.project_id = $1`,
          [params.project_id],
        );
        const experimentEvents: { id: string; name: string; status: string; target_column: string; problem_type: string; best_model_type: string | null; started_at: Date | null; finished_at: Date | null; timestamp: Date }[] = await ds.query(
          `SELECT e.id, e.name, e.status, e.target_column, e.problem_type, m.algo AS best_model_type, e.started_at, e.finished_at, e.created_at AS timestamp
             FROM experiments e LEFT JOIN models m ON m.id = e.best_model_id WHERE e.project_id = $1`,
          [params.project_id],
        );
        const events = [
          ...datasetEvents.map((e) => ({ id: e.id, type: 'dataset' as const, name: e.name, version: e.version, rows: Number(e.rows), columns: e.columns, timestamp: new Date(e.timestamp).toISOString() })),
          ...experimentEvents.map((e) => ({
            id: e.id, type: 'experiment' as const, name: e.name, status: e.status, target_column: e.target_column, problem_type: e.problem_type,
            best_model_type: e.best_model_type,
            duration: e.started_at && e.finished_at ? (new Date(e.finished_at).getTime() - new Date(e.started_at).getTime()) / 1000 : null,
            timestamp: new Date(e.timestamp).toISOString(),
          })),
        ].sort((a, b) => b.timestamp.localeCompare(a.timestamp));
        return { project_id: params.project_id, events };
      },
    }),
    route({
      method: 'get', path: '/api/projects/:project_id/export', tag, auth: 'user', scope: 'read:projects',
      summary: 'ZIP of manifest.json and every artifact of the project, streamed', params: projectParams,
      responses: { 200: { description: 'ZIP archive', contentType: 'application/zip' } },
      handler: async (ctx, { params }) => {
        const { project } = await projectForUser(ds.manager, ctx.state.principal!.user.id, params.project_id);
        const body = new PassThrough();
        // Any fault after headers are sent can only cut the stream; check files first.
        const done = writeProjectArchive(ds, deps.store, project.id, body);
        try {
          await Promise.race([done, new Promise((r) => body.once('readable', r))]);
        } catch (err) {
          if (err instanceof MissingArtifactError) throw conflict(err.message);
          throw err;
        }
        done.catch((err) => {
          ctx.state.log.error({ err }, 'project export stream failed');
          body.destroy(err);
        });
        ctx.type = 'application/zip';
        ctx.attachment(`${project.name.replace(/[^A-Za-z0-9_-]+/g, '_') || 'project'}-export.zip`);
        ctx.body = body;
        return undefined;
      },
    }),
    route({
      method: 'post', path: '/api/projects/:project_id/export/jobs', tag, auth: 'user', scope: 'read:projects',
      summary: 'Prepare the project ZIP in the background (a `project_export` job); the archive lands as an artifact', params: projectParams,
      responses: { 201: { description: '{id, job_id, status: queued}' } },
      handler: async (ctx, { params }) => {
        const userId = ctx.state.principal!.user.id;
        await projectForUser(ds.manager, userId, params.project_id);
        const job = await ds.transaction((em) => jobs.create(em, { kind: 'project_export', projectId: params.project_id, entityId: params.project_id, createdBy: userId }));
        await jobs.start(job);
        ctx.status = 201;
        return { id: job.id, job_id: job.id, status: 'queued' };
      },
    }),
  ];
}
