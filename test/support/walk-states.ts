import Stripe from 'stripe';
import { evaluateProject } from '../../activities/alerts-evaluate/evaluate';
import { createLogger } from '../../platform/logger';
import { Access } from '../../services/access';
import { DatasetVersions } from '../../services/dataset-versions';
import { ModelServing } from '../../services/model-serving';
import { ApiClient, eventually } from './client';
import type { ScriptedReply, ScriptedRequest } from './scripted-llm';
import type { TestStack } from './stack';

/**
 * States that some mutating operations need before they can answer 2xx, made through the API (and, for an alert, the
 * evaluator's own function) the way a user or the service would reach them: rollouts in a given state, a firing
 * alert, a concluded A/B test with a winner, a retraining job awaiting approval, a signed billing webhook, a builder job
 * done, and the builder's assistant. The audit walk (test/audit-coverage.test.ts) uses them; each helper waits for the
 * state it promises.
 */

const M = '/api/mlops';

export interface RolloutView {
  id: string;
  state: string;
  candidate_deployment_id: string | null;
  current_traffic_percent: number;
  history: { event: string }[];
}

/** A rollout as the API shows it. */
async function rollout(client: ApiClient, id: string): Promise<RolloutView> {
  const r = await client.get(`${M}/strategies/${id}`);
  if (r.status !== 200) throw new Error(`rollout ${id}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Waits until the rollout satisfies `done` (a state reached, a history event seen). */
export function rolloutWhen(client: ApiClient, id: string, done: (r: RolloutView) => boolean, timeoutMs = 60_000): Promise<RolloutView> {
  return eventually(
    async () => {
      const r = await rollout(client, id);
      return done(r) ? r : undefined;
    },
    timeoutMs,
    200,
  );
}

/**
 * Waits for the rollout to reach one of `states`. An open rollout's state is its workflow's, which says `paused` a
 * moment before the row does (the activity that records it runs after): a pause counts once the row's history has it,
 * since what the API then refuses or allows (a share set by hand) reads the row.
 */
export function rolloutIn(client: ApiClient, id: string, ...states: string[]): Promise<RolloutView> {
  return rolloutWhen(client, id, (r) => states.includes(r.state) && (r.state !== 'paused' || r.history[r.history.length - 1]?.event === 'paused'));
}

/** A canary's first step is serving: its candidate deployment exists and takes its share. */
export const canaryServing = (r: RolloutView): boolean => r.state === 'running' && !!r.candidate_deployment_id && r.current_traffic_percent > 0;

/** The project's active production deployment now (rollouts, promotions and approvals move it). */
export async function productionOf(client: ApiClient, projectId: string): Promise<{ id: string; model_id: string }> {
  const r = await client.get(`${M}/projects/${projectId}/deployments?limit=200`);
  const found = (r.body.items as { id: string; model_id: string; stage: string; is_active: boolean }[]).find((d) => d.stage === 'production' && d.is_active);
  if (!found) throw new Error(`project ${projectId} has no production deployment`);
  return found;
}

/**
 * Starts a canary of `modelId` (one step of 10 % held an hour: it moves only on a signal) on the deployment and waits
 * for its candidate to serve.
 */
export async function servingCanary(client: ApiClient, deploymentId: string, modelId: string): Promise<RolloutView> {
  const r = await client.post(`${M}/deployments/${deploymentId}/canary`, { model_id: modelId, steps: [{ traffic_percent: 10, pause_secs: 3600 }] });
  if (r.status !== 201) throw new Error(`canary not started: ${r.status} ${JSON.stringify(r.body)}`);
  return rolloutWhen(client, r.body.id, canaryServing);
}

/** Sends a rollout signal outside the walk and waits for the state it ends in. */
export async function signalled(client: ApiClient, id: string, signal: 'pause' | 'abort' | 'rollback', until: string): Promise<RolloutView> {
  const r = await client.post(`${M}/strategies/${id}/${signal}`);
  if (r.status !== 202) throw new Error(`${signal} of rollout ${id}: ${r.status} ${JSON.stringify(r.body)}`);
  return rolloutIn(client, id, until);
}

/**
 * A firing alert on the deployment: a rule that always holds (the serving model's age is at least 0 days) evaluated
 * once by the evaluator's own function, as the scheduled activity does, instead of waiting for the schedule's minute.
 */
export async function firingAlert(stack: TestStack, client: ApiClient, projectId: string, deploymentId: string): Promise<string> {
  const rule = await client.post(`${M}/projects/${projectId}/alert-rules`, {
    name: 'audit walk: always firing',
    deployment_id: deploymentId,
    metric: 'model_staleness',
    operator: 'gte',
    threshold: 0,
  });
  if (rule.status !== 201) throw new Error(`alert rule not made: ${rule.status} ${JSON.stringify(rule.body)}`);
  const access = new Access(stack.ds);
  const sources = { ds: stack.ds, serving: new ModelServing(stack.ds, stack.store, access), datasetVersions: new DatasetVersions(stack.ds, stack.store) };
  await evaluateProject({ ...sources, log: createLogger('silent', 'test'), appBaseUrl: stack.config.appBaseUrl }, projectId, new Date());
  const alerts = await client.get(`${M}/projects/${projectId}/alerts?rule_id=${rule.body.id}`);
  const firing = (alerts.body.items as { id: string; state: string }[]).find((a) => a.state === 'firing');
  if (!firing) throw new Error(`no firing alert for rule ${rule.body.id}: ${JSON.stringify(alerts.body)}`);
  return firing.id;
}

/**
 * An A/B test concluded with a winner that already serves production, so promoting it moves nothing: the control
 * (the production deployment, weight 4) converts on all but one of its requests, the challenger (weight 1) on none.
 * With min_samples 2, about a dozen control requests cross the sequential test's boundary (engine/stats/sequential.ts).
 */
export async function decidedAbTest(client: ApiClient, projectId: string, productionId: string, challengerId: string, inputs: Record<string, unknown>): Promise<string> {
  const made = await client.post(`${M}/ab-tests`, {
    project_id: projectId,
    name: 'audit walk decided',
    variants: [
      { name: 'control', deployment_id: productionId, weight: 4 },
      { name: 'challenger', deployment_id: challengerId, weight: 1 },
    ],
    primary_metric: 'conversion',
    min_samples: 2,
  });
  if (made.status !== 201) throw new Error(`A/B test not made: ${made.status} ${JSON.stringify(made.body)}`);
  const id = made.body.id as string;
  if ((await client.post(`${M}/ab-tests/${id}/start`)).status !== 200) throw new Error('A/B test not started');
  const byVariant: Record<string, string[]> = { control: [], challenger: [] };
  for (let i = 0; i < 200 && (byVariant.control.length < 16 || byVariant.challenger.length < 2); i++) {
    const p = await client.post(`${M}/ab-tests/${id}/predict`, { inputs }, { headers: { 'x-ab-key': `audit-walk-${i}` } });
    if (p.status !== 200) throw new Error(`A/B predict: ${p.status} ${JSON.stringify(p.body)}`);
    byVariant[p.body.variant].push(p.body.request_id);
  }
  const outcomes = byVariant.control.map((request_id, i) => ({ request_id, value: i === 0 ? 0 : 1 }));
  const sent = await client.post(`${M}/ab-tests/${id}/outcomes`, { outcomes });
  if (sent.status !== 200) throw new Error(`A/B outcomes: ${sent.status} ${JSON.stringify(sent.body)}`);
  const test = (await client.get(`${M}/ab-tests/${id}`)).body;
  if (test.state !== 'concluded' || test.conclusion?.winner !== 'control') throw new Error(`A/B test not decided for the control: ${JSON.stringify(test.conclusion)}`);
  return id;
}

/** Waits for a retraining job to await approval (it trains and evaluates first); throws if it ends otherwise. */
export async function awaitingApproval(client: ApiClient, jobId: string): Promise<void> {
  const settled = await eventually(
    async () => {
      const j = (await client.get(`${M}/retraining-jobs/${jobId}`)).body;
      return ['awaiting_approval', 'promoted', 'rejected', 'registered', 'failed'].includes(j.state) ? j : undefined;
    },
    240_000,
    300,
  );
  if (settled.state !== 'awaiting_approval') throw new Error(`retraining job ${jobId} ended ${settled.state}: ${settled.reason ?? settled.error}`);
}

/**
 * A Stripe `checkout.session.completed` delivery moving `userId` to `plan`, signed with `secret` the way Stripe signs
 * (the SDK's own test-header helper, as test/billing.test.ts does): the raw body and its Stripe-Signature header.
 */
export function signedCheckoutCompleted(userId: string, plan: string, customer: string, secret: string): { body: string; signature: string } {
  const body = JSON.stringify({
    id: `evt_audit_${Date.now().toString(36)}`,
    object: 'event',
    type: 'checkout.session.completed',
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: 'cs_audit_walk',
        object: 'checkout.session',
        mode: 'subscription',
        client_reference_id: userId,
        customer,
        subscription: `sub_audit_${userId.slice(0, 8)}`,
        metadata: { plan, user_id: userId },
        status: 'complete',
      },
    },
  });
  return { body, signature: new Stripe('sk_test_signer').webhooks.generateTestHeaderString({ payload: body, secret }) };
}

/** Waits for a job to end (a builder step's execution, its finalize, a replay); throws unless it succeeded. */
export async function succeededJob(client: ApiClient, jobId: string, timeoutMs = 120_000): Promise<{ id: string; kind: string; status: string }> {
  const job = await eventually(
    async () => {
      const j = (await client.get(`/api/jobs/${jobId}`)).body.job;
      return ['succeeded', 'failed', 'canceled'].includes(j?.status) ? j : undefined;
    },
    timeoutMs,
    200,
  );
  if (job.status !== 'succeeded') throw new Error(`job ${jobId} (${job.kind}) ended ${job.status}: ${job.error}`);
  return job;
}

/**
 * The builder's assistant for the walk (test/support/scripted-llm.ts): a step proposal (asked through the
 * `builder_step_proposal` JSON schema) removes repeated rows, which every step's input allows; anything else asked of
 * the model (a report's insights) gets a line of text.
 */
export function walkAssistant(req: ScriptedRequest): ScriptedReply {
  const format = req.body?.response_format as { json_schema?: { name?: string } } | undefined;
  if (format?.json_schema?.name !== 'builder_step_proposal') return 'Audit walk: nothing stands out.';
  return { json: { reply: 'One row repeats: removing repeated rows.', operations: [{ operation: { op: 'deduplicate' }, reason: 'a repeated row' }] } };
}
