import { z } from 'zod';
import { PROJECT_ROLES } from '../../entities';
import { PROJECT_SORT_FIELDS } from '../../services/projects';
import { PROJECT_ARCHIVE_SCOPES } from '../../services/scopes';
import { callerId, type RouteDeps } from '../context';
import { presentMemberChange, presentProject, presentProjectSummary } from '../presenters/project';
import { route, RouteDef } from '../route';
import { listQuery, NOT_BLANK, pageQuery, uuidParam } from '../validation';

const projectParams = z.object({ project_id: uuidParam });
const description = z.string().max(5000).default('');
/** Blank names are refused with the spec's text `Project name must not be empty`. */
const projectName = z.string().max(200).meta({ pattern: NOT_BLANK });

/** Projects, members and invitations, timeline and exports. */
export function projectRoutes({ services }: RouteDeps): RouteDef[] {
  const { projects, invitations } = services;
  const tag = 'projects';
  return [
    route({
      method: 'get',
      path: '/api/projects',
      tag,
      auth: 'user',
      scope: 'read:projects',
      summary: 'Projects the caller is a member of',
      query: listQuery(PROJECT_SORT_FIELDS),
      responses: { 200: { description: 'List envelope of project summaries' } },
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
      summary: 'Create a project; the caller becomes its owner',
      body: z.object({ name: projectName, description }),
      responses: { 201: { description: '{id, project_id, project}' }, 422: { description: 'Project name must not be empty' } },
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
      responses: { 200: { description: '{project}' }, 404: { description: 'Project not found' } },
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
      body: z.object({ name: projectName, description: z.string().max(5000).optional() }),
      responses: { 200: { description: '{project}' }, 404: { description: 'Project not found' } },
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
      summary: 'Members and their roles',
      params: projectParams,
      query: pageQuery(100),
      responses: { 200: { description: 'List envelope of members' } },
      handler: async (ctx, { params, query }) => projects.members(callerId(ctx), params.project_id, query),
    }),
    route({
      method: 'post',
      path: '/api/projects/:project_id/members',
      tag,
      auth: 'user',
      scope: 'write:projects',
      summary: "Change a member's role, or invite an email address (it joins by accepting); owner only, never above your own role. The answer does not tell whether the address has an account",
      params: projectParams,
      body: z.object({ email: z.email().max(320), role: z.enum(PROJECT_ROLES).default('editor') }),
      responses: {
        201: { description: '{member: {user_id, email, name, role, status}}: status `member` for a role change; `invited` (user_id and name null, invitation_id, expires_at) otherwise' },
        403: { description: 'Not the owner' },
        404: { description: 'Project not found' },
        409: { description: 'Last owner' },
      },
      handler: async (ctx, { params, body }) => {
        const change = await projects.upsertMember(callerId(ctx), params.project_id, body.email, body.role);
        ctx.status = 201;
        return { member: presentMemberChange(change) };
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:project_id/invitations',
      tag,
      auth: 'user',
      scope: 'read:projects',
      summary: 'Pending invitations of the project (addresses and roles)',
      params: projectParams,
      query: pageQuery(100),
      responses: { 200: { description: 'List envelope of {id, email, role, created_at, expires_at}' } },
      handler: async (ctx, { params, query }) => invitations.forProject(callerId(ctx), params.project_id, query),
    }),
    route({
      method: 'delete',
      path: '/api/projects/:project_id/invitations/:invitation_id',
      tag,
      auth: 'user',
      scope: 'write:projects',
      summary: 'Withdraw a pending invitation (owner only)',
      params: z.object({ project_id: uuidParam, invitation_id: uuidParam }),
      responses: { 200: { description: '{ok}' }, 404: { description: 'Invitation not found' } },
      handler: async (ctx, { params }) => {
        await invitations.withdraw(callerId(ctx), params.project_id, params.invitation_id);
        return { ok: true };
      },
    }),
    route({
      method: 'get',
      path: '/api/invitations',
      tag,
      auth: 'user',
      scope: 'read:projects',
      summary: "Invitations addressed to the caller's email that are still pending",
      responses: { 200: { description: '{items: [{id, project_id, project_name, role, invited_by_name, created_at, expires_at}]}' } },
      handler: async (ctx) => ({ items: await invitations.received(ctx.state.principal!.user) }),
    }),
    route({
      method: 'post',
      path: '/api/invitations/:invitation_id/accept',
      tag,
      auth: 'user',
      scope: 'write:projects',
      summary: 'Accept an invitation: join the project with the invited role',
      params: z.object({ invitation_id: uuidParam }),
      responses: { 200: { description: '{ok, project_id, role}' }, 404: { description: 'Invitation not found (or expired, or addressed to someone else)' } },
      handler: async (ctx, { params }) => {
        const joined = await invitations.accept(ctx.state.principal!.user, params.invitation_id);
        services.serving.forgetAccess();
        return { ok: true, project_id: joined.projectId, role: joined.role };
      },
    }),
    route({
      method: 'post',
      path: '/api/invitations/:invitation_id/decline',
      tag,
      auth: 'user',
      scope: 'write:projects',
      summary: 'Decline an invitation',
      params: z.object({ invitation_id: uuidParam }),
      responses: { 200: { description: '{ok}' }, 404: { description: 'Invitation not found' } },
      handler: async (ctx, { params }) => {
        await invitations.decline(ctx.state.principal!.user, params.invitation_id);
        return { ok: true };
      },
    }),
    route({
      method: 'delete',
      path: '/api/projects/:project_id/members/:user_id',
      tag,
      auth: 'user',
      scope: 'write:projects',
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
      method: 'get',
      path: '/api/projects/:project_id/timeline',
      tag,
      auth: 'user',
      scope: 'read:projects',
      summary: 'Dataset and experiment events of the project, newest first',
      params: projectParams,
      responses: { 200: { description: '{project_id, events}' } },
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
        const job = await projects.startExport(callerId(ctx), params.project_id);
        ctx.status = 201;
        return { id: job.id, job_id: job.id, status: 'queued' };
      },
    }),
  ];
}
