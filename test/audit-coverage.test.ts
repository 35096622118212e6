import { randomUUID } from 'node:crypto';
import { UNAUDITED_ROUTES } from '../api/middleware/audit';
import { startStripeMock, type StripeMockServer } from '../platform/stripe-mock';
import { ApiClient, createProject, eventually, signUp, uniqueEmail, type Res } from './support/client';
import { startScriptedLlm, type ScriptedLlm } from './support/scripted-llm';
import { linkIn } from './support/smtp-sink';
import { makeSuperuser } from './support/superuser';
import { startStack, TestStack } from './support/stack';
import { syntheticRows, trainQuickModels } from './support/trained-models';
import {
  awaitingApproval,
  canaryServing,
  decidedAbTest,
  firingAlert,
  productionOf,
  rolloutIn,
  rolloutWhen,
  servingCanary,
  signalled,
  signedCheckoutCompleted,
  succeededJob,
  walkAssistant,
} from './support/walk-states';

/**
 * The audit log covers every mutating operation of the OpenAPI document (issue 34): the test walks
 * `GET /api/openapi.json`, sends each POST, PUT, PATCH and DELETE with path ids from fixtures it made and a body built
 * from the operation's request schema, and checks that every answer 2xx has an audit entry with the request's
 * X-Request-Id, and that no entry holds a secret the test saw. An operation it cannot drive to 2xx must be in
 * `NOT_DRIVEN` with the reason, so a new route is either covered or listed.
 */

/**
 * Operations this walk does not get to 2xx, and why (a state this instance cannot reach). Empty: every operation is
 * driven, the ones that need a state first get it in `BEFORE` (test/support/walk-states.ts), billing included (the
 * stack runs with Stripe against stripe-mock).
 */
const NOT_DRIVEN: Record<string, string> = {};

/** JSON Schema as the document publishes it (the parts the body builder reads). */
interface Schema {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  default?: unknown;
  examples?: unknown[];
  format?: string;
  minimum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  minItems?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
}

interface Operation {
  method: string;
  path: string;
  key: string;
  body?: Schema;
  contentType?: string;
}

/** Ids and values the fixtures made, by the parameter or field name that takes them. */
type Fixtures = Record<string, string | number>;

/** A body value for `schema`, named `name`: fixtures by name, then const, example, default, enum, then by type. */
function sample(schema: Schema, name: string, fx: Fixtures, doc: { components?: { schemas?: Record<string, Schema> } }, depth = 0): unknown {
  if (schema.$ref) {
    const target = doc.components?.schemas?.[schema.$ref.split('/').pop()!];
    return target && depth < 8 ? sample(target, name, fx, doc, depth + 1) : 'audit';
  }
  if (name in fx && (schema.type === 'string' || schema.type === 'integer' || schema.format === 'uuid')) return fx[name];
  if ('const' in schema) return schema.const;
  if (schema.examples?.length) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives?.length) return sample(alternatives.find((s) => s.type !== 'null') ?? alternatives[0], name, fx, doc, depth + 1);
  if (schema.allOf?.length && !schema.type) return sample(schema.allOf[0], name, fx, doc, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) out[key] = sample(schema.properties?.[key] ?? {}, key, fx, doc, depth + 1);
      return out;
    }
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 0) }, () => sample(schema.items ?? {}, name, fx, doc, depth + 1));
    case 'integer':
    case 'number':
      return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return false;
    case 'string':
      if (schema.format === 'uuid') return randomUUID();
      if (schema.format === 'email' || /email|recipient/.test(name)) return uniqueEmail('audit');
      if (schema.format === 'date-time') return new Date(Date.now() + 3_600_000).toISOString();
      if (schema.format === 'uri' || /url/.test(name)) return 'https://hooks.example.test/audit';
      // Lower-case with dashes: what slugs, plan names and aliases accept, and any free text too.
      return `audit-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`.padEnd(schema.minLength ?? 0, 'x');
    default:
      return 'audit';
  }
}

/** Every mutating operation of the document, deletes last (they remove what others use). */
function mutatingOperations(doc: { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>> }): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['post', 'put', 'patch', 'delete'].includes(method)) continue;
      const [contentType, media] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
      ops.push({ method: method.toUpperCase(), path, key: `${method.toUpperCase()} ${path}`, body: media?.schema, contentType });
    }
  }
  // Creations first (their ids feed the rest), deletes and what ends a deployment or rollout last (promoting staging
  // archives production), the project and the second user last of all. A retraining job's decision comes with the
  // ends too: its run trains meanwhile, while the walk sends the rest, instead of the walk waiting for it.
  const rank = (o: Operation) =>
    /^\/api\/(projects\/\{project_id\}|admin\/users\/\{user_id\})$/.test(o.path) && o.method === 'DELETE'
      ? 4
      : o.method === 'DELETE'
        ? 3
        : /deactivate|rollback|abort|revoke|^\/api\/mlops\/retraining-jobs\//.test(o.path) || o.key === 'POST /api/mlops/deployments/{deployment_id}/promote'
          ? 2
          : o.method === 'POST' && !o.path.endsWith('}')
            ? 0
            : 1;
  // Among deletes, deeper paths first (a team's members and grants before the team), and a registered model after the
  // retraining policies that name it.
  const depth = (o: Operation) => (o.method !== 'DELETE' ? 0 : o.path === '/api/mlops/registry/{registered_model_id}' ? 1 : -o.path.split('/').length);
  return ops.sort((a, b) => rank(a) - rank(b) || depth(a) - depth(b));
}

/** Bodies the schema alone cannot make valid: the fixtures' values that the operation needs, over the generated body. */
const BODY: Record<string, (fx: Fixtures) => Record<string, unknown>> = {
  'POST /api/auth/login': (fx) => ({ email: fx.owner_email, password: fx.owner_password }),
  'POST /api/auth/delete-account': () => ({ password: 'audit walk password 2' }),
  'POST /api/projects/{project_id}/members': (fx) => ({ email: fx.member_email, role: 'editor' }),
  'POST /api/admin/teams/{team_id}/members': (fx) => ({ user_id: fx.user_id, role: 'member' }),
  'POST /api/teams/{team_id}/members': (fx) => ({ user_id: fx.team_user_id, role: 'member' }),
  'PUT /api/admin/teams/{team_id}': () => ({ name: 'Audit walk team renamed' }),
  // The dataset with an email column: its detection gives the findings a session overrides.
  'POST /api/privacy/sessions': (fx) => ({ policy_id: fx.policy_id, dataset_version_id: fx.pii_version_id }),
  'PUT /api/privacy/sessions/{session_id}/findings/{finding_id}': () => ({ excluded: true }),
  'POST /api/projects/{project_id}/teams': (fx) => ({ team_id: fx.team_id, role: 'editor' }),
  'POST /api/admin/sso-providers': () => ({
    slug: 'audit-walk',
    display_name: 'Audit walk',
    kind: 'oidc',
    issuer: 'https://idp.example.test',
    client_id: 'audit-walk',
    client_secret: SSO_SECRET,
  }),
  'PUT /api/admin/sso-providers/{provider_id}': () => ({ display_name: 'Audit walk renamed' }),
  'PUT /api/admin/plans/{id}': () => ({ display_name: 'Audit walk plan', limits: { max_projects: 40 } }),
  // null: back to the default plan, so that the plan can still be deleted afterwards.
  'PUT /api/admin/users/{user_id}/plan': () => ({ plan_id: null }),
  'PUT /api/admin/teams/{team_id}/plan': () => ({ plan_id: null }),
  // A century: the policy takes nothing even if a run were started.
  'PUT /api/admin/retention/{kind}': () => ({ keep_days: 36_500, action: 'delete' }),
  'POST /api/admin/retention/run': () => ({ dry_run: true }),
  'POST /api/auth/reset-password': (fx) => ({ token: fx.api_reset_token, password: 'audit walk password 3' }),
  'POST /api/auth/invite/accept': (fx) => ({ token: fx.invite_token }),
  'POST /api/mlops/alerts/suppressions': (fx) => ({ project_id: fx.project_id, matchers: { deployment_id: fx.deployment_id } }),
  'POST /api/reports': (fx) => ({ project_id: fx.project_id, kind: 'experiment', entity_id: fx.experiment_id }),
  'POST /api/mlops/registry/{registered_model_id}/versions': (fx) => ({ model_id: fx.model_id }),
  'PUT /api/mlops/registry/{registered_model_id}/aliases/{alias}': (fx) => ({ version_id: fx.registry_version_id }),
  'POST /api/mlops/versions/{version_id}/transition': () => ({ to_stage: 'staging' }),
  'PATCH /api/mlops/versions/{version_id}': () => ({ description: 'audit walk' }),
  'POST /api/experiments': (fx) => ({
    target_column: 'y',
    problem_type: 'binary',
    config: { max_models: 1, nfolds: 0, exclude_algos: ['GBM', 'XGBoost', 'DRF', 'DeepLearning', 'StackedEnsemble'] },
    dataset_version_id: fx.dataset_version_id,
  }),
  'POST /api/models/{model_id}/predict': () => ({ inputs: { x1: 0.1, x2: 1, color: 'red' } }),
  'POST /api/mlops/deployments/{deployment_id}/predict': () => ({ inputs: { x1: 0.1, x2: 1, color: 'red' } }),
  'POST /api/mlops/ab-tests/{test_id}/predict': () => ({ inputs: { x1: 0.1, x2: 1, color: 'red' } }),
  'POST /api/mlops/ab-tests/{test_id}/outcomes': (fx) => ({ outcomes: [{ request_id: fx.ab_request_id, value: 1 }] }),
  'PATCH /api/mlops/ab-tests/{test_id}': () => ({ description: 'audit walk' }),
  // Production back to the walk's model, as a new production deployment.
  'POST /api/mlops/deployments/{deployment_id}/rollback': (fx) => ({ to_model_id: fx.model_id, reason: 'audit walk' }),
  // Rollouts of the model production does not serve (`BEFORE` picks it), one step held an hour: each moves on signals only.
  'POST /api/mlops/deployments/{deployment_id}/canary': (fx) => ({ model_id: fx.candidate_model_id, steps: [{ traffic_percent: 10, pause_secs: 3600 }] }),
  'POST /api/mlops/deployments/{deployment_id}/blue-green': (fx) => ({ model_id: fx.candidate_model_id, keep_previous_secs: 600 }),
  'POST /api/mlops/deployments/{deployment_id}/shadow': (fx) => ({ model_id: fx.candidate_model_id }),
  'PUT /api/mlops/deployments/{deployment_id}/traffic': () => ({ traffic_percent: 30 }),
  // A registered model of its own (its champion set by the fixtures), whose approved challenger may go to production
  // while the walk's registered model stays deletable; the smallest experiment, and a gate any challenger passes.
  'POST /api/mlops/retraining-policies': (fx) => ({ registered_model_id: fx.retrain_registered_model_id, experiment: TINY_EXPERIMENT, gate: { min_improvement: -1 } }),
  // The quickest synthesizer, so that generate finds it trained.
  'POST /api/synthgen/models': () => ({ model_type: 'gaussian_copula' }),
  'POST /api/synthgen/models/{model_id}/generate': () => ({ num_rows: 10 }),
  // A paid plan: the change goes through the provider's checkout (stripe-mock), which makes the billing account the
  // portal session needs.
  'POST /api/billing/plan': () => ({ plan: 'pro' }),
  'POST /api/billing/checkout-session': () => ({ plan: 'pro' }),
  // The builder on a dataset of its own (its finalize and replay add versions, which the walk's retraining would train
  // on); chat revises a later step than the one executed, so that one stays executed for finalize.
  'POST /api/builder/sessions': (fx) => ({ project_id: fx.project_id, dataset_id: fx.builder_dataset_id }),
  'POST /api/builder/sessions/{session_id}/chat': () => ({ step: 'clean', message: 'Audit walk: remove repeated rows' }),
  'PATCH /api/builder/sessions/{session_id}/steps/{step}': () => ({ operations: [{ op: 'deduplicate' }] }),
  'POST /api/builder/sessions/{session_id}/replay': (fx) => ({ dataset_version_id: fx.builder_version_id }),
  'POST /api/mlops/ab-tests': (fx) => ({
    project_id: fx.project_id,
    name: 'walk',
    variants: [
      { name: 'a', deployment_id: fx.deployment_id, weight: 1 },
      { name: 'b', deployment_id: fx.staging_id, weight: 1 },
    ],
    primary_metric: 'conversion',
  }),
};

/** A retraining's experiment: one GLM on a validation split. */
const TINY_EXPERIMENT = { max_models: 1, nfolds: 0, seed: 1, exclude_algos: ['GBM', 'XGBoost', 'DRF', 'DeepLearning', 'StackedEnsemble'] };

/** Bodies sent as `BODY` makes them, without the generated fields (a strict schema with alternatives). */
const EXACT_BODY = new Set([
  'POST /api/mlops/deployments/{deployment_id}/canary',
  'POST /api/admin/sso-providers',
  'PUT /api/admin/sso-providers/{provider_id}',
  'PUT /api/admin/retention/{kind}',
  'POST /api/admin/teams/{team_id}/members',
  'POST /api/teams/{team_id}/members',
]);
const SSO_SECRET = 'audit walk sso client secret';

/** Operations that end the caller's session or account: sent by a user of their own, made for each. */
const ENDS_SESSION = /\/api\/auth\/(logout|logout-all|delete-account|change-password)$/;

/**
 * Where a created resource's id goes: the fixture the paths that take it read (`…/channels` → `channel_id`). Paths
 * whose parameter name is shared by several resources (`policy_id`, `session_id`, `version_id`…) get a fixture name
 * of their own here and in `PATH_FIXTURE`.
 */
const CREATED_AS: Record<string, string> = {
  '/api/mlops/projects/{project_id}/alert-rules': 'rule_id',
  '/api/mlops/alerts/suppressions': 'suppression_id',
  '/api/mlops/ab-tests': 'test_id',
  '/api/mlops/projects/{project_id}/registry': 'registered_model_id',
  '/api/mlops/registry/{registered_model_id}/versions': 'registry_version_id',
  '/api/mlops/retraining-policies': 'retraining_policy_id',
  '/api/privacy/policies': 'policy_id',
  '/api/privacy/sessions': 'privacy_session_id',
  '/api/admin/plans': 'plan_id',
  '/api/admin/sso-providers': 'provider_id',
  '/api/auth/api-keys': 'key_id',
  '/api/synthgen/models': 'synthgen_model_id',
  '/api/privacy/policies/{policy_id}/rules': 'privacy_rule_id',
  '/api/auth/invite': 'invitation_id',
  '/api/experiments': 'walk_experiment_id',
  '/api/mlops/versions/{version_id}/transition': 'request_id',
  '/api/mlops/retraining-policies/{policy_id}/run': 'retraining_job_id',
  '/api/builder/sessions': 'builder_session_id',
};
function createdAs(path: string): string {
  if (CREATED_AS[path]) return CREATED_AS[path];
  const last =
    path
      .split('/')
      .filter((x) => x && !x.startsWith('{'))
      .pop() ?? 'x';
  return `${last.replace(/-/g, '_').replace(/s$/, '')}_id`;
}

/** Path parameters that name different resources on different paths: the fixture each path reads instead. */
const PATH_FIXTURE: [RegExp, string, string][] = [
  [/^\/api\/mlops\/retraining-policies\//, 'policy_id', 'retraining_policy_id'],
  [/^\/api\/privacy\/sessions\//, 'session_id', 'privacy_session_id'],
  [/^\/api\/auth\/sessions\//, 'session_id', 'auth_session_id'],
  [/^\/api\/builder\/sessions\//, 'session_id', 'builder_session_id'],
  [/^\/api\/mlops\/versions\//, 'version_id', 'registry_version_id'],
  [/^\/api\/admin\/plans\//, 'id', 'plan_id'],
  [/^\/api\/admin\/retention\/\{kind\}/, 'kind', 'retention_kind'],
  [/^\/api\/admin\/retention\/runs\//, 'job_id', 'retention_job_id'],
  [/^\/api\/admin\/api-keys\//, 'key_id', 'admin_key_id'],
  [/^\/api\/synthgen\/models\//, 'model_id', 'synthgen_model_id'],
  [/^\/api\/privacy\/policies\//, 'rule_id', 'privacy_rule_id'],
  [/^\/api\/mlops\/registry\//, 'alias', 'registry_alias'],
  [/^\/api\/invitations\/\{invitation_id\}\/accept$/, 'invitation_id', 'accept_invitation_id'],
  [/^\/api\/invitations\/\{invitation_id\}\/decline$/, 'invitation_id', 'decline_invitation_id'],
  [/^\/api\/teams\//, 'user_id', 'team_user_id'],
  [/\/reject$/, 'request_id', 'reject_request_id'],
];
/** One operation's own fixtures for its path parameters (a spare dataset to delete where the walk's is in use, A/B tests in the state the operation needs). */
const OP_FIXTURE: Record<string, Record<string, string>> = {
  'DELETE /api/datasets/{dataset_id}/versions/{version}': { dataset_id: 'spare_dataset_id', version: 'spare_version' },
  'DELETE /api/datasets/{dataset_id}': { dataset_id: 'spare_dataset_id' },
  // A version of two rows on the walk's dataset would be what a retraining of its model trains on.
  'POST /api/datasets/{dataset_id}/versions': { dataset_id: 'spare_dataset_id' },
  // The walk's own experiment: the fixtures' model serves deployments until the model delete ends them.
  'DELETE /api/experiments/{experiment_id}': { experiment_id: 'walk_experiment_id' },
  'PATCH /api/mlops/ab-tests/{test_id}': { test_id: 'draft_test_id' },
  'POST /api/mlops/ab-tests/{test_id}/predict': { test_id: 'running_test_id' },
  'POST /api/mlops/ab-tests/{test_id}/outcomes': { test_id: 'running_test_id' },
  'POST /api/mlops/deployments/{deployment_id}/promote': { deployment_id: 'staging_id' },
  'POST /api/mlops/ab-tests/{test_id}/promote': { test_id: 'decided_test_id' },
  'POST /api/mlops/retraining-jobs/{retraining_job_id}/reject': { retraining_job_id: 'reject_retraining_job_id' },
  // A second builder session: an uploaded step output makes a recipe unable to replay, and the edit comes after the
  // first session is finalized (which ends its changes).
  'POST /api/builder/sessions/{session_id}/steps/{step}/upload-result': { session_id: 'builder_upload_session_id' },
  'PATCH /api/builder/sessions/{session_id}/steps/{step}': { session_id: 'builder_upload_session_id' },
};
function pathWithFixtures(op: Operation, fx: Fixtures): string {
  return op.path.replace(/\{(\w+)\}/g, (_, p: string) => {
    const scoped = OP_FIXTURE[op.key]?.[p] ?? PATH_FIXTURE.find(([re, param]) => param === p && re.test(op.path))?.[2];
    return String((scoped ? fx[scoped] : fx[p]) ?? randomUUID());
  });
}

/** The builder's dataset: a dozen rows, one of them repeated (what the scripted assistant's deduplication removes). */
const BUILDER_CSV = ['id,amount,city', ...Array.from({ length: 11 }, (_, i) => `${i},${5 + i},${['north', 'south'][i % 2]}`), '3,8,south'].join('\n') + '\n';

/** Eight people with email addresses (and a number that is no personal data). */
const PEOPLE_CSV = ['email,amount', ...Array.from({ length: 8 }, (_, i) => `person${i}@example.com,${10 + i}`)].join('\n') + '\n';

/**
 * Fixtures the walk's own creations cannot give: a team with a second user to add to it, a spare dataset of two
 * versions to delete, an open retention run and an open project job to cancel (rows of jobs whose workflow never started, as after a failed start: canceling one closes
 * it), a second session of the owner to revoke, a second API key for the admin revoke, a dataset with email addresses for
 * the privacy session, and a registered model of the walk's model with its champion for the retraining policies.
 */
async function makeStandaloneFixtures(owner: Awaited<ReturnType<typeof signUp>>, projectId: string, fx: Fixtures, secrets: Set<string>): Promise<void> {
  const team = await owner.client.post('/api/admin/teams', { name: 'Audit walk team' });
  expect(team.status).toBe(201);
  fx.team_id = team.body.id;
  fx.team_user_id = (await signUp(stack.baseUrl, stack.mail)).user.id;
  fx.retention_kind = 'reports';
  fx.registry_alias = 'champion';
  // A builder session's first step (engine/builder/operations.ts STEP_NAMES).
  fx.step = 'understand';
  // A dataset of two versions that nothing uses, for the deletes (the walk's own is used by its experiments).
  const spare = await owner.client.upload('/api/datasets/upload', { project_id: projectId, name: 'audit walk spare', description: 'spare' }, { name: 'spare.csv', data: 'a,b\n1,2\n3,4\n' });
  expect(spare.status).toBe(201);
  fx.spare_dataset_id = spare.body.dataset_id;
  const second = await owner.client.upload(`/api/datasets/${fx.spare_dataset_id}/versions`, { description: 'second' }, { name: 'spare.csv', data: 'a,b\n5,6\n7,8\n' });
  expect(second.status).toBe(201);
  fx.spare_version = second.body.version;
  // A dataset with personal data (an email column), for the privacy session's findings.
  const people = await owner.client.upload('/api/datasets/upload', { project_id: projectId, name: 'audit walk people' }, { name: 'people.csv', data: PEOPLE_CSV });
  expect(people.status).toBe(201);
  fx.pii_version_id = people.body.dataset_version_id;
  const builder = await owner.client.upload('/api/datasets/upload', { project_id: projectId, name: 'audit walk builder' }, { name: 'builder.csv', data: BUILDER_CSV });
  expect(builder.status).toBe(201);
  fx.builder_dataset_id = builder.body.dataset_id;
  fx.builder_version_id = builder.body.dataset_version_id;
  // The retraining policies' registered model, its champion the walk's model.
  const registered = await owner.client.post(`/api/mlops/projects/${projectId}/registry`, { name: 'audit-walk-retraining' });
  expect(registered.status).toBe(201);
  fx.retrain_registered_model_id = registered.body.id;
  const champion = await owner.client.post(`/api/mlops/registry/${registered.body.id}/versions`, { model_id: fx.model_id });
  expect(champion.status).toBe(201);
  expect((await owner.client.put(`/api/mlops/registry/${registered.body.id}/aliases/champion`, { version_id: champion.body.id })).status).toBeLessThan(300);
  for (const [fixture, project, kind, queue] of [
    ['retention_job_id', null, 'retention', stack.config.taskQueues.io],
    ['job_id', projectId, 'report_generate', stack.config.taskQueues.io],
  ] as const) {
    const id = randomUUID();
    await stack.ds.query(`INSERT INTO jobs (id, project_id, kind, status, input, workflow_id, task_queue, created_by) VALUES ($1, $2, $3, 'queued', '{}', $4, $5, $6)`, [
      id,
      project,
      kind,
      `job-${id}`,
      queue,
      owner.user.id,
    ]);
    fx[fixture] = id;
  }
  const elsewhere = new ApiClient(stack.baseUrl);
  expect((await elsewhere.post('/api/auth/login', { email: owner.email, password: owner.password })).status).toBe(200);
  const sessions = (await owner.client.get('/api/auth/sessions')).body.items as { id: string; current: boolean }[];
  fx.auth_session_id = sessions.find((x) => !x.current)!.id;
  const key = await owner.client.post('/api/auth/api-keys', { name: 'audit walk admin revoke', scopes: ['read'] });
  expect(key.status).toBe(201);
  fx.admin_key_id = key.body.id;
  secrets.add(key.body.api_key.split('.').pop());
}

/** Billing on, against stripe-mock (as test/billing.test.ts runs it): the billing routes answer instead of 404. */
// stripe-mock takes only a key that looks like one: `sk_test_` and letters or digits.
const STRIPE_SECRET_KEY = 'sk_test_AuditWalk4242';
const STRIPE_WEBHOOK_SECRET = 'whsec_audit_walk_secret';
/** The builder's assistant (propose, chat): a scripted OpenAI-compatible server, as test/builder-llm.test.ts runs it. */
const LLM_API_KEY = 'sk-audit-walk-llm-key';

let stack: TestStack;
let stripe: StripeMockServer;
let llm: ScriptedLlm;
beforeAll(async () => {
  stripe = await startStripeMock();
  llm = await startScriptedLlm(walkAssistant);
  stack = await startStack({
    workers: ['io', 'cpu'],
    env: {
      BILLING_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY,
      STRIPE_WEBHOOK_SECRET,
      STRIPE_API_BASE: stripe.url,
      STRIPE_PRICE_IDS: 'pro=price_pro',
      BILLING_FREE_PLAN: 'free',
      RATE_LIMIT_PREDICT: '100000',
      LLM_API_URL: `${llm.url}/v1`,
      LLM_MODEL: 'audit-walk-model',
      LLM_API_KEY,
    },
  });
  await stack.ds.query(`INSERT INTO plans (id, name, display_name, limits) VALUES (gen_random_uuid(), 'free', 'Free', '{}'), (gen_random_uuid(), 'pro', 'Pro', '{}')`);
});
afterAll(async () => {
  await stack?.stop();
  await stripe?.stop();
  await llm?.close();
});

it('every mutating operation answered 2xx has an audit entry with its request id, and no entry holds a secret', async () => {
  const owner = await signUp(stack.baseUrl, stack.mail, { password: 'audit walk password 1' });
  await makeSuperuser(stack.ds, owner.user.id);
  const secrets = new Set<string>([owner.password, 'audit walk password 2', 'audit walk password 3', 'audit walk password 4', SSO_SECRET, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, LLM_API_KEY]);
  const projectId = await createProject(owner.client, 'Audit walk');
  expect(projectId).toEqual(expect.any(String));
  // Two models: the rollouts' candidate is the one production does not serve.
  const { datasetId, versionId, models } = await trainQuickModels(owner.client, projectId, ['GLM', 'GBM'], 120);
  const deployment = await owner.client.post(`/api/mlops/projects/${projectId}/deployments`, { model_id: models.GLM, name: 'walk', stage: 'production' });
  expect(deployment.status).toBe(201);
  const staging = await owner.client.post(`/api/mlops/projects/${projectId}/deployments`, { model_id: models.GLM, name: 'walk staging', stage: 'staging' });
  expect(staging.status).toBe(201);
  const member = await signUp(stack.baseUrl, stack.mail);
  const experimentId = (await owner.client.get(`/api/models/${models.GLM}`)).body.model.experiment_id as string;
  expect(experimentId).toEqual(expect.any(String));
  const fx: Fixtures = {
    owner_email: owner.email,
    owner_password: owner.password,
    member_email: member.email,
    user_id: member.user.id,
    staging_id: staging.body.id,
    experiment_id: experimentId,
    project_id: projectId,
    dataset_id: datasetId,
    dataset_version_id: versionId,
    version_id: versionId,
    model_id: models.GLM,
    // The project's production deployment: a rollout's promotion moves it (and says where).
    deployment_id: deployment.body.id,
    version: 0,
  };

  await makeStandaloneFixtures(owner, projectId, fx, secrets);
  const invitees = [await signUp(stack.baseUrl, stack.mail), await signUp(stack.baseUrl, stack.mail), await signUp(stack.baseUrl, stack.mail)];
  for (const [invitee, fixture] of [
    [invitees[0], 'accept_invitation_id'],
    [invitees[1], 'decline_invitation_id'],
  ] as const) {
    const invited = await owner.client.post('/api/auth/invite', { project_id: projectId, email: invitee.email, role: 'viewer' });
    expect(invited.status).toBe(201);
    fx[fixture] = invited.body.id;
  }
  // A/B tests in the state the operations need, on staging deployments of their own (the walk ends its own test and
  // deployments, and a project has one production deployment): a draft to change, a running one to predict through.
  const abVariants: { name: string; deployment_id: string; weight: number }[] = [];
  for (const [name, stage] of [
    ['walk ab a', 'staging'],
    ['walk ab b', 'staging'],
  ]) {
    const made = await owner.client.post(`/api/mlops/projects/${projectId}/deployments`, { model_id: models.GLM, name, stage });
    expect(made.status).toBe(201);
    abVariants.push({ name: name.slice(-1), deployment_id: made.body.id, weight: 1 });
  }
  for (const fixture of ['draft_test_id', 'running_test_id']) {
    const made = await owner.client.post('/api/mlops/ab-tests', { project_id: projectId, name: fixture, variants: abVariants, primary_metric: 'conversion' });
    if (made.status !== 201) throw new Error(`A/B test not made: ${made.status} ${JSON.stringify(made.body)}`);
    fx[fixture] = made.body.id;
  }
  expect((await owner.client.post(`/api/mlops/ab-tests/${fx.running_test_id}/start`)).status).toBe(200);

  /** Operations sent by someone other than the owner: the invitee answers their own invitation. */
  const SENDER: Record<string, ApiClient> = {
    'POST /api/invitations/{invitation_id}/accept': invitees[0].client,
    'POST /api/invitations/{invitation_id}/decline': invitees[1].client,
    'POST /api/auth/invite/accept': invitees[2].client,
    // The payment provider, which holds no session: its signature is its credential.
    'POST /api/billing/webhooks/stripe': new ApiClient(stack.baseUrl),
  };

  /** The model production does not serve now: the next rollout's candidate (production is the walk's deployment). */
  async function pickCandidate(): Promise<void> {
    const production = await productionOf(owner.client, projectId);
    expect(production.id).toBe(fx.deployment_id);
    fx.candidate_model_id = [models.GLM, models.GBM].find((m) => m !== production.model_id)!;
  }
  /** A serving canary on production now, for a signal the walk sends (after the walk ended and replaced deployments). */
  async function canaryForSignal(): Promise<void> {
    const production = await productionOf(owner.client, projectId);
    fx.rollout_id = (
      await servingCanary(
        owner.client,
        production.id,
        [models.GLM, models.GBM].find((m) => m !== production.model_id)!,
      )
    ).id;
  }
  const PREDICT_ROW = { x1: 0.1, x2: 1, color: 'red' };
  let webhook: { body: string; signature: string } | undefined;

  /** State an operation needs right before it is sent, made by the operations the walk sent before it. */
  const BEFORE: Record<string, () => Promise<void>> = {
    // The approval took the walk's transition request: the rejection gets one of its own.
    'POST /api/mlops/versions/{version_id}/transitions/{request_id}/reject': async () => {
      const requested = await owner.client.post(`/api/mlops/versions/${fx.registry_version_id}/transition`, { to_stage: 'archived' });
      expect(requested.status).toBe(201);
      fx.reject_request_id = requested.body.id;
    },
    // Single-use tokens, read from the mailbox as their recipient would.
    'POST /api/auth/reset-password': async () => {
      fx.api_reset_token = await mailedResetToken();
    },
    'POST /auth/reset-password': async () => {
      fx.form_reset_token = await mailedResetToken();
    },
    'POST /api/auth/invite/accept': async () => {
      const invited = await owner.client.post('/api/auth/invite', { project_id: projectId, email: invitees[2].email, role: 'viewer' });
      expect(invited.status).toBe(201);
      const link = new URL(linkIn(await stack.mail.waitFor(invitees[2].email, /invited you to the project "Audit walk"/, 15_000), '/app/invitations/accept?token='));
      fx.invite_token = link.searchParams.get('token')!;
      secrets.add(String(fx.invite_token));
    },
    // The detection the walk started must end before the transform.
    'POST /api/privacy/sessions/{session_id}/transform': async () => {
      await eventually(async () => (await owner.client.get(`/api/privacy/sessions/${fx.privacy_session_id}`)).body.session?.status !== 'detecting', 60_000, 250);
    },
    'POST /api/anonymize/stream': async () => {
      const policy = await owner.client.post('/api/privacy/policies', { project_id: projectId, name: 'Audit walk stream' });
      expect(policy.status).toBe(201);
      fx.stream_policy_id = policy.body.id;
    },
    // The model serves other deployments of the project too (the walk deactivated one): end them all first.
    'DELETE /api/models/{model_id}': async () => {
      const deployments = (await owner.client.get(`/api/mlops/projects/${projectId}/deployments`)).body.items as { id: string }[];
      for (const d of deployments) await owner.client.post(`/api/mlops/deployments/${d.id}/deactivate`);
    },
    'POST /api/mlops/ab-tests/{test_id}/outcomes': async () => {
      const predicted = await owner.client.post(`/api/mlops/ab-tests/${fx.running_test_id}/predict`, { inputs: PREDICT_ROW });
      expect(predicted.status).toBe(200);
      fx.ab_request_id = predicted.body.request_id ?? predicted.headers.get('x-request-id');
    },
    // Inputs logged with their payload, for drift to compare with the training data.
    'POST /api/mlops/deployments/{deployment_id}/drift/run': async () => {
      const inputs = syntheticRows(5, 3).map(({ y: _y, ...x }) => x);
      expect((await owner.client.post(`/api/mlops/deployments/${fx.deployment_id}/predict`, { inputs, options: { store_payload: true } })).status).toBe(200);
    },
    'POST /api/mlops/alerts/{alert_id}/acknowledge': async () => {
      fx.alert_id = await firingAlert(stack, owner.client, projectId, String(fx.deployment_id));
    },
    // Its control is production, so the promotion leaves production where the rollouts expect it.
    'POST /api/mlops/ab-tests/{test_id}/promote': async () => {
      fx.decided_test_id = await decidedAbTest(owner.client, projectId, String(fx.deployment_id), abVariants[0].deployment_id, PREDICT_ROW);
    },
    // The strategies one after another, each ended (`AFTER`) before the next starts.
    'POST /api/mlops/deployments/{deployment_id}/canary': pickCandidate,
    'POST /api/mlops/deployments/{deployment_id}/blue-green': pickCandidate,
    'POST /api/mlops/deployments/{deployment_id}/shadow': pickCandidate,
    // Pause, resume and promote: one canary, each signal sent once the one before took effect.
    'POST /api/mlops/strategies/{rollout_id}/pause': async () => {
      await pickCandidate();
      fx.rollout_id = (await servingCanary(owner.client, String(fx.deployment_id), String(fx.candidate_model_id))).id;
    },
    // A share set by hand: while a canary runs its steps own it, so one is started and paused first.
    'PUT /api/mlops/deployments/{deployment_id}/traffic': async () => {
      await pickCandidate();
      fx.traffic_rollout_id = (await servingCanary(owner.client, String(fx.deployment_id), String(fx.candidate_model_id))).id;
      await signalled(owner.client, String(fx.traffic_rollout_id), 'pause', 'paused');
    },
    'POST /api/mlops/strategies/{rollout_id}/abort': canaryForSignal,
    'POST /api/mlops/strategies/{rollout_id}/rollback': canaryForSignal,
    'POST /api/mlops/retraining-jobs/{retraining_job_id}/approve': () => awaitingApproval(owner.client, String(fx.retraining_job_id)),
    'POST /api/mlops/retraining-jobs/{retraining_job_id}/reject': () => awaitingApproval(owner.client, String(fx.reject_retraining_job_id)),
    // The walk's detection (of the dataset with emails) ended before its transform.
    'PUT /api/privacy/sessions/{session_id}/findings/{finding_id}': async () => {
      const results = (await owner.client.get(`/api/privacy/sessions/${fx.privacy_session_id}/results`)).body.results as { id: string; pii_type: string }[];
      fx.finding_id = results.find((f) => f.pii_type === 'email')!.id;
    },
    'POST /api/synthgen/models/{model_id}/generate': async () => {
      const model = await eventually(
        async () => {
          const m = (await owner.client.get(`/api/synthgen/models/${fx.synthgen_model_id}`)).body.model;
          return m.status === 'pending' ? undefined : m;
        },
        120_000,
        300,
      );
      expect({ status: model.status, error: model.error }).toEqual({ status: 'ready', error: null });
    },
    // The second builder session (see `OP_FIXTURE`), on the same dataset.
    'POST /api/builder/sessions/{session_id}/steps/{step}/upload-result': async () => {
      const made = await owner.client.post('/api/builder/sessions', { project_id: projectId, dataset_id: fx.builder_dataset_id, name: 'audit walk upload' });
      expect(made.status).toBe(201);
      fx.builder_upload_session_id = made.body.session.id;
    },
    // A checkout completed for the owner's billing account (made by the walk's checkout), signed as Stripe signs.
    'POST /api/billing/webhooks/stripe': async () => {
      const [account]: { customer_id: string }[] = await stack.ds.query('SELECT customer_id FROM billing_accounts WHERE user_id = $1', [owner.user.id]);
      webhook = signedCheckoutCompleted(owner.user.id, 'pro', account?.customer_id ?? 'cus_auditwalk', STRIPE_WEBHOOK_SECRET);
    },
  };

  /** What an operation's answer leaves to settle before the next is sent (2xx answers only). */
  const AFTER: Record<string, (res: Res) => Promise<unknown>> = {
    // Each strategy ends before the next starts: the canary aborted, the blue-green rolled back once it switched
    // (production is the walk's deployment again), the shadow aborted.
    'POST /api/mlops/deployments/{deployment_id}/canary': async (res) => {
      await rolloutWhen(owner.client, res.body.id, canaryServing);
      await signalled(owner.client, res.body.id, 'abort', 'aborted');
    },
    'POST /api/mlops/deployments/{deployment_id}/blue-green': async (res) => {
      await rolloutWhen(owner.client, res.body.id, (r) => r.history.some((h) => h.event === 'switched'));
      await signalled(owner.client, res.body.id, 'rollback', 'rolled_back');
    },
    'POST /api/mlops/deployments/{deployment_id}/shadow': async (res) => {
      await rolloutWhen(owner.client, res.body.id, (r) => !!r.candidate_deployment_id);
      await signalled(owner.client, res.body.id, 'abort', 'aborted');
    },
    'POST /api/mlops/strategies/{rollout_id}/pause': () => rolloutIn(owner.client, String(fx.rollout_id), 'paused'),
    'POST /api/mlops/strategies/{rollout_id}/resume': () => rolloutWhen(owner.client, String(fx.rollout_id), canaryServing),
    // The candidate is production now.
    'POST /api/mlops/strategies/{rollout_id}/promote': async () => {
      fx.deployment_id = (await rolloutIn(owner.client, String(fx.rollout_id), 'promoted')).candidate_deployment_id!;
    },
    // A builder job holds its session until it ends: the step is executed before the finalize, the session finalized
    // before its replay, and the replay done before the session's delete.
    'POST /api/builder/sessions/{session_id}/steps/{step}/execute': (res) => succeededJob(owner.client, res.body.job_id),
    'POST /api/builder/sessions/{session_id}/finalize': (res) => succeededJob(owner.client, res.body.job_id),
    'POST /api/builder/sessions/{session_id}/replay': (res) => succeededJob(owner.client, res.body.job_id),
    'PUT /api/mlops/deployments/{deployment_id}/traffic': () => signalled(owner.client, String(fx.traffic_rollout_id), 'abort', 'aborted'),
    'POST /api/mlops/strategies/{rollout_id}/abort': () => rolloutIn(owner.client, String(fx.rollout_id), 'aborted'),
    'POST /api/mlops/strategies/{rollout_id}/rollback': () => rolloutIn(owner.client, String(fx.rollout_id), 'rolled_back'),
    // A second policy's run, training beside the first: one job to approve, the other to reject.
    'POST /api/mlops/retraining-policies/{policy_id}/run': async () => {
      const policy = await owner.client.post('/api/mlops/retraining-policies', {
        project_id: projectId,
        registered_model_id: fx.retrain_registered_model_id,
        name: 'audit walk second',
        experiment: TINY_EXPERIMENT,
        gate: { min_improvement: -1 },
      });
      expect(policy.status).toBe(201);
      const run = await owner.client.post(`/api/mlops/retraining-policies/${policy.body.id}/run`, {});
      expect(run.status).toBe(201);
      fx.reject_retraining_job_id = run.body.id;
    },
  };
  async function mailedResetToken(): Promise<string> {
    const { email } = await signUp(stack.baseUrl, stack.mail);
    expect((await new ApiClient(stack.baseUrl).post('/api/auth/forgot-password', { email })).status).toBe(200);
    const token = new URL(linkIn(await stack.mail.waitFor(email, /reset-password\?token=/, 15_000), 'reset-password?token=')).searchParams.get('token')!;
    secrets.add(token);
    return token;
  }

  /** Bodies of operations that take no JSON: a form and a CSV stream. */
  const RAW_BODY: Record<string, () => string> = {
    'POST /auth/reset-password': () => new URLSearchParams({ token: String(fx.form_reset_token), password: 'audit walk password 4' }).toString(),
    'POST /api/anonymize/stream': () => 'email,name\nann@example.com,Ann\n',
    'POST /api/billing/webhooks/stripe': () => webhook!.body,
  };
  /** Headers of those bodies beyond their content type. */
  const RAW_HEADERS: Record<string, () => Record<string, string>> = { 'POST /api/billing/webhooks/stripe': () => ({ 'stripe-signature': webhook!.signature }) };
  const QUERY: Record<string, () => string> = { 'POST /api/anonymize/stream': () => `?policy_id=${fx.stream_policy_id}` };

  const docRes = await owner.client.get('/api/openapi.json');
  const doc = docRes.body;
  const results: { key: string; status: number; requestId: string | null; body: unknown }[] = [];
  for (const op of mutatingOperations(doc)) {
    const client = ENDS_SESSION.test(op.path) ? (await signUp(stack.baseUrl, stack.mail, { password: 'audit walk password 2' })).client : (SENDER[op.key] ?? owner.client);
    await BEFORE[op.key]?.();
    const path = pathWithFixtures(op, fx) + (QUERY[op.key]?.() ?? '');
    let res: Res;
    if (op.contentType === 'multipart/form-data') {
      // A batch to score carries the model's columns; any other upload is a small new dataset (or version).
      const data = op.key === 'POST /api/models/{model_id}/predict/batch' ? 'x1,x2,color\n0.1,1,red\n0.5,3,blue\n' : 'a,b\n1,2\n3,4\n';
      res = await client.upload(path, { project_id: projectId, name: 'walk upload', description: 'walk' }, { name: 'walk.csv', data });
    } else if (RAW_BODY[op.key] || (op.contentType && op.contentType !== 'application/json')) {
      const headers = { 'content-type': op.contentType ?? 'application/json', ...RAW_HEADERS[op.key]?.() };
      res = await client.request(op.method, path, undefined, { headers, rawBody: RAW_BODY[op.key]?.() ?? '' });
    } else {
      const generated = op.body ? sample(op.body, 'body', fx, doc) : undefined;
      const body = BODY[op.key] ? { ...(EXACT_BODY.has(op.key) ? {} : (generated as object)), ...BODY[op.key](fx) } : generated;
      if (op.path.endsWith('/change-password')) Object.assign(body as object, { current_password: 'audit walk password 2' });
      res = await client.request(op.method, path, body);
    }
    // Most creations answer `{id, …}`; a plan answers `{plan: {id, …}}`, a builder session `{session: {id, …}}`.
    const answered = res.body as { id?: unknown; plan?: { id?: unknown }; session?: { id?: unknown } } | undefined;
    const created = answered?.id ?? answered?.plan?.id ?? answered?.session?.id;
    if (op.method === 'POST' && res.status === 201 && typeof created === 'string' && !op.path.endsWith('}')) fx[createdAs(op.path)] ??= created;
    results.push({ key: op.key, status: res.status, requestId: res.headers.get('x-request-id'), body: res.body });
    if (res.status >= 200 && res.status < 300) await AFTER[op.key]?.(res);
    for (const s of JSON.stringify(res.body ?? '').match(/"(api_key|secret|token)":"([^"]+)"/g) ?? []) secrets.add(s.split('":"')[1].replace(/"$/, '').split('.').pop()!);
  }

  const missing: string[] = [];
  const undriven: string[] = [];
  for (const r of results) {
    const template = r.key.replace(/\{(\w+)\}/g, ':$1');
    if (r.status >= 200 && r.status < 300) {
      const entries: { action: string }[] = await stack.ds.query('SELECT action FROM audit_log WHERE request_id = $1', [r.requestId]);
      if (UNAUDITED_ROUTES.has(template)) expect([r.key, entries]).toEqual([r.key, []]);
      else if (!entries.length) missing.push(r.key);
    } else if (!(r.key in NOT_DRIVEN)) {
      undriven.push(`${r.key} → ${r.status} ${JSON.stringify(r.body).slice(0, 160)}`);
    }
  }
  for (const c of [...owner.client.cookies.values()]) secrets.add(c);
  // The payment provider's customer ids: its users see them masked only.
  for (const { customer_id } of await stack.ds.query('SELECT customer_id FROM billing_accounts')) secrets.add(customer_id);
  const log = JSON.stringify(await stack.ds.query('SELECT * FROM audit_log'));
  for (const s of secrets) if (s.length >= 8) expect(log.includes(s) ? s : null).toBeNull();
  // Listed operations must still be in the document, so the list does not outlive its routes (one that reaches 2xx
  // after all is checked like any other).
  expect(Object.keys(NOT_DRIVEN).filter((key) => !results.some((x) => x.key === key))).toEqual([]);
  expect(missing).toEqual([]);
  expect(undriven).toEqual([]);
  expect(results.filter((r) => r.status >= 200 && r.status < 300).length).toBeGreaterThan(0);
});
