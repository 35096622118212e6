import { z } from 'zod';
import { PROJECT_ROLES } from '../../entities';
import { PROJECT_SORT_FIELDS } from '../../services/projects';
import { PROJECT_ARCHIVE_SCOPES } from '../../services/scopes';
import { callerId, type RouteDeps } from '../context';
import { presentProject, presentProjectSummary } from '../presenters/project';
import { route, RouteDef } from '../route';
import { listQuery, pageQuery, uuidParam } from '../validation';

const projectParams = z.object({ project_id: uuidParam });
const description = z.string().max(5000).default('');

/** Projects, members, timeline and exports. */
export function projectRoutes({ services }: RouteDeps): RouteDef[] {
  const { projects } = services;
  const tag = 'projects';
  return [
    route({
      method: 'get', path: '/api/projects', tag, auth: 'user', scope: 'read:projects',
      summary: 'Projects the caller is a member of',
      query: listQuery(PROJECT_SORT_FIELDS),
      responses: { 200: { description: 'List envelope of project summaries' } },
      handler: async (ctx, { query }) => {
        const page = await projects.list(callerId(ctx), query);
        return { ...page, items: page.items.map(presentProjectSummary) };
      },
    }),
    route({
      method: 'post', path: '/api/projects', tag, auth: 'user', scope: 'write:projects',
      summary: 'Create a project; the caller becomes its owner',
      body: z.object({ name: z.string().max(200), description }),
      responses: { 201: { description: '{id, project_id, project}' }, 422: { description: 'Project name must not be empty' } },
      handler: async (ctx, { body }) => {
        const p = await projects.create(callerId(ctx), body.name, body.description);
        ctx.status = 201;
        return { id: p.id, project_id: p.id, project: presentProject(p) };
      },
    }),
    route({
      method: 'get', path: '/api/projects/:project_id', tag, auth: 'user', scope: 'read:projects',
      summary: 'One project', params: projectParams,
      responses: { 200: { description: '{project}' }, 404: { description: 'Project not found' } },
      handler: async (ctx, { params }) => ({ project: presentProjectSummary(await projects.summary(callerId(ctx), params.project_id)) }),
    }),
    route({
      method: 'put', path: '/api/projects/:project_id', tag, auth: 'user', scope: 'write:projects',
      summary: 'Rename or describe a project (editor or above)', params: projectParams,
      body: z.object({ name: z.string().max(200), description: z.string().max(5000).optional() }),
      responses: { 200: { description: '{project}' }, 404: { description: 'Project not found' } },
      handler: async (ctx, { params, body }) => ({ project: presentProject(await projects.update(callerId(ctx), params.project_id, body), false) }),
    }),
    route({
      method: 'delete', path: '/api/projects/:project_id', tag, auth: 'user', scope: 'write:projects',
      summary: 'Delete a project and all it holds (owner only)', params: projectParams,
      responses: { 200: { description: '{ok}' }, 404: { description: 'Project not found' } },
      handler: async (ctx, { params }) => {
        await projects.delete(callerId(ctx), params.project_id);
        services.serving.forgetAccess();
        return { ok: true };
      },
    }),
    route({
      method: 'get', path: '/api/projects/:project_id/members', tag, auth: 'user', scope: 'read:projects',
      summary: 'Members and their roles', params: projectParams, query: pageQuery(100),
      responses: { 200: { description: 'List envelope of members' } },
      handler: async (ctx, { params, query }) => projects.members(callerId(ctx), params.project_id, query),
    }),
    route({
      method: 'post', path: '/api/projects/:project_id/members', tag, auth: 'user', scope: 'write:projects',
      summary: 'Add a registered user or change a role (owner only; never above your own role)', params: projectParams,
      body: z.object({ email: z.string().max(320), role: z.enum(PROJECT_ROLES).default('editor') }),
      responses: { 201: { description: '{member}' }, 403: { description: 'Not the owner' }, 404: { description: 'Project not found' } },
      handler: async (ctx, { params, body }) => {
        const member = await projects.upsertMember(callerId(ctx), params.project_id, body.email, body.role);
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
        await projects.removeMember(callerId(ctx), params.project_id, params.user_id);
        services.serving.forgetAccess();
        return { ok: true };
      },
    }),
    route({
      method: 'get', path: '/api/projects/:project_id/timeline', tag, auth: 'user', scope: 'read:projects',
      summary: 'Dataset and experiment events of the project, newest first', params: projectParams,
      responses: { 200: { description: '{project_id, events}' } },
      handler: async (ctx, { params }) => ({ project_id: params.project_id, events: await projects.timeline(callerId(ctx), params.project_id) }),
    }),
    route({
      // The archive holds dataset and model files: a key needs their read scopes too.
      method: 'get', path: '/api/projects/:project_id/export', tag, auth: 'user', scope: PROJECT_ARCHIVE_SCOPES,
      summary: 'ZIP of manifest.json and every artifact of the project, streamed (keys: read:projects, read:datasets and read:models)', params: projectParams,
      responses: { 200: { description: 'ZIP archive', contentType: 'application/zip' } },
      handler: async (ctx, { params }) => {
        const { project, body } = await projects.archiveStream(callerId(ctx), params.project_id, (err) => ctx.state.log.error({ err }, 'project export stream failed'));
        ctx.type = 'application/zip';
        ctx.attachment(`${project.name.replace(/[^A-Za-z0-9_-]+/g, '_') || 'project'}-export.zip`);
        ctx.body = body;
        return undefined;
      },
    }),
    route({
      method: 'post', path: '/api/projects/:project_id/export/jobs', tag, auth: 'user', scope: 'write:projects',
      summary: 'Prepare the project ZIP in the background (a `project_export` job, editor or above); the archive lands as an artifact', params: projectParams,
      responses: { 201: { description: '{id, job_id, status: queued}' } },
      handler: async (ctx, { params }) => {
        const job = await projects.startExport(callerId(ctx), params.project_id);
        ctx.status = 201;
        return { id: job.id, job_id: job.id, status: 'queued' };
      },
    }),
  ];
}
