import { z } from 'zod';
import { callerId, type RouteDeps } from '../context';
import { pageOf } from '../presenters/page.schema';
import { presentRetrainingJob, presentRetrainingPolicy, presentRetrainingTrigger } from '../presenters/retraining';
import { retrainingJobSchema, retrainingPolicySchema, retrainingTriggerSchema } from '../presenters/retraining.schema';
import { route, RouteDef } from '../route';
import { pageQuery, uuidParam } from '../validation';
import { createPolicyBody, decisionBody, jobListQuery, patchPolicyBody, policyListQuery } from './retraining.schema';

const policyParams = z.object({ policy_id: uuidParam });
const jobParams = z.object({ retraining_job_id: uuidParam });

const READ = 'read:deployments' as const;
const WRITE = 'write:deployments' as const;

/**
 * Retraining (prefix /api/mlops): policies of a registered model (triggers, experiment overrides, gate, outcome,
 * cooldown), the retraining jobs they start, the triggers they received, and the decision on a job awaiting approval.
 * Members read, editors change and run, admins and owners approve; an API key needs `read:deployments` or
 * `write:deployments`. Another project's policy or job is its own 404.
 */
export function retrainingRoutes({ services }: RouteDeps): RouteDef[] {
  const { retrainingPolicies: policies, retraining } = services;
  const tagged = { tag: 'retraining', auth: 'user' as const };
  const policyAnswer = { description: 'The policy', schema: retrainingPolicySchema };
  const jobAnswer = { description: 'The retraining job', schema: retrainingJobSchema };
  const policy404 = { description: 'Retraining policy not found' };
  const job404 = { description: 'Retraining job not found' };

  return [
    route({
      ...tagged,
      method: 'post',
      path: '/api/mlops/retraining-policies',
      scope: WRITE,
      body: createPolicyBody,
      summary:
        "A retraining policy of a registered model (editor or above). Triggers: `schedule_cron` (a Temporal Schedule, UTC), `drift` (the champion's production deployment's drift results above `threshold` for `consecutive` evaluations since the last retraining), `new_dataset_version` (a new version of the champion's training dataset), `alert_rule_ids` (accuracy_degradation rules whose alerts begin firing). A run trains an experiment with the champion's config (and `experiment`'s overrides) on the latest version of its dataset less a 20% holdout, scores the challenger and the champion on that holdout, and passes the `gate` when the challenger is better by `min_improvement`; then `outcome`: `register` (alias challenger only), `approval` (a registry transition request to production, awaiting approval), `auto_promote`, `canary` (a canary rollout with `canary.steps`; promoted when it passes) or `shadow` (a shadow rollout, then awaiting approval). Triggers within `cooldown_secs` of the last retraining or while one is open are skipped and recorded",
      responses: {
        201: policyAnswer,
        404: { description: 'Project not found, Registered model not found, Alert rule not found' },
        422: { description: 'A field (named); an alert rule that is not accuracy_degradation; the canary outcome without canary' },
      },
      handler: async (ctx, { body }) => {
        const p = await policies.create(callerId(ctx), body);
        ctx.status = 201;
        return presentRetrainingPolicy(p);
      },
    }),
    route({
      ...tagged,
      method: 'get',
      path: '/api/mlops/retraining-policies',
      scope: READ,
      query: policyListQuery,
      summary: "The project's retraining policies, newest first",
      responses: { 200: { description: 'List envelope of policies', schema: pageOf(retrainingPolicySchema) }, 404: { description: 'Project not found' } },
      handler: async (ctx, { query }) => {
        const page = await policies.list(callerId(ctx), query.project_id, query);
        return { ...page, items: page.items.map(presentRetrainingPolicy) };
      },
    }),
    route({
      ...tagged,
      method: 'get',
      path: '/api/mlops/retraining-policies/:policy_id',
      scope: READ,
      params: policyParams,
      summary: 'A retraining policy',
      responses: { 200: policyAnswer, 404: policy404 },
      handler: async (ctx, { params }) => presentRetrainingPolicy(await policies.get(callerId(ctx), params.policy_id)),
    }),
    route({
      ...tagged,
      method: 'patch',
      path: '/api/mlops/retraining-policies/:policy_id',
      scope: WRITE,
      params: policyParams,
      body: patchPolicyBody,
      summary: 'Change a policy (editor or above): the fields given; `triggers`, `gate`, `experiment` and `canary` are replaced whole. Its schedule follows at once',
      responses: {
        200: policyAnswer,
        404: { description: 'Retraining policy not found, Alert rule not found' },
        422: { description: 'A field (named); an alert rule that is not accuracy_degradation; the canary outcome without canary' },
      },
      handler: async (ctx, { params, body }) => presentRetrainingPolicy(await policies.update(callerId(ctx), params.policy_id, body)),
    }),
    route({
      ...tagged,
      method: 'delete',
      path: '/api/mlops/retraining-policies/:policy_id',
      scope: WRITE,
      params: policyParams,
      summary: 'Delete a policy with its jobs and triggers (editor or above); refused while one of its jobs is open',
      responses: { 204: { description: 'Deleted (no body)', contentType: [] }, 404: policy404, 409: { description: 'The policy has an open retraining job' } },
      handler: async (ctx, { params }) => {
        await policies.delete(callerId(ctx), params.policy_id);
        ctx.status = 204;
      },
    }),
    route({
      ...tagged,
      method: 'post',
      path: '/api/mlops/retraining-policies/:policy_id/run',
      scope: WRITE,
      params: policyParams,
      summary: 'Run the policy now (editor or above; the cooldown does not apply, a disabled policy runs too): a retraining job, whose `job_id` is its retraining_run job',
      responses: { 201: jobAnswer, 404: policy404, 409: { description: 'A retraining job of this policy is already open; the registered model has no champion' } },
      handler: async (ctx, { params }) => {
        const rj = await retraining.run(callerId(ctx), params.policy_id);
        ctx.status = 201;
        return presentRetrainingJob(rj);
      },
    }),
    route({
      ...tagged,
      method: 'get',
      path: '/api/mlops/retraining-policies/:policy_id/triggers',
      scope: READ,
      params: policyParams,
      query: pageQuery(200),
      summary: 'The triggers the policy received, newest first: the retraining each started, or why it was skipped (cooldown, a job open, no champion, disabled)',
      responses: { 200: { description: 'List envelope of triggers', schema: pageOf(retrainingTriggerSchema) }, 404: policy404 },
      handler: async (ctx, { params, query }) => {
        const page = await policies.triggers(callerId(ctx), params.policy_id, query);
        return { ...page, items: page.items.map(presentRetrainingTrigger) };
      },
    }),
    route({
      ...tagged,
      method: 'get',
      path: '/api/mlops/retraining-jobs',
      scope: READ,
      query: jobListQuery,
      summary: "Retraining jobs of the caller's projects, newest first; `project_id` and `policy_id` narrow it",
      responses: { 200: { description: 'List envelope of retraining jobs', schema: pageOf(retrainingJobSchema) }, 404: { description: 'Project not found, Retraining policy not found' } },
      handler: async (ctx, { query }) => {
        const page = await retraining.list(callerId(ctx), query);
        return { ...page, items: page.items.map(presentRetrainingJob) };
      },
    }),
    route({
      ...tagged,
      method: 'get',
      path: '/api/mlops/retraining-jobs/:retraining_job_id',
      scope: READ,
      params: jobParams,
      summary:
        'A retraining job: its trigger, state (queued, training, evaluating, awaiting_approval, promoted, rejected, registered, failed), experiment, versions, rollout, transition request and evaluation on the holdout',
      responses: { 200: jobAnswer, 404: job404 },
      handler: async (ctx, { params }) => presentRetrainingJob(await retraining.get(callerId(ctx), params.retraining_job_id)),
    }),
    ...(['approve', 'reject'] as const).map((decision) =>
      route({
        ...tagged,
        method: 'post',
        path: `/api/mlops/retraining-jobs/:retraining_job_id/${decision}`,
        scope: WRITE,
        params: jobParams,
        body: decisionBody,
        summary:
          decision === 'approve'
            ? 'Approve a job awaiting approval (admin or owner): its registry transition request is approved, the challenger deployed to production (the previous production archived) and the alias `champion` moved onto it → `promoted`'
            : 'Reject a job awaiting approval (admin or owner): its transition request is rejected and production is untouched → `rejected`',
        responses: { 200: jobAnswer, 404: job404, 409: { description: 'The job is not awaiting approval' } },
        handler: async (ctx, { params, body }) => presentRetrainingJob(await retraining.decide(callerId(ctx), params.retraining_job_id, decision, body.comment)),
      }),
    ),
  ];
}
