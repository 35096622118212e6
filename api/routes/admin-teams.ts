import { z } from 'zod';
import { requireSuperuser } from '../admin-guard';
import { callerId, type RouteDeps } from '../context';
import { pageOf } from '../presenters/page.schema';
import { presentTeam, presentTeamMember, presentTeamProject } from '../presenters/team';
import { teamMemberSchema, teamProjectSchema, teamSchema } from '../presenters/team.schema';
import { route, RouteDef } from '../route';
import { pageQuery } from '../validation';
import { addTeamMemberBody, createTeamBody, teamListQuery, teamMemberParams, teamParams, updateTeamBody } from './teams.schema';

const NOT_SUPERUSER = { description: '`Superuser access required`' };
const TEAM_404 = { description: '`Team not found`' };

/**
 * The admin area's teams (issue 34): superusers create, rename and delete teams and manage their members. A team's
 * maintainers manage its members too, through `/api/teams/{id}/members` (api/routes/teams.ts). Every handler calls
 * `requireSuperuser` first.
 */
export function adminTeamRoutes({ services }: RouteDeps): RouteDef[] {
  const { teams, serving } = services;
  const tag = 'admin';
  const admin = { tag, auth: 'user', scope: 'admin' } as const;
  const superuser = (ctx: Parameters<typeof requireSuperuser>[0]) => {
    requireSuperuser(ctx);
    return { userId: callerId(ctx), superuser: true };
  };
  return [
    route({
      ...admin,
      method: 'get',
      path: '/api/admin/teams',
      summary: 'Every team, by name, with member and project counts (superusers)',
      query: teamListQuery,
      responses: { 200: { description: 'List envelope of teams', schema: pageOf(teamSchema) }, 403: NOT_SUPERUSER },
      handler: async (ctx, { query }) => {
        requireSuperuser(ctx);
        const page = await teams.list(query);
        return { ...page, items: page.items.map(presentTeam) };
      },
    }),
    route({
      ...admin,
      method: 'post',
      path: '/api/admin/teams',
      summary: 'Create a team (superusers); names are unique case-insensitively',
      body: createTeamBody,
      responses: {
        201: { description: '{id, team_id, team}', schema: z.object({ id: z.string(), team_id: z.string(), team: teamSchema }) },
        403: NOT_SUPERUSER,
        409: { description: '`A team with this name already exists`' },
      },
      handler: async (ctx, { body }) => {
        requireSuperuser(ctx);
        const team = await teams.create(body);
        ctx.status = 201;
        return { id: team.id, team_id: team.id, team: presentTeam(team) };
      },
    }),
    route({
      ...admin,
      method: 'get',
      path: '/api/admin/teams/:team_id',
      summary: 'One team with the projects it is granted (superusers); its members: `GET …/members`',
      params: teamParams,
      responses: { 200: { description: '{team, projects}', schema: z.object({ team: teamSchema, projects: z.array(teamProjectSchema) }) }, 403: NOT_SUPERUSER, 404: TEAM_404 },
      handler: async (ctx, { params }) => {
        requireSuperuser(ctx);
        const team = await teams.get(params.team_id);
        return { team: presentTeam(team), projects: (await teams.projects(params.team_id)).map(presentTeamProject) };
      },
    }),
    route({
      ...admin,
      method: 'put',
      path: '/api/admin/teams/:team_id',
      summary: 'Rename or describe a team (superusers)',
      params: teamParams,
      body: updateTeamBody,
      responses: { 200: { description: '{team}', schema: z.object({ team: teamSchema }) }, 403: NOT_SUPERUSER, 404: TEAM_404, 409: { description: '`A team with this name already exists`' } },
      handler: async (ctx, { params, body }) => {
        requireSuperuser(ctx);
        return { team: presentTeam(await teams.update(params.team_id, body)) };
      },
    }),
    route({
      ...admin,
      method: 'delete',
      path: '/api/admin/teams/:team_id',
      summary: 'Delete a team (superusers): its members lose the access it gave them at once; their own memberships stay',
      params: teamParams,
      responses: { 200: { description: '{ok}', schema: z.object({ ok: z.literal(true) }) }, 403: NOT_SUPERUSER, 404: TEAM_404 },
      handler: async (ctx, { params }) => {
        requireSuperuser(ctx);
        await teams.delete(params.team_id);
        serving.forgetAccess();
        return { ok: true as const };
      },
    }),
    route({
      ...admin,
      method: 'get',
      path: '/api/admin/teams/:team_id/members',
      summary: "A team's members with their team roles, in the order they joined (superusers)",
      params: teamParams,
      query: pageQuery(500),
      responses: { 200: { description: 'List envelope of team members', schema: pageOf(teamMemberSchema) }, 403: NOT_SUPERUSER, 404: TEAM_404 },
      handler: async (ctx, { params, query }) => {
        const page = await teams.members(superuser(ctx), params.team_id, query);
        return { ...page, items: page.items.map(presentTeamMember) };
      },
    }),
    route({
      ...admin,
      method: 'post',
      path: '/api/admin/teams/:team_id/members',
      rateLimit: 'members',
      summary: "Add a registered user to a team by `email` or `user_id` (exactly one), or change their team role (superusers). The user gets the team's project roles at once",
      params: teamParams,
      body: addTeamMemberBody,
      responses: {
        201: { description: '{member}', schema: z.object({ member: teamMemberSchema }) },
        403: NOT_SUPERUSER,
        404: { description: '`Team not found`, or `User not found`' },
      },
      handler: async (ctx, { params, body }) => {
        const member = await teams.upsertMember(superuser(ctx), params.team_id, body, body.role);
        serving.forgetAccess();
        ctx.status = 201;
        return { member: presentTeamMember(member) };
      },
    }),
    route({
      ...admin,
      method: 'delete',
      path: '/api/admin/teams/:team_id/members/:user_id',
      summary: 'Remove a member from a team (superusers): the access the team gave them ends at their next request',
      params: teamMemberParams,
      responses: { 200: { description: '{ok}', schema: z.object({ ok: z.literal(true) }) }, 403: NOT_SUPERUSER, 404: { description: '`Team not found` or `Member not found`' } },
      handler: async (ctx, { params }) => {
        await teams.removeMember(superuser(ctx), params.team_id, params.user_id);
        serving.forgetAccess();
        return { ok: true as const };
      },
    }),
  ];
}
