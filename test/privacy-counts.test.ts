import { addMember, ApiClient, createProject, eventually, signUp } from './support/client';
import { pdfText } from './support/documents';
import { startStack, TestStack } from './support/stack';

/**
 * Privacy counts from one source (services/privacy/finding-counts.ts) and per-session overrides of a finding, through
 * HTTP on the real stack: the session, its policy and its PDF give the same findings / transformed / pending /
 * excluded; an excluded finding is left as it was by the transform and an overridden action is applied; hostile input
 * answers the spec's codes.
 */
let stack: TestStack;
let owner: Awaited<ReturnType<typeof signUp>>;
let stranger: Awaited<ReturnType<typeof signUp>>;
let projectId: string;
let datasetId: string;
let policyId: string;
let sessionId: string;

type Finding = { id: string; column: string; pii_type: string; action: string | null; policy_action: string | null; action_override: string | null; excluded: boolean; transformed: boolean };
type Counts = { findings: number; excluded: number; transformed: number; pending: number; without_action: number; protected: number; compliance_score: number };

const NAMES = ['James Smith', 'Mary Johnson', 'Robert Williams', 'Patricia Brown', 'John Jones', 'Linda Garcia'];

/** Names, emails and phones: three PII columns, and an amount that is not PII. */
function csv(n: number): string {
  const lines = ['full_name,email,phone,amount'];
  for (let i = 0; i < n; i++) {
    const name = NAMES[i % NAMES.length];
    lines.push(`${name},${name.toLowerCase().replace(' ', '.')}${i}@example.com,(212) 555-${String(1000 + ((i * 37) % 9000)).slice(-4)},${(i * 3.5).toFixed(2)}`);
  }
  return lines.join('\n') + '\n';
}

async function settled(id: string, statuses: string[]) {
  return eventually(async () => {
    const s = (await owner.client.get(`/api/privacy/sessions/${id}`)).body.session;
    return statuses.includes(s.status) ? s : undefined;
  }, 120_000);
}

async function findings(client: ApiClient = owner.client): Promise<Finding[]> {
  return (await client.get(`/api/privacy/sessions/${sessionId}/results`)).body.results;
}

async function sessionCounts(): Promise<Counts & { session: Record<string, unknown> }> {
  const s = (await owner.client.get(`/api/privacy/sessions/${sessionId}`)).body.session;
  return { ...s.counts, session: s };
}

/** The session's counts equal its policy's, in the policy's own fields and in its list entry, and the session list's. */
async function expectPolicyAgrees(c: Counts): Promise<void> {
  const { policy } = (await owner.client.get(`/api/privacy/policies/${policyId}`)).body;
  expect(policy.counts_session_id).toBe(sessionId);
  expect(policy.counts).toEqual(c);
  expect({ detected: policy.detected_count, protected: policy.protected_count, pending: policy.pending_count, score: policy.compliance_score }).toEqual({
    detected: c.findings,
    protected: c.protected,
    pending: c.pending,
    score: c.compliance_score,
  });
  const listed = (await owner.client.get(`/api/privacy/policies?project_id=${projectId}`)).body.items.find((p: { id: string }) => p.id === policyId);
  expect(listed.counts).toEqual(c);
  // The session list says the same.
  const session = (await owner.client.get(`/api/privacy/sessions?policy_id=${policyId}`)).body.items.find((s: { id: string }) => s.id === sessionId);
  expect(session).toMatchObject({ pii_found: c.findings, transformed: c.transformed, pending: c.pending, excluded: c.excluded });
}

beforeAll(async () => {
  stack = await startStack();
  owner = await signUp(stack.baseUrl, stack.mail);
  stranger = await signUp(stack.baseUrl, stack.mail);
  projectId = await createProject(owner.client, 'Counts');
  const up = await owner.client.upload('/api/datasets/upload', { project_id: projectId, name: 'people' }, { name: 'people.csv', data: csv(40) });
  expect(up.status).toBe(201);
  datasetId = up.body.id ?? up.body.dataset_id;
  const p = await owner.client.post('/api/privacy/policies', { project_id: projectId, name: 'People export' });
  policyId = p.body.id;
  // No rule for names: those findings have no action until a session overrides them.
  for (const [pii_type, action] of [
    ['email', 'hash'],
    ['phone', 'mask'],
  ])
    expect((await owner.client.post(`/api/privacy/policies/${policyId}/rules`, { pii_type, action })).status).toBe(201);
  sessionId = (await owner.client.post('/api/privacy/sessions', { policy_id: policyId, dataset_id: datasetId })).body.id;
  expect((await owner.client.post(`/api/privacy/sessions/${sessionId}/detect`)).status).toBe(200);
  expect((await settled(sessionId, ['detected', 'failed'])).status).toBe('detected');
}, 300_000);
afterAll(async () => {
  await stack?.stop();
});

describe('counts', () => {
  it('gives the same counts on the session, its policy and the policy list, with a finding without an action pending', async () => {
    const c = await sessionCounts();
    const found = await findings();
    expect(found.map((f) => f.pii_type).sort()).toEqual(expect.arrayContaining(['email', 'name', 'phone']));
    expect(c.findings).toBe(found.length);
    expect(c.session.pii_found).toBe(found.length);
    expect(c).toMatchObject({ excluded: 0, transformed: 0, pending: found.length, without_action: found.filter((f) => !f.action).length });
    expect(c.without_action).toBeGreaterThanOrEqual(1);
    expect(c.session.pending).toBe(c.pending);
    expect(c.findings).toBe(c.excluded + c.transformed + c.pending);
    const { session, ...counts } = c;
    expect(session.transformed).toBe(0);
    await expectPolicyAgrees(counts);
  });
});

describe('overrides', () => {
  it('excludes a finding and changes the action of another, for this session only, and the counts follow', async () => {
    const found = await findings();
    const phone = found.find((f) => f.pii_type === 'phone')!;
    const name = found.find((f) => f.pii_type === 'name')!;
    const ex = await owner.client.put(`/api/privacy/sessions/${sessionId}/findings/${phone.id}`, { excluded: true });
    expect(ex.status).toBe(200);
    expect(ex.body.result).toMatchObject({ id: phone.id, excluded: true, action: 'mask', policy_action: 'mask', action_override: null });
    const act = await owner.client.put(`/api/privacy/sessions/${sessionId}/findings/${name.id}`, { action: 'redact' });
    expect(act.body.result).toMatchObject({ id: name.id, excluded: false, action: 'redact', action_override: 'redact', policy_action: null });

    const { session, ...c } = await sessionCounts();
    expect(c.excluded).toBe(1);
    expect(c.without_action).toBe(found.filter((f) => !f.action).length - 1);
    expect(c.pending).toBe(found.length - 1);
    expect(session.pending).toBe(c.pending);
    await expectPolicyAgrees(c);
    // The policy's own rules are untouched: a new session of it has no overrides.
    const other = (await owner.client.post('/api/privacy/sessions', { policy_id: policyId, dataset_id: datasetId })).body.id;
    expect((await owner.client.get(`/api/privacy/policies/${policyId}`)).body.rules.map((r: { pii_type: string }) => r.pii_type).sort()).toEqual(['email', 'phone']);
    expect((await owner.client.get(`/api/privacy/sessions/${other}`)).body.session.counts.findings).toBe(0);
  });

  it('keeps the overrides through a new detection of the session', async () => {
    expect((await owner.client.post(`/api/privacy/sessions/${sessionId}/detect`)).status).toBe(200);
    expect((await settled(sessionId, ['detected', 'failed'])).status).toBe('detected');
    const found = await findings();
    expect(found.find((f) => f.pii_type === 'phone')).toMatchObject({ excluded: true });
    expect(found.find((f) => f.pii_type === 'name')).toMatchObject({ action_override: 'redact', action: 'redact' });
  });

  it('transforms with the overrides: the excluded column as it was, the overridden one redacted; session, policy and PDF agree', async () => {
    expect((await owner.client.post(`/api/privacy/sessions/${sessionId}/transform`)).status).toBe(200);
    const s = await settled(sessionId, ['completed', 'failed']);
    expect(s.status).toBe('completed');
    const file = (await owner.client.get(`/api/artifacts/${s.output_artifact_id}/download`)).raw!.toString('utf8');
    const [header, first] = file.trim().split(/\r?\n/);
    const row = Object.fromEntries(header.split(',').map((h, i) => [h, first.split(',')[i]]));
    expect(row.phone).toBe('(212) 555-1000');
    expect(row.full_name).not.toBe('James Smith');
    expect(row.email).not.toContain('@example.com');

    const found = await findings();
    expect(found.find((f) => f.pii_type === 'phone')).toMatchObject({ excluded: true, transformed: false });
    expect(found.find((f) => f.pii_type === 'name')).toMatchObject({ transformed: true });
    const { session, ...c } = await sessionCounts();
    expect(c).toMatchObject({ findings: found.length, excluded: 1, transformed: found.length - 1, pending: 0, without_action: 0, compliance_score: 100 });
    expect(session).toMatchObject({ transformed: found.length - 1, pending: 0 });
    await expectPolicyAgrees(c);

    const report = await owner.client.get(`/api/privacy/sessions/${sessionId}/report`);
    expect(report.status).toBe(200);
    const text = pdfText((await owner.client.get(report.body.download_url)).raw!).replace(/\s+/g, ' ');
    expect(text).toMatch(new RegExp(`findings ${c.findings}\\b`));
    expect(text).toMatch(new RegExp(`transformed ${c.transformed}\\b`));
    expect(text).toMatch(/pending 0\b/);
    expect(text).toMatch(/excluded for this session 1\b/);
    expect(text).toContain('compliance score 100%');
  });

  it('takes an exclusion back and an action back to the policy with false and null', async () => {
    const found = await findings();
    const phone = found.find((f) => f.pii_type === 'phone')!;
    const name = found.find((f) => f.pii_type === 'name')!;
    const back = await owner.client.put(`/api/privacy/sessions/${sessionId}/findings/${phone.id}`, { excluded: false });
    expect(back.body.result).toMatchObject({ excluded: false });
    const policyAgain = await owner.client.put(`/api/privacy/sessions/${sessionId}/findings/${name.id}`, { action: null });
    expect(policyAgain.body.result).toMatchObject({ action_override: null, action: null });
    const { session, ...c } = await sessionCounts();
    expect(c).toMatchObject({ excluded: 0, pending: 1, transformed: found.length - 1 });
    expect(session.pending).toBe(1);
    await expectPolicyAgrees(c);
  });
});

describe('hostile input', () => {
  const url = (fid: string, sid = sessionId) => `/api/privacy/sessions/${sid}/findings/${fid}`;

  it('answers 422 to wrong types, unknown actions, NUL characters, big integers, an empty or unknown body', async () => {
    const [f] = await findings();
    for (const body of [{ excluded: 'yes' }, { excluded: 1 }, { excluded: 2 ** 31 }, { action: 'shred' }, { action: 'mask\u0000' }, { action: 5 }, {}, { excluded: true, pii_type: 'email' }, []]) {
      const r = await owner.client.put(url(f.id), body);
      expect([r.status, body]).toEqual([422, body]);
      expect(r.body.detail).toEqual(expect.any(Array));
    }
    expect((await owner.client.put(url('not-a-uuid'), { excluded: true })).status).toBe(422);
    expect((await owner.client.put(url(f.id, '2147483648'), { excluded: true })).status).toBe(422);
    expect((await owner.client.put(url(f.id), undefined)).status).toBe(422);
  });

  it("answers 404 for another session's finding, an unknown one, and another user's", async () => {
    const [f] = await findings();
    const other = (await owner.client.post('/api/privacy/sessions', { policy_id: policyId, dataset_id: datasetId })).body.id;
    expect(await owner.client.put(url(f.id, other), { excluded: true })).toMatchObject({ status: 404, body: { detail: 'Finding not found' } });
    expect(await owner.client.put(url('00000000-0000-4000-8000-000000000000'), { excluded: true })).toMatchObject({ status: 404, body: { detail: 'Finding not found' } });
    expect(await stranger.client.put(url(f.id), { excluded: true })).toMatchObject({ status: 404, body: { detail: 'Session not found' } });
    expect((await findings()).find((x) => x.id === f.id)!.excluded).toBe(false);
  });

  it('needs CSRF with a cookie, write:privacy with a key, and the editor role', async () => {
    const [f] = await findings();
    owner.client.sendCsrf = false;
    try {
      expect(await owner.client.put(url(f.id), { excluded: true })).toMatchObject({ status: 403, body: { detail: 'CSRF token missing or invalid' } });
    } finally {
      owner.client.sendCsrf = true;
    }
    const key = await owner.client.post('/api/auth/api-keys', { name: 'privacy reader', scopes: ['read:privacy'] });
    const reader = owner.client.withKey(key.body.api_key);
    expect((await reader.get(`/api/privacy/sessions/${sessionId}/results`)).status).toBe(200);
    expect(await reader.put(url(f.id), { excluded: true })).toMatchObject({ status: 403, body: { detail: 'Insufficient scope' } });
    const viewer = await signUp(stack.baseUrl, stack.mail);
    await addMember(owner.client, viewer, projectId, 'viewer');
    expect((await viewer.client.get(`/api/privacy/sessions/${sessionId}`)).status).toBe(200);
    expect((await viewer.client.put(url(f.id), { excluded: true })).status).toBe(403);
    expect((await findings()).find((x) => x.id === f.id)!.excluded).toBe(false);
  });
});
