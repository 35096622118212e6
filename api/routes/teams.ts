import { z } from 'zod';
import { type AppContext, callerId, type RouteDeps } from '../context';
import { pageOf } from '../presenters/page.schema';
import { presentMyTeam, presentProjectTeam, presentTeamMember } from '../presenters/team';
import { myTeamSchema, projectTeamSchema, teamMemberSchema } from '../presenters/team.schema';
import { route, RouteDef } from '../route';
import { pageQuery } from '../validation';
import { projectParams } from './projects.schema';
import { addTeamMemberBody, grantProjectTeamBody, projectTeamParams, teamMemberParams, teamParams } from './teams.schema';

/** The caller as the team services see them: superusers act on every team. */
function actor(ctx: AppContext) {
  return { userId: callerId(ctx), superuser: ctx.state.principal!.user.isSuperuser };
}

const OK = { description: '{ok}', schema: z.object({ ok: z.literal(true) }) };

/**
 * Teams outside the admin area (issue 34): a project's teams (granted by its owners and admins), the caller's own
 * teams, and team members managed by the team's maintainers. A change of team membership or of a project's teams
 * counts at the affected user's next request (access is read per request).
 */
export function teamRoutes({ services }: RouteDeps): RouteDef[] {
  const { teams, projectTeams, serving } = services;
  return [
    route({
      method: 'get',
      path: '/api/projects/:project_id/teams',
      tag: 'projects',
      auth: 'user',
      scope: 'read:projects',
      summary: "The teams granted a role in the project (any member); each team's members have at least that role there",
      params: projectParams,
      responses: { 200: { description: '{items: teams}', schema: z.object({ items: z.array(projectTeamSchema) }) }, 404: { description: 'Project not found' } },
      handler: async (ctx, { params }) => ({ items: (await projectTeams.list(callerId(ctx), params.project_id)).map(presentProjectTeam) }),
    }),
    route({
      method: 'post',
      path: '/api/projects/:project_id/teams',
      tag: 'projects',
      auth: 'user',
      scope: 'write:projects',
      rateLimit: 'members',
      summary:
        "Grant a team a role in the project, or change its role (owners and admins; never a role above the caller's own, never `owner`). " +
        'The caller must belong to the team (superusers: any team); its members get access at once. A member keeps the highest of their own role and their teams’ roles',
      params: projectParams,
      body: grantProjectTeamBody,
      responses: {
        201: { description: '{team}', schema: z.object({ team: projectTeamSchema }) },
        403: { description: '`Only project owners and admins can manage teams`, or `Cannot assign a role above your own`' },
        404: { description: '`Project not found`, or `Team not found` (no such team, or one the caller does not belong to)' },
      },
      handler: async (ctx, { params, body }) => {
        const team = await projectTeams.grant(actor(ctx), params.project_id, body.team_id, body.role);
        serving.forgetAccess();
        ctx.status = 201;
        return { team: presentProjectTeam(team) };
      },
    }),
    route({
      method: 'delete',
      path: '/api/projects/:project_id/teams/:team_id',
      tag: 'projects',
      auth: 'user',
      scope: 'write:projects',
      summary: "Take a team's role in the project away (owners and admins); its members keep only their own membership, from their next request",
      params: projectTeamParams,
      responses: { 200: OK, 403: { description: '`Only project owners and admins can manage teams`' }, 404: { description: '`Project not found`, or `Team not found` (not granted in this project)' } },
      handler: async (ctx, { params }) => {
        await projectTeams.revoke(callerId(ctx), params.project_id, params.team_id);
        serving.forgetAccess();
        return { ok: true as const };
      },
    }),
    route({
      method: 'get',
      path: '/api/auth/teams',
      tag: 'auth',
      auth: 'user',
      scope: 'read:projects',
      summary: 'The teams the caller belongs to, with their role in each (`maintainer`s manage the team’s members)',
      query: pageQuery(100),
      responses: { 200: { description: 'List envelope of teams', schema: pageOf(myTeamSchema) } },
      handler: async (ctx, { query }) => {
        const all = await teams.teamsOf(callerId(ctx));
        return { items: all.slice(query.offset, query.offset + query.limit).map(presentMyTeam), total: all.length, limit: query.limit, offset: query.offset };
      },
    }),
    route({
      method: 'get',
      path: '/api/teams/:team_id/members',
      tag: 'teams',
      auth: 'user',
      scope: 'read:projects',
      summary: "A team's members (the team's own members and superusers; others: 404)",
      params: teamParams,
      query: pageQuery(500),
      responses: { 200: { description: 'List envelope of team members', schema: pageOf(teamMemberSchema) }, 404: { description: '`Team not found`' } },
      handler: async (ctx, { params, query }) => {
        const page = await teams.members(actor(ctx), params.team_id, query);
        return { ...page, items: page.items.map(presentTeamMember) };
      },
    }),
    route({
      method: 'post',
      path: '/api/teams/:team_id/members',
      tag: 'teams',
      auth: 'user',
      scope: 'write:projects',
      rateLimit: 'members',
      summary: "Add a registered user by `email` or `user_id` (exactly one), or change a member's team role: the team's maintainers (and superusers). The user gets the team's project roles at once",
      params: teamParams,
      body: addTeamMemberBody,
      responses: {
        201: { description: '{member}', schema: z.object({ member: teamMemberSchema }) },
        403: { description: '`Only team maintainers can manage members`' },
        404: { description: '`Team not found` (or not the caller’s), or `User not found`' },
      },
      handler: async (ctx, { params, body }) => {
        const member = await teams.upsertMember(actor(ctx), params.team_id, body, body.role);
        serving.forgetAccess();
        ctx.status = 201;
        return { member: presentTeamMember(member) };
      },
    }),
    route({
      method: 'delete',
      path: '/api/teams/:team_id/members/:user_id',
      tag: 'teams',
      auth: 'user',
      scope: 'write:projects',
      summary: 'Remove a member (the team’s maintainers and superusers), or leave the team yourself',
      params: teamMemberParams,
      responses: { 200: OK, 403: { description: '`Only team maintainers can manage members`' }, 404: { description: '`Team not found` or `Member not found`' } },
      handler: async (ctx, { params }) => {
        await teams.removeMember(actor(ctx), params.team_id, params.user_id);
        serving.forgetAccess();
        return { ok: true as const };
      },
    }),
  ];
}
