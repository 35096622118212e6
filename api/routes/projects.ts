import { z } from 'zod';
import { PROJECT_ARCHIVE_SCOPES } from '../../services/scopes';
import { callerId, type RouteDeps } from '../context';
import { pageOf } from '../presenters/page.schema';
import { presentMember, presentProject, presentProjectSummary } from '../presenters/project';
import { memberSchema, projectMemberSchema, projectSchema, projectSummarySchema, timelineEventSchema } from '../presenters/project.schema';
import { presentProjectMember } from '../presenters/team';
import { route, RouteDef } from '../route';
import { pageQuery } from '../validation';
import { addMemberBody, createProjectBody, memberParams, projectListQuery, projectParams, updateProjectBody } from './projects.schema';

/** Projects, members, timeline and exports (invitations: `invitations.ts`). */
export function projectRoutes({ services }: RouteDeps): RouteDef[] {
  const { projects, jobs } = services;
  const tag = 'projects';
  return [
    route({
      method: 'get',
      path: '/api/projects',
      tag,
      auth: 'user',
      scope: 'read:projects',
      summary: 'Projects the caller is a member of',
      query: projectListQuery,
      responses: { 200: { description: 'List envelope of project summaries', schema: pageOf(projectSummarySchema) } },
      handler: async (ctx, { query }) => {
        const page = await projects.list(callerId(ctx), query);
        return { ...page, items: page.items.map(presentProjectSummary) };
      },
    }),
    route({
      method: 'post',
      path: '/api/projects',
      tag,
      auth: 'user',
      scope: 'write:projects',
      summary: 'Create a project; the caller becomes its owner. A user owns at most `max_projects` of `GET /api/auth/plan` (MAX_PROJECTS_PER_USER; 409 past it)',
      body: createProjectBody,
      responses: {
        201: { description: '{id, project_id, project}', schema: z.object({ id: z.string(), project_id: z.string(), project: projectSchema }) },
        409: { description: 'Project quota reached' },
        422: { description: 'Project name must not be empty' },
      },
      handler: async (ctx, { body }) => {
        const p = await projects.create(callerId(ctx), body.name, body.description);
        ctx.status = 201;
        return { id: p.id, project_id: p.id, project: presentProject(p) };
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:project_id',
      tag,
      auth: 'user',
      scope: 'read:projects',
      summary: 'One project',
      params: projectParams,
      responses: { 200: { description: '{project}', schema: z.object({ project: projectSummarySchema }) }, 404: { description: 'Project not found' } },
      handler: async (ctx, { params }) => ({ project: presentProjectSummary(await projects.summary(callerId(ctx), params.project_id)) }),
    }),
    route({
      method: 'put',
      path: '/api/projects/:project_id',
      tag,
      auth: 'user',
      scope: 'write:projects',
      summary: 'Rename or describe a project (editor or above)',
      params: projectParams,
      body: updateProjectBody,
      responses: { 200: { description: '{project}', schema: z.object({ project: projectSchema }) }, 404: { description: 'Project not found' } },
      handler: async (ctx, { params, body }) => ({ project: presentProject(await projects.update(callerId(ctx), params.project_id, body), false) }),
    }),
    route({
      method: 'delete',
      path: '/api/projects/:project_id',
      tag,
      auth: 'user',
      scope: 'write:projects',
      summary: 'Delete a project and all it holds (owner only)',
      params: projectParams,
      responses: { 200: { description: '{ok}' }, 404: { description: 'Project not found' } },
      handler: async (ctx, { params }) => {
        await projects.delete(callerId(ctx), params.project_id);
        services.serving.forgetAccess();
        return { ok: true };
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:project_id/members',
      tag,
      auth: 'user',
      scope: 'read:projects',
      summary:
        'Everyone with access and their roles: the members (in the order they joined), then the people who reach the project only through teams (`via_team`). ' +
        '`effective_role` is the highest of their own role and their teams’ roles (`teams`)',
      params: projectParams,
      query: pageQuery(100),
      responses: { 200: { description: 'List envelope of members', schema: pageOf(projectMemberSchema) } },
      handler: async (ctx, { params, query }) => {
        const page = await services.projectTeams.members(callerId(ctx), params.project_id, query);
        return { ...page, items: page.items.map(presentProjectMember) };
      },
    }),
    route({
      method: 'post',
      path: '/api/projects/:project_id/members',
      tag,
      auth: 'user',
      scope: 'write:projects',
      rateLimit: 'members',
      summary:
        "Add a registered user by email (access at once) or change a member's role; owner only, never a role above your own, a project keeps one owner. " +
        'An email without an account is 404 `User not found`: invite it with `POST /api/auth/invite`. Rate limit: the `members` bucket (RATE_LIMIT_MEMBERS, 30 a minute per user by default, shared with invitations), so this cannot probe many addresses for accounts',
      params: projectParams,
      body: addMemberBody,
      responses: {
        201: { description: '{member: {user_id, email, name, role, created_at}}', schema: z.object({ member: memberSchema }) },
        403: { description: "Not the owner (`Only the project owner can manage members`), or a role above the caller's own (`Cannot assign a role above your own`)" },
        404: { description: '`Project not found`, or `User not found` (no account has this email)' },
        409: { description: 'A project must keep at least one owner' },
      },
      handler: async (ctx, { params, body }) => {
        const member = await projects.upsertMember(callerId(ctx), params.project_id, body.email, body.role);
        services.serving.forgetAccess();
        ctx.status = 201;
        return { member: presentMember(member) };
      },
    }),
    route({
      method: 'delete',
      path: '/api/projects/:project_id/members/:user_id',
      tag,
      auth: 'user',
      scope: 'write:projects',
      summary: 'Remove a member (owner only), or leave the project yourself',
      params: memberParams,
      responses: { 200: { description: '{ok}' }, 404: { description: 'Project or member not found' }, 409: { description: 'Last owner' } },
      handler: async (ctx, { params }) => {
        await projects.removeMember(callerId(ctx), params.project_id, params.user_id);
        services.serving.forgetAccess();
        return { ok: true };
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:project_id/timeline',
      tag,
      auth: 'user',
      scope: 'read:projects',
      summary: 'Dataset and experiment events of the project, newest first',
      params: projectParams,
      responses: { 200: { description: '{project_id, events}', schema: z.object({ project_id: z.string(), events: z.array(timelineEventSchema) }) } },
      handler: async (ctx, { params }) => ({ project_id: params.project_id, events: await projects.timeline(callerId(ctx), params.project_id) }),
    }),
    route({
      // The archive holds dataset and model files: a key needs their read scopes too.
      method: 'get',
      path: '/api/projects/:project_id/export',
      tag,
      auth: 'user',
      scope: PROJECT_ARCHIVE_SCOPES,
      summary: 'ZIP of manifest.json and every artifact of the project, streamed (keys: read:projects, read:datasets and read:models)',
      params: projectParams,
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
      method: 'post',
      path: '/api/projects/:project_id/export/jobs',
      tag,
      auth: 'user',
      scope: 'write:projects',
      summary: 'Prepare the project ZIP in the background (a `project_export` job, editor or above); the archive lands as an artifact',
      params: projectParams,
      responses: { 201: { description: '{id, job_id, status: queued}' } },
      handler: async (ctx, { params }) => {
        const job = await jobs.startFor(callerId(ctx), { kind: 'project_export', on: 'project', id: params.project_id });
        ctx.status = 201;
        return { id: job.id, job_id: job.id, status: 'queued' };
      },
    }),
  ];
}
