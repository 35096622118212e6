import { createHmac } from 'node:crypto';
import { addMember, createProject, signUp } from './support/client';
import { eventually } from './support/client';
import { startReceiver, type Receiver, type ReceivedRequest } from './support/http-receiver';
import { startStack, TestStack } from './support/stack';
import { trainQuickModels } from './support/trained-models';

/**
 * The model registry (issue 31) through HTTP on the real stack: registered models, numbered versions with their
 * metrics snapshot, aliases and their recorded moves, transition requests decided by admins and owners (an approval
 * to production is a production deployment, the previous one archived), events, and their signed webhooks.
 */

type User = Awaited<ReturnType<typeof signUp>>;
let stack: TestStack;
let receiver: Receiver;
let owner: User;
let admin: User;
let editor: User;
let viewer: User;
let stranger: User;
let projectId: string;
let otherProjectId: string;
let glm: string;
let gbm: string;
let foreignModel: string;
let webhookSecret: string;

const M = '/api/mlops';

beforeAll(async () => {
  receiver = await startReceiver();
  stack = await startStack();
  [owner, admin, editor, viewer, stranger] = await Promise.all([0, 1, 2, 3, 4].map(() => signUp(stack.baseUrl, stack.mail)));
  projectId = await createProject(owner.client, 'Registry');
  otherProjectId = await createProject(owner.client, 'Elsewhere');
  await addMember(owner.client, admin, projectId, 'admin');
  await addMember(owner.client, editor, projectId, 'editor');
  await addMember(owner.client, viewer, projectId, 'viewer');
  const [here, there] = await Promise.all([trainQuickModels(owner.client, projectId, ['GLM', 'GBM']), trainQuickModels(owner.client, otherProjectId, ['GLM'], 200)]);
  glm = here.models.GLM;
  gbm = here.models.GBM;
  foreignModel = there.models.GLM;
  const hook = await owner.client.post(`${M}/projects/${projectId}/channels`, { name: 'registry hook', type: 'webhook', config: { url: `${receiver.url}/hooks/registry` } });
  expect(hook.status).toBe(201);
  webhookSecret = hook.body.secret;
}, 300_000);

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

function signatureOk(r: ReceivedRequest, secret: string): boolean {
  const ts = String(r.headers['x-mlsvc-timestamp']);
  return r.headers['x-mlsvc-signature'] === `sha256=${createHmac('sha256', secret).update(`${ts}.${r.raw}`).digest('hex')}`;
}

async function register(name: string, c = owner.client): Promise<string> {
  const r = await c.post(`${M}/projects/${projectId}/registry`, { name });
  if (r.status !== 201) throw new Error(`register failed ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id;
}

async function addVersion(registeredId: string, modelId: string, c = owner.client) {
  const r = await c.post(`${M}/registry/${registeredId}/versions`, { model_id: modelId });
  if (r.status !== 201) throw new Error(`version failed ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as { id: string; version: number };
}

async function deployments() {
  return (await owner.client.get(`${M}/projects/${projectId}/deployments?limit=200`)).body.items as { id: string; name: string; stage: string; is_active: boolean; model_id: string }[];
}

describe('registered models', () => {
  it('creates, lists, reads and changes them; names are unique per project', async () => {
    const c = owner.client;
    const created = await c.post(`${M}/projects/${projectId}/registry`, { name: 'churn', description: 'Churn classifier', tags: { team: 'growth' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      project_id: projectId,
      name: 'churn',
      description: 'Churn classifier',
      tags: { team: 'growth' },
      latest_version: 0,
      aliases: {},
      auto_deploy_aliases: [],
      created_by: owner.user.id,
    });
    expect(Date.parse(created.body.created_at)).toBeGreaterThan(0);
    expect(Date.parse(created.body.updated_at)).toBeGreaterThan(0);
    const id = created.body.id;
    const dup = await c.post(`${M}/projects/${projectId}/registry`, { name: 'churn' });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ detail: 'A registered model with this name already exists in the project' });
    // The same name in another project is another model.
    expect((await c.post(`${M}/projects/${otherProjectId}/registry`, { name: 'churn' })).status).toBe(201);

    await register('aardvark');
    const byName = await c.get(`${M}/projects/${projectId}/registry?sort_field=name&sort_direction=asc`);
    expect(byName.status).toBe(200);
    expect(byName.body.items.map((m: { name: string }) => m.name)).toEqual(['aardvark', 'churn']);
    expect(byName.body).toMatchObject({ total: 2, limit: 50, offset: 0 });
    expect((await c.get(`${M}/projects/${projectId}/registry?search=chu`)).body.items.map((m: { id: string }) => m.id)).toEqual([id]);

    expect((await c.get(`${M}/registry/${id}`)).body).toMatchObject({ id, name: 'churn' });
    const renamed = await c.patch(`${M}/registry/${id}`, { name: 'churn-model', tags: { team: 'growth', tier: '1' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'churn-model', tags: { team: 'growth', tier: '1' } });
    expect((await c.patch(`${M}/registry/${id}`, { name: 'aardvark' })).status).toBe(409);
    expect((await c.patch(`${M}/registry/${id}`, { name: 'churn' })).status).toBe(200);
  });

  it('refuses bad fields with 422', async () => {
    const url = `${M}/projects/${projectId}/registry`;
    const c = owner.client;
    const cases: unknown[] = [
      {},
      { name: '' },
      { name: '   ' },
      { name: 'a\u0000b' },
      { name: 'x'.repeat(201) },
      { name: 12 },
      { name: 1e300 },
      { name: ['x'] },
      { name: 'ok', tags: { team: 7 } },
      { name: 'ok', tags: { 'a\u0000': 'b' } },
      { name: 'ok', tags: { '': 'b' } },
      { name: 'ok', tags: 'team' },
      { name: 'ok', unknown: 1 },
    ];
    for (const body of cases) {
      const r = await c.post(url, body);
      expect([JSON.stringify(body), r.status]).toEqual([JSON.stringify(body), 422]);
      expect(Array.isArray(r.body.detail) || typeof r.body.detail === 'string').toBe(true);
    }
    // A huge integer where text is expected, sent as it would be on the wire.
    const huge = await c.post(url, undefined, { headers: { 'content-type': 'application/json' }, rawBody: '{"name":"ok","description":99999999999999999999999}' });
    expect(huge.status).toBe(422);
    expect((await c.get(`${url}?limit=99999999999999999999`)).status).toBe(422);
    expect((await c.get(`${url}?offset=-1`)).status).toBe(422);
    expect((await c.get(`${url}?sort_field=secret`)).status).toBe(422);
    expect((await c.get(`${M}/registry/not-a-uuid`)).status).toBe(422);
    const id = (await c.get(`${url}?search=aardvark`)).body.items[0].id;
    expect((await c.patch(`${M}/registry/${id}`, { auto_deploy_aliases: ['Champion'] })).status).toBe(422);
    expect((await c.patch(`${M}/registry/${id}`, { name: null })).status).toBe(422);
  });

  it("is 404 for other users' registries and 403 for viewers' changes", async () => {
    const id = (await owner.client.get(`${M}/projects/${projectId}/registry?search=aardvark`)).body.items[0].id;
    expect(await stranger.client.get(`${M}/registry/${id}`)).toMatchObject({ status: 404, body: { detail: 'Registered model not found' } });
    expect((await stranger.client.patch(`${M}/registry/${id}`, { description: 'x' })).status).toBe(404);
    expect((await stranger.client.del(`${M}/registry/${id}`)).status).toBe(404);
    expect(await stranger.client.get(`${M}/projects/${projectId}/registry`)).toMatchObject({ status: 404, body: { detail: 'Project not found' } });
    expect((await stranger.client.post(`${M}/projects/${projectId}/registry`, { name: 'mine' })).status).toBe(404);
    expect((await viewer.client.get(`${M}/registry/${id}`)).status).toBe(200);
    expect((await viewer.client.post(`${M}/projects/${projectId}/registry`, { name: 'viewer' })).status).toBe(403);
    expect((await viewer.client.patch(`${M}/registry/${id}`, { description: 'x' })).status).toBe(403);
  });
});

describe('versions, aliases and transitions', () => {
  let rm: string;
  let v1: { id: string; version: number };
  let v2: { id: string; version: number };
  let manual: string;

  beforeAll(async () => {
    rm = await register('fraud');
  });

  it('numbers versions 1..n with the model’s experiment, dataset version and metrics snapshot', async () => {
    v1 = await addVersion(rm, glm, editor.client);
    v2 = await addVersion(rm, gbm);
    expect([v1.version, v2.version]).toEqual([1, 2]);
    const model = (await owner.client.get(`/api/models/${glm}`)).body.model;
    const got = await owner.client.get(`${M}/versions/${v1.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      registered_model_id: rm,
      project_id: projectId,
      version: 1,
      model_id: glm,
      experiment_id: model.experiment_id,
      metrics: model.metrics,
      stage: 'none',
      aliases: [],
      created_by: editor.user.id,
    });
    expect(got.body.dataset_version_id).toEqual(expect.any(String));
    const list = await owner.client.get(`${M}/registry/${rm}/versions`);
    expect(list.body.items.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect((await owner.client.get(`${M}/registry/${rm}`)).body.latest_version).toBe(2);

    const patched = await owner.client.patch(`${M}/versions/${v1.id}`, { description: 'first', tags: { reviewed: 'yes' } });
    expect(patched.body).toMatchObject({ description: 'first', tags: { reviewed: 'yes' }, version: 1, model_id: glm });
    // Immutable fields are not accepted.
    expect((await owner.client.patch(`${M}/versions/${v1.id}`, { model_id: gbm })).status).toBe(422);
    expect((await owner.client.patch(`${M}/versions/${v1.id}`, { version: 7 })).status).toBe(422);

    const foreign = await owner.client.post(`${M}/registry/${rm}/versions`, { model_id: foreignModel });
    expect(foreign.status).toBe(422);
    expect((await owner.client.post(`${M}/registry/${rm}/versions`, { model_id: 'nope' })).status).toBe(422);
    expect((await owner.client.post(`${M}/registry/${rm}/versions`, {})).status).toBe(422);
    expect((await viewer.client.post(`${M}/registry/${rm}/versions`, { model_id: glm })).status).toBe(403);
    expect(await stranger.client.get(`${M}/versions/${v1.id}`)).toMatchObject({ status: 404, body: { detail: 'Version not found' } });
    expect((await stranger.client.get(`${M}/registry/${rm}/versions`)).status).toBe(404);
    expect((await stranger.client.patch(`${M}/versions/${v1.id}`, { description: 'x' })).status).toBe(404);
  });

  it('moves aliases and records each move', async () => {
    const c = editor.client;
    const first = await c.put(`${M}/registry/${rm}/aliases/champion`, { version_id: v1.id });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ alias: 'champion', from_version: null, to_version: 1, version_id: v1.id, deployment_id: null });
    const moved = await c.put(`${M}/registry/${rm}/aliases/champion`, { version_id: v2.id });
    expect(moved.body).toMatchObject({ from_version: 1, to_version: 2 });
    await c.put(`${M}/registry/${rm}/aliases/challenger`, { version_id: v1.id });
    expect((await c.get(`${M}/registry/${rm}`)).body.aliases).toEqual({ champion: 2, challenger: 1 });
    expect((await c.get(`${M}/versions/${v2.id}`)).body.aliases).toEqual(['champion']);

    expect((await c.put(`${M}/registry/${rm}/aliases/Champion`, { version_id: v1.id })).status).toBe(422);
    expect((await c.put(`${M}/registry/${rm}/aliases/${'a'.repeat(41)}`, { version_id: v1.id })).status).toBe(422);
    const other = await register('other');
    expect((await c.put(`${M}/registry/${other}/aliases/champion`, { version_id: v1.id })).status).toBe(422);
    expect((await viewer.client.put(`${M}/registry/${rm}/aliases/champion`, { version_id: v1.id })).status).toBe(403);
    expect((await stranger.client.put(`${M}/registry/${rm}/aliases/champion`, { version_id: v1.id })).status).toBe(404);

    expect((await c.del(`${M}/registry/${rm}/aliases/challenger`)).status).toBe(204);
    expect((await c.del(`${M}/registry/${rm}/aliases/challenger`)).body).toEqual({ detail: 'Alias not found' });

    const events = (await c.get(`${M}/registry/${rm}/events?kind=alias_moved`)).body.items;
    expect(events.map((e: { details: Record<string, unknown> }) => [e.details.alias, e.details.from_version, e.details.to_version])).toEqual([
      ['challenger', null, 1],
      ['champion', 1, 2],
      ['champion', null, 1],
    ]);
    expect(events[0].actor_id).toBe(editor.user.id);
  });

  it('a production request is approved by an owner only, and then serves: the previous production deployment archived', async () => {
    const d = await owner.client.post(`${M}/projects/${projectId}/deployments`, { model_id: gbm, name: 'hand-made', stage: 'production' });
    expect(d.status).toBe(201);
    manual = d.body.id;

    const asked = await editor.client.post(`${M}/versions/${v1.id}/transition`, { to_stage: 'production', comment: 'ship it' });
    expect(asked.status).toBe(201);
    expect(Date.parse(asked.body.created_at)).toBeGreaterThan(0);
    expect(asked.body).toMatchObject({
      version_id: v1.id,
      to_stage: 'production',
      status: 'pending',
      requested_by: editor.user.id,
      comment: 'ship it',
      decided_by: null,
      decided_at: null,
      decision_comment: null,
      deployment_id: null,
    });
    const approve = `${M}/versions/${v1.id}/transitions/${asked.body.id}/approve`;
    for (const who of [editor, viewer]) {
      expect(await who.client.post(approve, {})).toMatchObject({ status: 403, body: { detail: 'This action requires the admin role in the project' } });
    }
    expect((await stranger.client.post(approve, {})).status).toBe(404);
    expect((await viewer.client.post(`${M}/versions/${v1.id}/transition`, { to_stage: 'production' })).status).toBe(403);
    expect((await editor.client.post(`${M}/versions/${v1.id}/transition`, { to_stage: 'none' })).status).toBe(422);

    const approved = await owner.client.post(approve, { comment: 'looks good' });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', decided_by: owner.user.id, decision_comment: 'looks good' });
    expect(approved.body.deployment_id).toEqual(expect.any(String));
    const all = await deployments();
    const prod = all.filter((x) => x.stage === 'production' && x.is_active);
    expect(prod).toEqual([expect.objectContaining({ id: approved.body.deployment_id, name: 'fraud v1', model_id: glm })]);
    expect(all.find((x) => x.id === manual)).toMatchObject({ stage: 'archived', is_active: false });
    const history = (await owner.client.get(`${M}/deployments/${manual}/rollback-history`)).body.items;
    expect(history[0]).toMatchObject({ from_stage: 'production', to_stage: 'archived', actor_id: owner.user.id });
    expect(history[0].reason).toMatch(/fraud v1/);
    expect((await owner.client.get(`${M}/versions/${v1.id}`)).body).toMatchObject({ stage: 'production', deployment_id: approved.body.deployment_id });

    // Decided twice: 409, approve or reject.
    expect(await owner.client.post(approve, {})).toMatchObject({ status: 409, body: { detail: 'Transition request already approved' } });
    expect((await owner.client.post(`${M}/versions/${v1.id}/transitions/${asked.body.id}/reject`, {})).status).toBe(409);
    // The request id under another version is not found.
    expect((await owner.client.post(`${M}/versions/${v2.id}/transitions/${asked.body.id}/approve`, {})).status).toBe(404);
  });

  it('the next production version replaces it: the earlier version archived', async () => {
    const asked = await editor.client.post(`${M}/versions/${v2.id}/transition`, { to_stage: 'production' });
    const first = (await owner.client.get(`${M}/versions/${v1.id}`)).body.deployment_id;
    const approved = await admin.client.post(`${M}/versions/${v2.id}/transitions/${asked.body.id}/approve`, {});
    expect(approved.status).toBe(200);
    expect((await owner.client.get(`${M}/versions/${v2.id}`)).body.stage).toBe('production');
    expect((await owner.client.get(`${M}/versions/${v1.id}`)).body.stage).toBe('archived');
    const all = await deployments();
    expect(all.find((x) => x.id === first)).toMatchObject({ stage: 'archived', is_active: false });
    expect(all.find((x) => x.id === approved.body.deployment_id)).toMatchObject({ stage: 'production', is_active: true, name: 'fraud v2' });
    // A registered model with a version in production is not deleted.
    expect((await owner.client.del(`${M}/registry/${rm}`)).status).toBe(409);
  });

  it('a rejected request changes nothing; deciding it again is 409', async () => {
    const asked = await editor.client.post(`${M}/versions/${v1.id}/transition`, { to_stage: 'staging' });
    const before = (await deployments()).length;
    const reject = `${M}/versions/${v1.id}/transitions/${asked.body.id}/reject`;
    expect((await editor.client.post(reject, {})).status).toBe(403);
    const rejected = await owner.client.post(reject, { comment: 'not now' });
    expect(rejected.body).toMatchObject({ status: 'rejected', decided_by: owner.user.id, decision_comment: 'not now', deployment_id: null });
    expect((await owner.client.post(reject, {})).status).toBe(409);
    expect((await deployments()).length).toBe(before);
    expect((await owner.client.get(`${M}/versions/${v1.id}`)).body.stage).toBe('archived');
    const list = (await viewer.client.get(`${M}/versions/${v1.id}/transitions`)).body.items;
    expect(list.map((t: { status: string }) => t.status)).toEqual(['rejected', 'approved']);
  });

  it('an alias that deploys on move (admin-only setting) deploys its version', async () => {
    expect((await editor.client.patch(`${M}/registry/${rm}`, { auto_deploy_aliases: ['champion'] })).status).toBe(403);
    expect((await owner.client.patch(`${M}/registry/${rm}`, { auto_deploy_aliases: ['champion'] })).body.auto_deploy_aliases).toEqual(['champion']);
    expect((await editor.client.put(`${M}/registry/${rm}/aliases/champion`, { version_id: v1.id })).status).toBe(403);
    const moved = await admin.client.put(`${M}/registry/${rm}/aliases/champion`, { version_id: v1.id });
    expect(moved.status).toBe(200);
    expect(moved.body.deployment_id).toEqual(expect.any(String));
    const prod = (await deployments()).filter((x) => x.stage === 'production' && x.is_active);
    expect(prod).toEqual([expect.objectContaining({ id: moved.body.deployment_id, model_id: glm })]);
    expect((await owner.client.get(`${M}/versions/${v1.id}`)).body.stage).toBe('production');
    expect((await owner.client.get(`${M}/versions/${v2.id}`)).body.stage).toBe('archived');
  });

  it('lists the events, newest first, and sends each to the project’s webhook, signed', async () => {
    const events = (await viewer.client.get(`${M}/registry/${rm}/events?limit=500`)).body.items as { kind: string; id: string }[];
    const kinds = new Set(events.map((e) => e.kind));
    for (const k of ['version_created', 'alias_moved', 'transition_requested', 'transition_approved', 'transition_rejected', 'stage_changed']) expect(kinds).toContain(k);
    expect(Number(events[0].id)).toBeGreaterThan(Number(events[events.length - 1].id));
    expect((await stranger.client.get(`${M}/registry/${rm}/events`)).status).toBe(404);

    const approvedHook = await eventually(async () =>
      receiver.received.find((r) => {
        const b = JSON.parse(r.raw);
        return b.type === 'registry.transition_approved' && b.data.registered_model?.id === rm;
      }),
    );
    const body = JSON.parse(approvedHook.raw);
    expect(body.data).toMatchObject({ project: { id: projectId, name: 'Registry' }, registered_model: { id: rm, name: 'fraud' }, event: { kind: 'transition_approved' } });
    expect(approvedHook.headers['x-mlsvc-event']).toBe('registry.transition_approved');
    expect(approvedHook.headers['idempotency-key']).toBe(body.id);
    expect(signatureOk(approvedHook, webhookSecret)).toBe(true);
    expect(signatureOk({ ...approvedHook, raw: approvedHook.raw.replace('approved', 'APPROVED') }, webhookSecret)).toBe(false);
    // Every delivery is recorded on the channel, as alert deliveries are.
    const [channel] = (await owner.client.get(`${M}/projects/${projectId}/channels`)).body.items;
    const deliveries = await eventually(async () => {
      const d = (await owner.client.get(`${M}/alerts/channels/${channel.id}/deliveries`)).body.items;
      return d.length ? d : undefined;
    });
    expect(deliveries[0]).toMatchObject({ status: 'delivered' });
  });

  it('deletes a registered model with no production version', async () => {
    const spare = await register('spare');
    await addVersion(spare, glm);
    expect((await editor.client.del(`${M}/registry/${spare}`)).status).toBe(204);
    expect((await owner.client.get(`${M}/registry/${spare}`)).status).toBe(404);
  });
});
