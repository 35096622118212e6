import { z } from 'zod';
import { requireSuperuser } from '../admin-guard';
import type { RouteDeps } from '../context';
import { planSchema } from '../presenters/account.schema';
import { presentAdminPlan } from '../presenters/plan';
import { adminPlanSchema, builtInPlanSchema } from '../presenters/plan.schema';
import { route, RouteDef } from '../route';
import { assignPlanBody, newPlanBody, planParams, teamPlanParams, updatePlanBody, userPlanParams } from './admin-plans.schema';

const tag = 'admin';
const planNotFound = { 404: { description: 'Plan not found' } };

/** How a user's plan is chosen, said once for the OpenAPI document. */
const RESOLUTION =
  "A user's plan is their own (`PUT /api/admin/users/{user_id}/plan`), else the most generous of their teams' plans (limit by limit: no limit beats a number, a larger number a smaller one), else the instance settings' `default_plan`, else the built-in `self_hosted` plan whose limits are the configuration.";

/** Plans and quotas in the admin area: define plans, assign them to users and teams, read a user's usage. Superusers only. */
export function adminPlanRoutes({ services }: RouteDeps): RouteDef[] {
  const { planAdmin, plans } = services;
  return [
    route({
      method: 'get',
      path: '/api/admin/plans',
      tag,
      auth: 'user',
      scope: 'admin',
      summary: `Every plan by name with the users and teams holding it, the built-in plan and the default plan's name. ${RESOLUTION}`,
      responses: {
        200: {
          description: '{items: [plan], total, built_in: {name, display_name, limits}, default_plan}',
          schema: z.object({ items: z.array(adminPlanSchema), total: z.number().int(), built_in: builtInPlanSchema, default_plan: z.string().nullable() }),
        },
      },
      handler: async (ctx) => {
        requireSuperuser(ctx);
        const list = await planAdmin.list();
        return { items: list.items.map(presentAdminPlan), total: list.items.length, built_in: list.built_in, default_plan: list.default_plan };
      },
    }),
    route({
      method: 'post',
      path: '/api/admin/plans',
      tag,
      auth: 'user',
      scope: 'admin',
      summary:
        "Define a plan: a unique name (the key settings' `default_plan` and billing use), a display name and the limits it sets; a limit left out takes the configured value. Enforced where each applies: max_projects at project creation (409), max_models and max_runtime_secs at experiment creation (422), max_concurrent_jobs and max_open_jobs_per_project when a job is started (429: refused, not queued), max_running_jobs at a job's admission (it waits queued), max_upload_bytes on upload (413), predictions_per_minute on predict (429), max_storage_bytes and max_storage_bytes_per_project on uploads and jobs (403)",
      body: newPlanBody,
      responses: { 201: { description: '{plan}', schema: z.object({ plan: adminPlanSchema }) }, 409: { description: 'A plan of that name exists (or it is the built-in one)' } },
      handler: async (ctx, { body }) => {
        requireSuperuser(ctx);
        const plan = await planAdmin.create(body);
        ctx.status = 201;
        return { plan: presentAdminPlan(plan) };
      },
    }),
    route({
      method: 'get',
      path: '/api/admin/plans/:id',
      tag,
      auth: 'user',
      scope: 'admin',
      summary: 'One plan with its limits, what applies, and how many users and teams hold it',
      params: planParams,
      responses: { 200: { description: '{plan}', schema: z.object({ plan: adminPlanSchema }) }, ...planNotFound },
      handler: async (ctx, { params }) => {
        requireSuperuser(ctx);
        return { plan: presentAdminPlan(await planAdmin.get(params.id)) };
      },
    }),
    route({
      method: 'put',
      path: '/api/admin/plans/:id',
      tag,
      auth: 'user',
      scope: 'admin',
      summary: "Replace a plan's display name and limits (the name stays); holders get the new limits at their next request (predictions within 5 s)",
      params: planParams,
      body: updatePlanBody,
      responses: { 200: { description: '{plan}', schema: z.object({ plan: adminPlanSchema }) }, ...planNotFound },
      handler: async (ctx, { params, body }) => {
        requireSuperuser(ctx);
        return { plan: presentAdminPlan(await planAdmin.update(params.id, body)) };
      },
    }),
    route({
      method: 'delete',
      path: '/api/admin/plans/:id',
      tag,
      auth: 'user',
      scope: 'admin',
      summary: 'Delete a plan nobody holds',
      params: planParams,
      responses: { 204: { description: 'Deleted' }, ...planNotFound, 409: { description: "The plan is held by users or teams, or is the instance's default plan" } },
      handler: async (ctx, { params }) => {
        requireSuperuser(ctx);
        await planAdmin.delete(params.id);
        ctx.status = 204;
        return undefined;
      },
    }),
    route({
      method: 'get',
      path: '/api/admin/users/:user_id/plan',
      tag,
      auth: 'user',
      scope: 'admin',
      summary: `A user's plan, its quotas and their usage (projects, storage, open jobs, predictions this minute): what they see at GET /api/auth/plan. ${RESOLUTION}`,
      params: userPlanParams,
      responses: { 200: { description: '{plan}', schema: z.object({ plan: planSchema }) }, 404: { description: 'User not found' } },
      handler: async (ctx, { params }) => {
        requireSuperuser(ctx);
        await planAdmin.assertUser(params.user_id);
        return { plan: await plans.plan(params.user_id) };
      },
    }),
    route({
      method: 'put',
      path: '/api/admin/users/:user_id/plan',
      tag,
      auth: 'user',
      scope: 'admin',
      summary: `Give a user a plan of their own (\`plan_id\`), or none (null: their teams' or the default applies). Answers the plan that now applies. ${RESOLUTION}`,
      params: userPlanParams,
      body: assignPlanBody,
      responses: { 200: { description: '{plan}', schema: z.object({ plan: planSchema }) }, 404: { description: 'User not found, or Plan not found' } },
      handler: async (ctx, { params, body }) => {
        requireSuperuser(ctx);
        await planAdmin.assignToUser(params.user_id, body.plan_id);
        return { plan: await plans.plan(params.user_id) };
      },
    }),
    route({
      method: 'put',
      path: '/api/admin/teams/:team_id/plan',
      tag,
      auth: 'user',
      scope: 'admin',
      summary: "Give a team a plan (null: none). Its members without a plan of their own get the most generous of their teams' plans",
      params: teamPlanParams,
      body: assignPlanBody,
      responses: {
        200: { description: '{team_id, plan_id}', schema: z.object({ team_id: z.string(), plan_id: z.string().nullable() }) },
        404: { description: 'Team not found, or Plan not found' },
      },
      handler: async (ctx, { params, body }) => {
        requireSuperuser(ctx);
        const team = await planAdmin.assignToTeam(params.team_id, body.plan_id);
        return { team_id: team.id, plan_id: team.planId };
      },
    }),
  ];
}
