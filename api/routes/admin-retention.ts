import { z } from 'zod';
import { requireSuperuser } from '../admin-guard';
import { callerId, type RouteDeps } from '../context';
import { presentRetentionOverview, presentRetentionRun } from '../presenters/retention';
import { retentionDryRunSchema, retentionOverviewSchema, retentionPolicySchema, retentionRunSchema } from '../presenters/retention.schema';
import { route, RouteDef } from '../route';
import { retentionKindParams, retentionPolicyBody, retentionRunBody, retentionRunParams } from './admin-retention.schema';

/** What a retention policy keeps whatever its rule says: stated once, in every operation of the group. */
const KEPT =
  'Always kept: the latest version of each dataset and every version an experiment (so its models), a synthesizer, a privacy session, a drift result, a registry version or a retraining uses, or an open profile job reads; ' +
  'reports still generating; experiment logs of open experiments; synthetic outputs of open generations; ' +
  'the logs of a deployment with an open drift job, and the newest 50000 logged payloads of every deployment not archived (its drift window). ' +
  "Files in the artifact store go with their rows. `keep_latest` counts per owner: a deployment's logs, an experiment's log lines, a dataset's versions, the reports of one subject, a synthesizer's generations; audit entries instance-wide.";

/** One operation answers either (one schema per operation's handler): the dry run's counts, or the queued job. */
const dryRunOrRun = z.union([retentionDryRunSchema, retentionRunSchema]);

/** Instance-wide retention policies, their dry run and their runs (the `retention` job kind). Superusers only. */
export function adminRetentionRoutes({ services }: RouteDeps): RouteDef[] {
  const { retention, jobs } = services;
  const tag = 'admin';
  const notFound = { description: 'Retention policy not found' };
  return [
    route({
      method: 'get',
      path: '/api/admin/retention',
      tag,
      auth: 'user',
      scope: 'admin',
      summary: `The retention policies (one per kind of record), what each kind can be anonymized of, the last runs and when the daily schedule (03:00 UTC) next runs. ${KEPT}`,
      responses: { 200: { description: '{policies, kinds, last_runs, next_run_at}', schema: retentionOverviewSchema } },
      handler: async (ctx) => {
        requireSuperuser(ctx);
        return presentRetentionOverview(await retention.overview(), (j) => jobs.temporalUiUrl(j));
      },
    }),
    route({
      method: 'put',
      path: '/api/admin/retention/:kind',
      tag,
      auth: 'user',
      scope: 'admin',
      params: retentionKindParams,
      body: retentionPolicyBody,
      summary: `Set the policy of one kind: keep_days or keep_latest (exactly one), action delete or anonymize (inference logs: their stored input rows; audit entries: client address and user agent; 422 for the other kinds), enabled. The daily schedule exists while a policy is enabled. ${KEPT}`,
      responses: { 200: { description: 'The policy', schema: retentionPolicySchema } },
      handler: async (ctx, { params, body }) => {
        requireSuperuser(ctx);
        return retention.put(callerId(ctx), params.kind, { keep_days: body.keep_days ?? null, keep_latest: body.keep_latest ?? null, action: body.action, enabled: body.enabled });
      },
    }),
    route({
      method: 'delete',
      path: '/api/admin/retention/:kind',
      tag,
      auth: 'user',
      scope: 'admin',
      params: retentionKindParams,
      summary: 'Remove the policy of one kind: its records are kept however old',
      responses: { 200: { description: '{ok}' }, 404: notFound },
      handler: async (ctx, { params }) => {
        requireSuperuser(ctx);
        await retention.remove(params.kind);
        return { ok: true };
      },
    }),
    route({
      method: 'post',
      path: '/api/admin/retention/run',
      tag,
      auth: 'user',
      scope: 'admin',
      body: retentionRunBody,
      summary: `Run the enabled policies now. \`{dry_run: true}\`: 200 with what would go per kind (count and the oldest ids), changing nothing. \`{dry_run: false}\`: 202 with the queued \`retention\` job (its progress at GET /api/admin/retention/runs/{job_id}); 409 while a run is open or when no policy is enabled. ${KEPT}`,
      responses: {
        200: { description: 'A dry run: {dry_run: true, as_of, kinds: [{kind, action, count, sample_ids}]}', schema: dryRunOrRun },
        202: { description: 'A queued run: {job}', schema: dryRunOrRun },
        409: { description: 'A retention run is already queued or running, or no policy is enabled' },
      },
      handler: async (ctx, { body }) => {
        requireSuperuser(ctx);
        if (body.dry_run) return { dry_run: true as const, ...(await retention.dryRun()) };
        const job = await retention.start(callerId(ctx));
        ctx.status = 202;
        return { job: presentRetentionRun(job, jobs.temporalUiUrl(job)) };
      },
    }),
    route({
      method: 'get',
      path: '/api/admin/retention/runs/:job_id',
      tag,
      auth: 'user',
      scope: 'admin',
      params: retentionRunParams,
      summary: 'One retention run (its job: status, progress, and when it ended, rows taken per kind in `result`)',
      responses: { 200: { description: '{job}', schema: retentionRunSchema }, 404: { description: 'Retention run not found' } },
      handler: async (ctx, { params }) => {
        requireSuperuser(ctx);
        const job = await retention.run(params.job_id);
        return { job: presentRetentionRun(job, jobs.temporalUiUrl(job)) };
      },
    }),
    route({
      method: 'post',
      path: '/api/admin/retention/runs/:job_id/cancel',
      tag,
      auth: 'user',
      scope: 'admin',
      params: retentionRunParams,
      summary: 'Cancel a queued or running retention run: it stops between two batches (each committed whole) and ends `canceled`',
      responses: { 200: { description: '{job}', schema: retentionRunSchema }, 404: { description: 'Retention run not found' }, 409: { description: 'The run already ended' } },
      handler: async (ctx, { params }) => {
        requireSuperuser(ctx);
        const job = await retention.cancel(params.job_id);
        return { job: presentRetentionRun(job, jobs.temporalUiUrl(job)) };
      },
    }),
  ];
}
