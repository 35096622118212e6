import { randomUUID } from 'node:crypto';
import { UNAUDITED_ROUTES } from '../api/middleware/audit';
import { createProject, signUp, uniqueEmail, type Res } from './support/client';
import { makeSuperuser } from './support/superuser';
import { startStack, TestStack } from './support/stack';
import { trainQuickModels } from './support/trained-models';

/**
 * The audit log covers every mutating operation of the OpenAPI document (issue 34): the test walks
 * `GET /api/openapi.json`, sends each POST, PUT, PATCH and DELETE with path ids from fixtures it made and a body built
 * from the operation's request schema, and checks that every answer 2xx has an audit entry with the request's
 * X-Request-Id, and that no entry holds a secret the test saw. An operation it cannot drive to 2xx must be in
 * `NOT_DRIVEN` with the reason, so a new route is either covered or listed.
 */

/** Operations this walk does not get to 2xx, and why (a state the fixtures do not reach, or an answer that is a redirect). */
const NOT_DRIVEN: Record<string, string> = Object.fromEntries(
  (
    [
      [
        'needs a mailed single-use token (reset link, invitation link) the walk does not read from the mailbox',
        ['POST /api/auth/reset-password', 'POST /api/auth/invite/accept', 'POST /auth/reset-password'],
      ],
      [
        'admin part (issue 34) in progress: needs an SSO provider, plan, retention policy or team fixture with a valid body',
        [
          'POST /api/admin/sso-providers',
          'POST /api/projects/{project_id}/teams',
          'POST /api/teams/{team_id}/members',
          'POST /api/admin/teams/{team_id}/members',
          'POST /api/admin/retention/run',
          'POST /api/admin/retention/runs/{job_id}/cancel',
          'PUT /api/admin/sso-providers/{provider_id}',
          'PUT /api/admin/retention/{kind}',
          'PUT /api/admin/plans/{id}',
          'PUT /api/admin/users/{user_id}/plan',
          'PUT /api/admin/teams/{team_id}/plan',
          'DELETE /api/admin/sso-providers/{provider_id}',
          'DELETE /api/projects/{project_id}/teams/{team_id}',
          'DELETE /api/teams/{team_id}/members/{user_id}',
          'DELETE /api/admin/teams/{team_id}/members/{user_id}',
          'DELETE /api/admin/retention/{kind}',
          'DELETE /api/admin/plans/{id}',
        ],
      ],
      [
        'needs a received invitation (the walk invites an address without an account) ',
        ['POST /api/invitations/{invitation_id}/accept', 'POST /api/invitations/{invitation_id}/decline', 'DELETE /api/projects/{project_id}/invitations/{invitation_id}'],
      ],
      [
        'needs state the walk leaves behind: a winner, a running test, logged inputs, a staging deployment, outcomes of real request ids',
        [
          'POST /api/experiments/{experiment_id}/best-model',
          'POST /api/mlops/deployments/{deployment_id}/promote',
          'POST /api/mlops/deployments/{deployment_id}/drift/run',
          'POST /api/mlops/ab-tests/{test_id}/promote',
          'POST /api/mlops/ab-tests/{test_id}/outcomes',
          'POST /api/mlops/ab-tests/{test_id}/predict',
          'PATCH /api/mlops/ab-tests/{test_id}',
        ],
      ],
      ["needs the uploaded file to carry the model's columns (a generated CSV does not)", ['POST /api/models/{model_id}/predict/batch']],
      [
        'a suppression needs a matcher the generator does not pick',
        ['POST /api/mlops/alerts/suppressions', 'PATCH /api/mlops/alerts/suppressions/{suppression_id}', 'DELETE /api/mlops/alerts/suppressions/{suppression_id}'],
      ],
      ['needs an alert, which only the scheduled evaluator raises', ['POST /api/mlops/alerts/{alert_id}/acknowledge', 'POST /api/mlops/alerts/{alert_id}/resolve']],
      [
        'needs a registry version, alias or pending transition request (registry fixtures not made)',
        [
          'POST /api/mlops/versions/{version_id}/transition',
          'POST /api/mlops/versions/{version_id}/transitions/{request_id}/approve',
          'POST /api/mlops/versions/{version_id}/transitions/{request_id}/reject',
          'PATCH /api/mlops/versions/{version_id}',
          'PUT /api/mlops/registry/{registered_model_id}/aliases/{alias}',
          'DELETE /api/mlops/registry/{registered_model_id}/aliases/{alias}',
        ],
      ],
      [
        'needs a rollout, which needs a body the generator does not make (strategy steps)',
        [
          'POST /api/mlops/deployments/{deployment_id}/canary',
          'POST /api/mlops/deployments/{deployment_id}/blue-green',
          'POST /api/mlops/deployments/{deployment_id}/shadow',
          'POST /api/mlops/strategies/{rollout_id}/pause',
          'POST /api/mlops/strategies/{rollout_id}/resume',
          'POST /api/mlops/strategies/{rollout_id}/promote',
          'PUT /api/mlops/deployments/{deployment_id}/traffic',
          'POST /api/mlops/deployments/{deployment_id}/rollback',
          'POST /api/mlops/strategies/{rollout_id}/abort',
          'POST /api/mlops/strategies/{rollout_id}/rollback',
        ],
      ],
      [
        'needs a retraining job awaiting approval, or a champion version',
        [
          'POST /api/mlops/retraining-policies/{policy_id}/run',
          'POST /api/mlops/retraining-jobs/{retraining_job_id}/approve',
          'POST /api/mlops/retraining-jobs/{retraining_job_id}/reject',
          'DELETE /api/mlops/retraining-policies/{policy_id}',
        ],
      ],
      [
        "needs an open job (the fixtures' jobs have finished) or a second session/key of the caller",
        ['POST /api/jobs/{job_id}/cancel', 'POST /api/auth/sessions/{session_id}/revoke', 'POST /api/admin/api-keys/{key_id}/revoke', 'POST /api/auth/api-keys/{key_id}/revoke'],
      ],
      ["needs a report's subject id in the body (the generated body names a random experiment)", ['POST /api/reports']],
      [
        'needs a privacy policy, rule, session or finding (privacy fixtures not made)',
        [
          'POST /api/privacy/policies/{policy_id}/rules',
          'POST /api/privacy/sessions',
          'POST /api/privacy/sessions/{session_id}/detect',
          'POST /api/privacy/sessions/{session_id}/transform',
          'POST /api/anonymize/stream',
          'PATCH /api/privacy/policies/{policy_id}',
          'PATCH /api/privacy/policies/{policy_id}/rules/{rule_id}',
          'PUT /api/privacy/sessions/{session_id}/findings/{finding_id}',
          'DELETE /api/privacy/policies/{policy_id}',
          'DELETE /api/privacy/policies/{policy_id}/rules/{rule_id}',
        ],
      ],
      ['needs a synthgen model (the generated body names no valid dataset version and model type)', ['POST /api/synthgen/models/{model_id}/generate', 'DELETE /api/synthgen/models/{model_id}']],
      [
        'billing is off unless configured (404 `Billing is not enabled`); test/billing covers it with a provider',
        ['POST /api/billing/plan', 'POST /api/billing/checkout-session', 'POST /api/billing/portal-session', 'POST /api/billing/webhooks/stripe'],
      ],
      [
        "the fixtures' data is used by experiments or an active deployment (409), which the walk keeps for the other operations",
        ['DELETE /api/datasets/{dataset_id}', 'DELETE /api/datasets/{dataset_id}/versions/{version}', 'DELETE /api/models/{model_id}'],
      ],
    ] as [string, string[]][]
  ).flatMap(([reason, keys]) => keys.map((k) => [k, reason])),
);

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
  // Creations first (their ids feed the rest), deletes and what ends a deployment or rollout last, the project and
  // the second user last of all.
  const rank = (o: Operation) =>
    /^\/api\/(projects\/\{project_id\}|admin\/users\/\{user_id\})$/.test(o.path) && o.method === 'DELETE'
      ? 4
      : o.method === 'DELETE'
        ? 3
        : /deactivate|rollback|abort|revoke/.test(o.path)
          ? 2
          : o.method === 'POST' && !o.path.endsWith('}')
            ? 0
            : 1;
  return ops.sort((a, b) => rank(a) - rank(b));
}

/** Bodies the schema alone cannot make valid: the fixtures' values that the operation needs, over the generated body. */
const BODY: Record<string, (fx: Fixtures) => Record<string, unknown>> = {
  'POST /api/auth/login': (fx) => ({ email: fx.owner_email, password: fx.owner_password }),
  'POST /api/auth/delete-account': () => ({ password: 'audit walk password 2' }),
  'POST /api/projects/{project_id}/members': (fx) => ({ email: fx.member_email, role: 'editor' }),
  'POST /api/admin/teams/{team_id}/members': (fx) => ({ user_id: fx.user_id }),
  'POST /api/teams/{team_id}/members': (fx) => ({ user_id: fx.user_id }),
  'POST /api/experiments': (fx) => ({
    target_column: 'y',
    problem_type: 'binary',
    config: { max_models: 1, nfolds: 0, exclude_algos: ['GBM', 'XGBoost', 'DRF', 'DeepLearning', 'StackedEnsemble'] },
    dataset_version_id: fx.dataset_version_id,
  }),
  'POST /api/models/{model_id}/predict': () => ({ inputs: { x1: 0.1, x2: 1, color: 'red' } }),
  'POST /api/mlops/deployments/{deployment_id}/predict': () => ({ inputs: { x1: 0.1, x2: 1, color: 'red' } }),
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

/** Operations that end the caller's session or account: sent by a user of their own, made for each. */
const ENDS_SESSION = /\/api\/auth\/(logout|logout-all|delete-account|change-password)$/;

/** Where a created resource's id goes: the path parameter that takes it (`…/channels` → `channel_id`). */
const ID_PARAM: Record<string, string> = {
  'alert-rules': 'rule_id',
  suppressions: 'suppression_id',
  'ab-tests': 'test_id',
  registry: 'registered_model_id',
  'retraining-policies': 'policy_id',
  strategies: 'rollout_id',
};
function idParamOf(path: string): string {
  const last =
    path
      .split('/')
      .filter((x) => x && !x.startsWith('{'))
      .pop() ?? 'x';
  return ID_PARAM[last] ?? `${last.replace(/-/g, '_').replace(/s$/, '')}_id`;
}

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ workers: ['io', 'cpu'] });
});
afterAll(async () => stack?.stop());

it('every mutating operation answered 2xx has an audit entry with its request id, and no entry holds a secret', async () => {
  const owner = await signUp(stack.baseUrl, stack.mail, { password: 'audit walk password 1' });
  await makeSuperuser(stack.ds, owner.user.id);
  const secrets = new Set<string>([owner.password, 'audit walk password 2']);
  const projectId = await createProject(owner.client, 'Audit walk');
  expect(projectId).toEqual(expect.any(String));
  const { datasetId, versionId, models } = await trainQuickModels(owner.client, projectId, ['GLM'], 120);
  const deployment = await owner.client.post(`/api/mlops/projects/${projectId}/deployments`, { model_id: models.GLM, name: 'walk', stage: 'production' });
  expect(deployment.status).toBe(201);
  const staging = await owner.client.post(`/api/mlops/projects/${projectId}/deployments`, { model_id: models.GLM, name: 'walk staging', stage: 'staging' });
  expect(staging.status).toBe(201);
  const member = await signUp(stack.baseUrl, stack.mail);
  const experimentId = (await owner.client.get(`/api/models/${models.GLM}`)).body.experiment_id as string;
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
    deployment_id: deployment.body.id,
    version: 0,
  };

  const docRes = await owner.client.get('/api/openapi.json');
  const doc = docRes.body;
  const results: { key: string; status: number; requestId: string | null; body: unknown }[] = [];
  for (const op of mutatingOperations(doc)) {
    const client = ENDS_SESSION.test(op.path) ? (await signUp(stack.baseUrl, stack.mail, { password: 'audit walk password 2' })).client : owner.client;
    const path = op.path.replace(/\{(\w+)\}/g, (_, p: string) => String(fx[p] ?? randomUUID()));
    let res: Res;
    if (op.contentType === 'multipart/form-data') {
      res = await client.upload(path, { project_id: projectId, name: 'walk upload', description: 'walk' }, { name: 'walk.csv', data: 'a,b\n1,2\n3,4\n' });
    } else if (op.contentType && op.contentType !== 'application/json') {
      res = await client.request(op.method, path, undefined, { headers: { 'content-type': op.contentType }, rawBody: '' });
    } else {
      const generated = op.body ? sample(op.body, 'body', fx, doc) : undefined;
      const body = BODY[op.key] ? { ...(generated as object), ...BODY[op.key](fx) } : generated;
      if (op.path.endsWith('/change-password')) Object.assign(body as object, { current_password: 'audit walk password 2' });
      res = await client.request(op.method, path, body);
    }
    const created = (res.body as { id?: unknown } | undefined)?.id;
    if (op.method === 'POST' && res.status === 201 && typeof created === 'string' && !op.path.endsWith('}')) fx[idParamOf(op.path)] ??= created;
    results.push({ key: op.key, status: res.status, requestId: res.headers.get('x-request-id'), body: res.body });
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
  const log = JSON.stringify(await stack.ds.query('SELECT * FROM audit_log'));
  for (const s of secrets) if (s.length >= 8) expect(log.includes(s) ? s : null).toBeNull();
  // Listed operations must still be in the document, so the list does not outlive its routes (one that reaches 2xx
  // after all is checked like any other).
  expect(Object.keys(NOT_DRIVEN).filter((key) => !results.some((x) => x.key === key))).toEqual([]);
  expect(missing).toEqual([]);
  expect(undriven).toEqual([]);
  expect(results.filter((r) => r.status >= 200 && r.status < 300).length).toBeGreaterThan(0);
});
