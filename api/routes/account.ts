import { ACCOUNT_EVENT_TYPES } from '../../entities';
import { TENANT_PROJECTS_MAX } from '../../services/plans';
import { callerId, type RouteDeps } from '../context';
import { z } from 'zod';
import { presentAccountEvent } from '../presenters/account';
import { accountEventSchema, planSchema, tenantInfoSchema } from '../presenters/account.schema';
import { pageOf } from '../presenters/page.schema';
import { presentUser } from '../presenters/user';
import { route, RouteDef } from '../route';
import { pageQuery } from '../validation';

/** The account's own activity log, plan and quotas, and tenant summary. */
export function accountRoutes({ services }: RouteDeps): RouteDef[] {
  const { activity, plans } = services;
  const tag = 'auth';
  return [
    route({
      // Session only, like the session list: where and how the account was used is for its owner, not for a key.
      method: 'get',
      path: '/api/auth/my-activity',
      tag,
      auth: 'session',
      summary:
        "The caller's own security events, newest first, each with its time, client address and user agent: " +
        `${ACCOUNT_EVENT_TYPES.join(', ')}. Failed logins are those on this account. Never another user's events (session login; API keys are refused)`,
      query: pageQuery(100),
      responses: { 200: { description: 'List envelope of {id, type, created_at, ip, user_agent, details}', schema: pageOf(accountEventSchema) } },
      handler: async (ctx, { query }) => {
        const page = await activity.list(callerId(ctx), query);
        return { ...page, items: page.items.map(presentAccountEvent) };
      },
    }),
    route({
      method: 'get',
      path: '/api/auth/plan',
      tag,
      auth: 'user',
      scope: 'read:projects',
      summary:
        "The account's plan and where it came from (`source`: the user's own plan, else the most generous of their teams' plans limit by limit, else the instance's default plan, else the built-in `self_hosted` plan whose quotas are the configuration), its quotas (null: no limit) and what the account uses of them: " +
        '`predictions_per_minute` its predict requests a minute over every deployment and model (429 naming the limit past it), `max_concurrent_jobs` (also `max_open_jobs`) its queued or running jobs; ' +
        "`max_models` caps an experiment's max_models (MAX_MODELS_PER_EXPERIMENT, default 100; a larger request is 422, an omitted one defaults to min(20, cap)), " +
        "`max_projects` the projects a user may own (MAX_PROJECTS_PER_USER, default 1000; creating one more is 409), `max_open_jobs` its queued or running jobs (MAX_OPEN_JOBS_PER_USER, default 100; starting one more is 429 with Retry-After) and `max_open_jobs_per_project` a project's (MAX_OPEN_JOBS_PER_PROJECT, default 200), " +
        "`max_running_jobs` its jobs that hold an ml-cpu slot at once (MAX_RUNNING_JOBS_PER_USER, default 1; the rest wait their turn without holding one), `max_storage_bytes` the bytes its owned projects may store and `max_storage_bytes_per_project` one project's (MAX_STORAGE_BYTES_PER_USER, 100 GiB; MAX_STORAGE_BYTES_PER_PROJECT, 50 GiB; an upload or job past them is 403), " +
        '`max_upload_bytes` a dataset upload (MAX_DATASET_UPLOAD_BYTES). Usage counts the projects the caller owns and what they hold (API keys: read:projects)',
      responses: {
        200: {
          description:
            '{plan: {id, name, display_name, source, team_plans, quotas: {max_models, max_upload_bytes, max_dataset_columns, max_projects, max_concurrent_jobs, max_open_jobs, predictions_per_minute, max_synthgen_rows, …}, usage: {projects_owned, projects_member, datasets, experiments, models, storage_bytes, open_jobs, predictions_this_minute}}}',
          schema: z.object({ plan: planSchema }),
        },
      },
      handler: async (ctx) => ({ plan: await plans.plan(callerId(ctx)) }),
    }),
    route({
      method: 'get',
      path: '/api/auth/tenant-info',
      tag,
      auth: 'user',
      scope: 'read:projects',
      summary: `The account in one answer: the user, the plan, the projects with the caller's role in each (by name, at most ${TENANT_PROJECTS_MAX}; \`projects_total\` counts them all), the quotas, usage and rate limits (API keys: read:projects)`,
      responses: {
        200: { description: '{tenant: {user, plan}, projects: [{id, name, role, created_at}], projects_total, limits: {quotas, rate_limits}, usage}', schema: tenantInfoSchema },
      },
      handler: async (ctx) => {
        const t = await plans.tenant(ctx.state.principal!.user);
        return {
          tenant: { user: presentUser(t.user), plan: t.plan },
          projects: t.projects.map((p) => ({ id: p.id, name: p.name, role: p.role, created_at: new Date(p.created_at).toISOString() })),
          projects_total: t.projects_total,
          limits: { quotas: t.quotas, rate_limits: t.rate_limits },
          usage: t.usage,
        };
      },
    }),
  ];
}
