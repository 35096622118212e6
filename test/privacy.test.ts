import { detectColumns } from '../engine/privacy';
import { addMember, ApiClient, createProject, eventually, signUp } from './support/client';
import { pdfText } from './support/documents';
import { startStack, TestStack } from './support/stack';

/**
 * The privacy suite through HTTP on the real stack: the catalogues, policies and rules, a
 * detect-then-transform session on a table of mixed PII whose output holds none of the types
 * the policy transforms (checked by running the engine's detection on the downloaded file), a
 * canceled transform that keeps no file, other users' ids, and hostile input.
 */
let stack: TestStack;
let owner: Awaited<ReturnType<typeof signUp>>;
let stranger: Awaited<ReturnType<typeof signUp>>;
let projectId: string;
let otherProjectId: string;
let datasetId: string;
let versionId: string;
let bigDatasetId: string;
let foreignDatasetId: string;

const FIRST = ['James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'David', 'Elizabeth'];
const LAST = ['Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Wilson', 'Moore'];

/** A Luhn-valid number from its first digits. */
function luhn(base: string): string {
  let sum = 0;
  for (let i = 0; i < base.length; i++) {
    let d = Number(base[base.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return base + ((10 - (sum % 10)) % 10);
}

/** Mixed PII: names, emails, phones, SSNs, cards, IPs, birth dates, a free-text column holding emails, and an amount that is not PII. */
function piiCsv(n: number): string {
  const lines = ['full_name,email,phone,ssn,card,ip,dob,amount,notes'];
  for (let i = 0; i < n; i++) {
    const f = FIRST[i % 10];
    const l = LAST[(i * 3 + Math.floor(i / 10)) % 10];
    lines.push(
      [
        `${f} ${l}`,
        `${f.toLowerCase()}.${l.toLowerCase()}${i}@example.com`,
        `(212) 555-${String(1000 + ((i * 37) % 9000)).slice(-4)}`,
        `${String(123 + (i % 600)).padStart(3, '0')}-${String(10 + (i % 80)).padStart(2, '0')}-${String(1000 + ((i * 91) % 9000)).slice(-4)}`,
        luhn(`411111111${String(100000 + (i % 900000)).slice(-6)}`),
        `192.168.${i % 200}.${((i * 7) % 250) + 1}`,
        `19${60 + (i % 30)}-0${1 + (i % 9)}-1${i % 9}`,
        ((i * 13.7) % 1000).toFixed(2),
        `"Customer called about order ${1000 + i}, reach ${f.toLowerCase()}${i}@mail.org"`,
      ].join(','),
    );
  }
  return lines.join('\n') + '\n';
}

/** RFC 4180 rows (quoted fields with commas and doubled quotes). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endRow = () => {
    row.push(field);
    rows.push(row);
    row = [];
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n') endRow();
    else if (c !== '\r') field += c;
  }
  if (field || row.length) endRow();
  return rows;
}

async function upload(client: ApiClient, pid: string, name: string, csv: string): Promise<{ id: string; version: string }> {
  const r = await client.upload('/api/datasets/upload', { project_id: pid, name }, { name: `${name}.csv`, data: csv });
  if (r.status !== 201) throw new Error(`upload failed ${r.status} ${JSON.stringify(r.body)}`);
  return { id: r.body.id ?? r.body.dataset_id, version: r.body.dataset_version_id };
}

async function settled(sessionId: string, statuses: string[], timeoutMs = 120_000) {
  return eventually(async () => {
    const s = (await owner.client.get(`/api/privacy/sessions/${sessionId}`)).body.session;
    return statuses.includes(s.status) ? s : undefined;
  }, timeoutMs);
}

async function newPolicy(body: Record<string, unknown> = {}): Promise<string> {
  const r = await owner.client.post('/api/privacy/policies', { project_id: projectId, name: 'Policy', ...body });
  expect(r.status).toBe(201);
  return r.body.id;
}

beforeAll(async () => {
  stack = await startStack();
  owner = await signUp(stack.baseUrl, stack.mail);
  stranger = await signUp(stack.baseUrl, stack.mail);
  projectId = await createProject(owner.client, 'Private');
  otherProjectId = await createProject(owner.client, 'Elsewhere');
  const mixed = await upload(owner.client, projectId, 'customers', piiCsv(120));
  datasetId = mixed.id;
  versionId = mixed.version;
  bigDatasetId = (await upload(owner.client, projectId, 'customers-big', piiCsv(40_000))).id;
  foreignDatasetId = (await upload(owner.client, otherProjectId, 'foreign', piiCsv(5))).id;
}, 300_000);
afterAll(async () => {
  await stack?.stop();
});

describe('catalogues', () => {
  it('lists the PII types, the seven actions and the profiles', async () => {
    const types = (await owner.client.get('/api/privacy/pii-types')).body.types as { id: string; name: string }[];
    expect(types.length).toBeGreaterThanOrEqual(72);
    for (const id of ['email', 'phone', 'ssn', 'credit_card', 'name', 'address', 'date_of_birth', 'ip_address', 'medical_record_number']) expect(types.map((t) => t.id)).toContain(id);
    const actions = (await owner.client.get('/api/privacy/actions')).body.actions as { id: string }[];
    expect(actions.map((a) => a.id).sort()).toEqual(['encrypt', 'generalize', 'hash', 'mask', 'pseudonymize', 'redact', 'suppress']);
    const profiles = (await owner.client.get('/api/privacy/profiles')).body.profiles as { id: string; pii_types: string[]; default_action: string }[];
    expect(profiles.map((p) => p.id).sort()).toEqual(['ccpa', 'custom', 'gdpr', 'hipaa', 'pci_dss']);
    const hipaa = profiles.find((p) => p.id === 'hipaa')!;
    expect(hipaa.pii_types).toHaveLength(18);
    expect(hipaa.default_action).toBe('redact');
  });

  it('needs read:privacy with an API key', async () => {
    const key = await owner.client.post('/api/auth/api-keys', { name: 'studio only', scopes: ['read:studio'] });
    expect(key.status).toBe(201);
    const c = owner.client.withKey(key.body.api_key);
    expect((await c.get('/api/privacy/actions')).status).toBe(403);
    const reader = await owner.client.post('/api/auth/api-keys', { name: 'privacy reader', scopes: ['read:privacy'] });
    const r = owner.client.withKey(reader.body.api_key);
    expect((await r.get('/api/privacy/actions')).status).toBe(200);
    expect((await r.post('/api/privacy/policies', { project_id: projectId, name: 'x' })).status).toBe(403);
  });
});

describe('policies and rules', () => {
  it('creates, reads, lists, changes and deletes a policy', async () => {
    const created = await owner.client.post('/api/privacy/policies', { project_id: projectId, name: 'HIPAA export', description: 'for research', profile: 'hipaa', settings: { owner: 'data team' } });
    expect(created.status).toBe(201);
    expect(created.body.policy_id).toBe(created.body.id);
    const id = created.body.id;
    const got = await owner.client.get(`/api/privacy/policies/${id}`);
    expect(got.status).toBe(200);
    expect(got.body.policy).toMatchObject({
      id,
      name: 'HIPAA export',
      profile: 'hipaa',
      status: 'draft',
      project_name: 'Private',
      rules_count: 0,
      compliance_score: null,
      settings: { owner: 'data team' },
    });
    expect(got.body.rules).toEqual([]);

    expect((await owner.client.patch(`/api/privacy/policies/${id}`, { status: 'active', name: 'HIPAA' })).body).toEqual({ ok: true });
    const changed = (await owner.client.get(`/api/privacy/policies/${id}`)).body.policy;
    expect(changed).toMatchObject({ name: 'HIPAA', status: 'active', description: 'for research', profile: 'hipaa' });

    const active = await owner.client.get(`/api/privacy/policies?project_id=${projectId}&status=active`);
    expect(active.body.items.map((p: { id: string }) => p.id)).toContain(id);
    expect((await owner.client.get(`/api/privacy/policies?project_id=${projectId}&status=draft`)).body.items.map((p: { id: string }) => p.id)).not.toContain(id);
    const all = await owner.client.get('/api/privacy/policies?limit=1');
    expect(all.body).toMatchObject({ limit: 1, offset: 0 });
    expect(all.body.total).toBeGreaterThanOrEqual(1);
    expect((await owner.client.get('/api/privacy/policies?limit=501')).status).toBe(422);
    expect((await stranger.client.get('/api/privacy/policies')).body.total).toBe(0);

    expect((await owner.client.del(`/api/privacy/policies/${id}`)).body).toEqual({ ok: true });
    expect((await owner.client.get(`/api/privacy/policies/${id}`)).body.detail).toBe('Policy not found');
  });

  it('adds, lists, changes and deletes rules; a rule of another policy is not found', async () => {
    const id = await newPolicy();
    const a = await owner.client.post(`/api/privacy/policies/${id}/rules`, { pii_type: 'email', action: 'mask', priority: 1, config: { char: '#', visible: 2 } });
    expect(a.status).toBe(201);
    expect(a.body.rule_id).toBe(a.body.id);
    const b = await owner.client.post(`/api/privacy/policies/${id}/rules`, { pii_type: 'ssn', action: 'redact', priority: 5 });
    const rules = (await owner.client.get(`/api/privacy/policies/${id}/rules`)).body.rules;
    expect(rules.map((r: { id: string }) => r.id)).toEqual([b.body.id, a.body.id]);
    expect(rules[1]).toMatchObject({ policy_id: id, pii_type: 'email', action: 'mask', is_enabled: true, enabled: true, priority: 1, config: { char: '#', visible: 2 } });
    expect((await owner.client.get(`/api/privacy/policies/${id}`)).body.policy.rules_count).toBe(2);

    const patched = await owner.client.patch(`/api/privacy/policies/${id}/rules/${a.body.id}`, { is_enabled: false, action: 'hash', config: { length: 16 } });
    expect(patched.status).toBe(200);
    expect(patched.body.rule).toMatchObject({ action: 'hash', is_enabled: false, enabled: false, config: { length: 16 } });

    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const r of [await owner.client.patch(`/api/privacy/policies/${id}/rules/${unknown}`, { priority: 1 }), await owner.client.del(`/api/privacy/policies/${id}/rules/${unknown}`)]) {
      expect(r.status).toBe(404);
      expect(r.body.detail).toBe('Rule not found');
    }
    const other = await newPolicy();
    const elsewhere = await owner.client.del(`/api/privacy/policies/${other}/rules/${a.body.id}`);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.detail).toBe('Rule not found');

    expect((await owner.client.del(`/api/privacy/policies/${id}/rules/${a.body.id}`)).body).toEqual({ ok: true });
    expect((await owner.client.get(`/api/privacy/policies/${id}/rules`)).body.rules).toHaveLength(1);
  });

  it("hides another user's policy", async () => {
    const id = await newPolicy();
    for (const r of [
      await stranger.client.get(`/api/privacy/policies/${id}`),
      await stranger.client.patch(`/api/privacy/policies/${id}`, { name: 'mine' }),
      await stranger.client.del(`/api/privacy/policies/${id}`),
      await stranger.client.get(`/api/privacy/policies/${id}/rules`),
      await stranger.client.post(`/api/privacy/policies/${id}/rules`, { pii_type: 'email', action: 'redact' }),
      await stranger.client.post('/api/privacy/sessions', { policy_id: id, dataset_id: datasetId }),
    ]) {
      expect(r.status).toBe(404);
      expect(r.body.detail).toBe('Policy not found');
    }
    expect((await stranger.client.get(`/api/privacy/policies?project_id=${projectId}`)).status).toBe(404);
  });

  it('refuses hostile input with 422', async () => {
    const id = await newPolicy();
    const nul = await owner.client.post('/api/privacy/policies', { project_id: projectId, name: 'a\u0000b' });
    expect(nul.status).toBe(422);
    expect(JSON.stringify(nul.body.detail)).toContain('name');
    expect((await owner.client.post('/api/privacy/policies', { project_id: projectId, name: '   ' })).status).toBe(422);
    expect((await owner.client.post('/api/privacy/policies', { project_id: projectId, name: 'x', profile: 'sox' })).status).toBe(422);
    expect((await owner.client.post(`/api/privacy/policies/${id}/rules`, { pii_type: 'email', action: 'mask', config: { char: '\u0000' } })).status).toBe(422);

    const unknownType = await owner.client.post(`/api/privacy/policies/${id}/rules`, { pii_type: 'shoe_size', action: 'mask' });
    expect(unknownType.status).toBe(422);
    expect(JSON.stringify(unknownType.body.detail)).toContain('shoe_size');
    expect((await owner.client.post(`/api/privacy/policies/${id}/rules`, { pii_type: 'email', action: 'obliterate' })).status).toBe(422);
    for (const priority of [2 ** 31, 2 ** 53 + 2, 1e300, 1.5])
      expect((await owner.client.post(`/api/privacy/policies/${id}/rules`, { pii_type: 'email', action: 'redact', priority })).status).toBe(422);

    const badConfigs: [string, Record<string, unknown>, string][] = [
      ['mask', { visible: -1 }, 'visible'],
      ['mask', { char: '**' }, 'char'],
      ['mask', { colour: 'red' }, 'colour'],
      ['hash', { length: 4 }, 'length'],
      ['hash', { algorithm: 'md5' }, 'algorithm'],
      ['generalize', { date_to: 'decade' }, 'date_to'],
      ['generalize', { grid_degrees: 2 ** 60 }, 'grid_degrees'],
      ['suppress', { scope: 'table' }, 'scope'],
      ['encrypt', { key: 'mine' }, 'key'],
    ];
    for (const [action, config, field] of badConfigs) {
      const r = await owner.client.post(`/api/privacy/policies/${id}/rules`, { pii_type: 'email', action, config });
      expect(r.status).toBe(422);
      expect(r.body.detail[0].loc).toEqual(['body', 'config', field]);
    }
    const rule = await owner.client.post(`/api/privacy/policies/${id}/rules`, { pii_type: 'email', action: 'mask' });
    expect((await owner.client.patch(`/api/privacy/policies/${id}/rules/${rule.body.id}`, { config: { visible: 1000 } })).status).toBe(422);
    expect((await owner.client.get(`/api/privacy/policies/${id}/rules`)).body.rules.filter((r: { id: string }) => r.id === rule.body.id)[0].config).toEqual({});

    expect((await owner.client.post('/api/privacy/sessions', { policy_id: id, dataset_id: datasetId, sample_size: 2 ** 31 })).status).toBe(422);
    expect((await owner.client.post('/api/privacy/sessions', { policy_id: id, dataset_id: datasetId, sample_size: 0 })).status).toBe(422);
    expect((await owner.client.get('/api/privacy/sessions?offset=99999999999')).status).toBe(422);
    expect((await owner.client.get(`/api/privacy/policies/not-a-uuid`)).status).toBe(422);
  });
});

describe('free-form JSON fields', () => {
  /** `{"a":{"a":…{}}}`, `depth` objects deep, as text (JSON.stringify itself overflows on deep enough values). */
  const nested = (depth: number) => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);
  const send = (method: string, path: string, text: string) => owner.client.request(method, path, undefined, { rawBody: text, headers: { 'content-type': 'application/json' } });
  const policies = async () => (await stack.ds.query('SELECT count(*)::int AS n FROM privacy_policies'))[0].n;

  it('refuses policy settings nested past 32 levels or over 64 KiB with 422 and saves nothing; shallower settings are kept as sent', async () => {
    const before = await policies();
    for (const depth of [3000, 2000, 40]) {
      const r = await send('POST', '/api/privacy/policies', `{"project_id":"${projectId}","name":"deep","settings":{"s":${nested(depth)}}}`);
      expect([depth, r.status]).toEqual([depth, 422]);
      expect(r.body.detail).toEqual([{ loc: ['body', 'settings', 's', ...Array<string>(30).fill('a')], msg: 'JSON may nest at most 32 levels', type: 'json_too_deep' }]);
    }
    const big = await owner.client.post('/api/privacy/policies', { project_id: projectId, name: 'big', settings: { s: 'x'.repeat(70_000) } });
    expect(big.status).toBe(422);
    expect(big.body.detail).toEqual([{ loc: ['body', 'settings'], msg: 'At most 64 KiB as JSON', type: 'custom' }]);
    expect(await policies()).toBe(before);

    const id = await newPolicy({ settings: { kept: true } });
    expect((await send('PATCH', `/api/privacy/policies/${id}`, `{"settings":{"s":${nested(3000)}}}`)).status).toBe(422);
    expect((await owner.client.get(`/api/privacy/policies/${id}`)).body.policy.settings).toEqual({ kept: true });

    const fine = await send('POST', '/api/privacy/policies', `{"project_id":"${projectId}","name":"nested","settings":{"s":${nested(30)}}}`);
    expect(fine.status).toBe(201);
    expect((await owner.client.get(`/api/privacy/policies/${fine.body.id}`)).body.policy.settings).toEqual({ s: JSON.parse(nested(30)) });
  });
});

describe('sessions', () => {
  let policyId: string;
  let sessionId: string;
  /** The types the policy transforms, each with an action that leaves nothing detectable. */
  const RULES: [string, string, Record<string, unknown>][] = [
    ['name', 'hash', { length: 12, prefix: 'n_' }],
    ['email', 'hash', {}],
    ['phone', 'mask', { visible: 0 }],
    ['ssn', 'redact', {}],
    ['credit_card', 'mask', { char: 'X', visible: 4 }],
    ['ip_address', 'encrypt', {}],
    ['date_of_birth', 'suppress', {}],
  ];

  beforeAll(async () => {
    policyId = await newPolicy({ name: 'Customer export' });
    for (const [pii_type, action, config] of RULES) expect((await owner.client.post(`/api/privacy/policies/${policyId}/rules`, { pii_type, action, config })).status).toBe(201);
    // A lower-priority enabled rule and a disabled one of the same type change nothing.
    await owner.client.post(`/api/privacy/policies/${policyId}/rules`, { pii_type: 'email', action: 'pseudonymize', priority: -1 });
    await owner.client.post(`/api/privacy/policies/${policyId}/rules`, { pii_type: 'phone', action: 'pseudonymize', priority: 10, is_enabled: false });
  });

  it('refuses a session without a dataset, with a dataset of another project, or of an unknown policy', async () => {
    const none = await owner.client.post('/api/privacy/sessions', { policy_id: policyId });
    expect(none.status).toBe(422);
    expect(none.body.detail).toBe('dataset_id or dataset_version_id is required');
    const foreign = await owner.client.post('/api/privacy/sessions', { policy_id: policyId, dataset_id: foreignDatasetId });
    expect(foreign.status).toBe(422);
    expect(foreign.body.detail).toBe('Dataset must belong to the same project as the policy');
    expect((await owner.client.post('/api/privacy/sessions', { policy_id: policyId, dataset_id: datasetId, project_id: otherProjectId })).status).toBe(422);
    expect((await owner.client.post('/api/privacy/sessions', { policy_id: '00000000-0000-4000-8000-000000000000', dataset_id: datasetId })).body.detail).toBe('Policy not found');
    expect((await stranger.client.post('/api/privacy/sessions', { policy_id: policyId, dataset_id: foreignDatasetId })).status).toBe(404);
  });

  it('detects the mixed PII of a dataset version', async () => {
    const created = await owner.client.post('/api/privacy/sessions', { policy_id: policyId, dataset_version_id: versionId, project_id: projectId, deep_scan: true });
    expect(created.status).toBe(201);
    sessionId = created.body.session_id;
    const fresh = (await owner.client.get(`/api/privacy/sessions/${sessionId}`)).body.session;
    expect(fresh).toMatchObject({ id: sessionId, status: 'created', policy_name: 'Customer export', dataset_name: 'customers', pii_found: 0, output_artifact_id: null, deep_scan: true });

    const early = await owner.client.get(`/api/privacy/sessions/${sessionId}/download`);
    expect(early.status).toBe(404);
    expect(early.body.detail).toBe('Anonymized output not found');

    const d = await owner.client.post(`/api/privacy/sessions/${sessionId}/detect`);
    expect(d.status).toBe(200);
    expect(d.body).toMatchObject({ session_id: sessionId, status: 'detecting' });
    expect(typeof d.body.job_id).toBe('string');
    const s = await settled(sessionId, ['detected', 'failed', 'canceled']);
    expect(s).toMatchObject({ status: 'detected', rows_scanned: 120, columns_analyzed: 9, progress: 100 });
    expect(s.pii_columns).toBeGreaterThanOrEqual(8);
    expect(s.pii_instances).toBeGreaterThanOrEqual(8 * 120 * 0.9);

    const results = (await owner.client.get(`/api/privacy/sessions/${sessionId}/results`)).body.results as {
      column: string;
      pii_type: string;
      confidence: number;
      action: string | null;
      sample: string;
      samples: string[];
      transformed: boolean;
    }[];
    const found = Object.fromEntries(results.map((r) => [`${r.column}:${r.pii_type}`, r]));
    for (const key of ['full_name:name', 'email:email', 'phone:phone', 'ssn:ssn', 'card:credit_card', 'ip:ip_address', 'dob:date_of_birth', 'notes:email']) expect(found[key]).toBeDefined();
    expect(results.some((r) => r.column === 'amount')).toBe(false);
    expect(found['email:email'].action).toBe('hash');
    expect(found['phone:phone'].action).toBe('mask');
    // Samples are masked: no sampled email is readable.
    expect(found['email:email'].samples.join(' ')).not.toMatch(/[a-z]+\.[a-z]+\d+@example\.com/);
    expect(found['email:email'].sample).toBe(found['email:email'].samples[0]);
    expect(results.every((r) => r.transformed === false)).toBe(true);

    const high = (await owner.client.get(`/api/privacy/sessions/${sessionId}/results?confidence=high`)).body.results as { confidence: number }[];
    expect(high.length).toBeGreaterThan(0);
    expect(high.every((r) => r.confidence >= 0.9)).toBe(true);
    const low = (await owner.client.get(`/api/privacy/sessions/${sessionId}/results?confidence=low`)).body.results as { confidence: number }[];
    expect(low.every((r) => r.confidence < 0.7)).toBe(true);
    const emails = (await owner.client.get(`/api/privacy/sessions/${sessionId}/results?pii_type=email`)).body.results as { pii_type: string }[];
    expect(emails.map((r) => r.pii_type)).toEqual(['email', 'email']);

    const policy = (await owner.client.get(`/api/privacy/policies/${policyId}`)).body.policy;
    // The policy's figures count its latest session's findings, as the session does (services/privacy/finding-counts.ts).
    expect(policy.detected_count).toBe(results.length);
    expect(policy.protected_count).toBe(results.filter((r) => r.action).length);
    expect(policy.pending_count).toBe(results.length);
    expect(policy.compliance_score).toBeCloseTo((100 * policy.protected_count) / policy.detected_count, 0);

    const listed = await owner.client.get(`/api/privacy/sessions?policy_id=${policyId}`);
    expect(listed.body.items[0]).toMatchObject({ id: sessionId, policy_name: 'Customer export', dataset_name: 'customers', status: 'detected', pii_found: results.length, transformed: 0 });
    expect((await owner.client.get(`/api/privacy/sessions?project_id=${projectId}&limit=500`)).body.total).toBeGreaterThanOrEqual(1);
    expect((await owner.client.get('/api/privacy/sessions?limit=501')).status).toBe(422);
  });

  it('transforms the version into a new artifact with none of the enabled types left, and leaves the source as it was', async () => {
    const t = await owner.client.post(`/api/privacy/sessions/${sessionId}/transform`);
    expect(t.status).toBe(200);
    expect(t.body).toMatchObject({ session_id: sessionId, status: 'transforming' });
    const s = await settled(sessionId, ['completed', 'failed', 'canceled']);
    expect(s.status).toBe('completed');
    expect(s.output_artifact_id).toEqual(expect.any(String));
    expect(s.transformed).toBeGreaterThanOrEqual(8);

    const dl = await owner.client.get(`/api/privacy/sessions/${sessionId}/download`);
    expect(dl.status).toBe(302);
    expect(dl.headers.get('location')).toBe(`/api/artifacts/${s.output_artifact_id}/download`);
    const file = await owner.client.get(dl.headers.get('location')!);
    expect(file.status).toBe(200);
    const [header, ...rows] = parseCsv(file.raw!.toString('utf8'));
    expect(header).toEqual(['full_name', 'email', 'phone', 'ssn', 'card', 'ip', 'dob', 'amount', 'notes']);
    expect(rows).toHaveLength(120);
    const columns = header.map((name, i) => ({ name, values: rows.map((r) => r[i]) }));
    const left = detectColumns(columns, { deepScan: true }).filter((f) => RULES.some(([type]) => type === f.piiType));
    expect(left).toEqual([]);
    // What the rules made of the values.
    const col = (name: string) => columns.find((c) => c.name === name)!.values;
    expect(col('ssn').every((v) => v === '[REDACTED]')).toBe(true);
    expect(col('dob').every((v) => v === '')).toBe(true);
    expect(col('card').every((v) => /^X{12}\d{4}$/.test(v))).toBe(true);
    expect(col('ip').every((v) => v.startsWith('enc:v1:'))).toBe(true);
    expect(col('full_name').every((v) => /^n_[0-9a-f]{12}$/.test(v))).toBe(true);
    expect(col('notes')[0]).toMatch(/^Customer called about order 1000, reach [0-9a-f]{64}$/);
    expect(col('amount')[1]).toBe('13.7'); // a float64 column, written as DuckDB spells it

    const results = (await owner.client.get(`/api/privacy/sessions/${sessionId}/results`)).body.results as { column: string; pii_type: string; transformed: boolean; action: string | null }[];
    expect(results.filter((r) => r.action).every((r) => r.transformed)).toBe(true);

    // The source version is untouched: its preview still holds the original values.
    const preview = await owner.client.get(`/api/datasets/${datasetId}`);
    expect(JSON.stringify(preview.body)).toContain('james.smith0@example.com');
  });

  it('reports a completed session as a PDF artifact, and not before', async () => {
    const r = await owner.client.get(`/api/privacy/sessions/${sessionId}/report`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ artifact_id: expect.any(String), download_url: `/api/artifacts/${r.body.artifact_id}/download` });
    const pdf = await owner.client.get(r.body.download_url);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const text = pdfText(pdf.raw!);
    for (const words of ['Privacy report: customers', 'Summary', 'Findings', 'credit_card', 'compliance score']) expect(text).toContain(words);
    expect(text).not.toContain('james.smith0@example.com');
    const fresh = await owner.client.post('/api/privacy/sessions', { policy_id: policyId, dataset_id: datasetId });
    expect(await owner.client.get(`/api/privacy/sessions/${fresh.body.id}/report`)).toMatchObject({ status: 404, body: { detail: 'Privacy report not available until the session is completed' } });
    expect((await stranger.client.get(`/api/privacy/sessions/${sessionId}/report`)).status).toBe(404);
  });

  it('renders a report once and serves the stored file after: concurrent calls, a viewer and repeated calls add no artifact (issue 27)', async () => {
    const viewer = await signUp(stack.baseUrl, stack.mail);
    await addMember(owner.client, viewer, projectId, 'viewer');
    const reports = async () =>
      (await stack.ds.query("SELECT count(*)::int AS n FROM artifacts WHERE kind = 'privacy_report' AND owner_type = 'privacy_session' AND owner_id = $1", [sessionId]))[0].n as number;
    const url = `/api/privacy/sessions/${sessionId}/report`;
    const before = await reports();
    const concurrent = await Promise.all([owner.client.get(url), owner.client.get(url), viewer.client.get(url)]);
    const again = [await owner.client.get(url), await viewer.client.get(url)];
    const ids = [...concurrent, ...again].map((r) => {
      expect(r.status).toBe(200);
      return r.body.artifact_id as string;
    });
    expect(new Set(ids).size).toBe(1);
    // The earlier test's call may have stored this content already; at most one file is new.
    expect((await reports()) - before).toBeLessThanOrEqual(1);
    const pdf = await viewer.client.get(`/api/artifacts/${ids[0]}/download`);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdfText(pdf.raw!)).toContain('Privacy report: customers');

    // Another content (AI insights asked for) is another file, made once too.
    const stored = await reports();
    const withInsights = await Promise.all([owner.client.get(`${url}?ai_insights=true`), viewer.client.get(`${url}?ai_insights=true`)]);
    expect(withInsights[0].body.artifact_id).toBe(withInsights[1].body.artifact_id);
    expect(withInsights[0].body.artifact_id).not.toBe(ids[0]);
    expect((await owner.client.get(`${url}?ai_insights=true`)).body.artifact_id).toBe(withInsights[0].body.artifact_id);
    expect(await reports()).toBe(stored + 1);
    expect((await owner.client.get(url)).body.artifact_id).toBe(ids[0]);
  });

  it("hides another user's session", async () => {
    for (const path of ['', '/results', '/download']) {
      const r = await stranger.client.get(`/api/privacy/sessions/${sessionId}${path}`);
      expect(r.status).toBe(404);
      expect(r.body.detail).toBe('Session not found');
    }
    for (const path of ['/detect', '/transform']) expect((await stranger.client.post(`/api/privacy/sessions/${sessionId}${path}`)).body.detail).toBe('Session not found');
    expect((await stranger.client.get(`/api/privacy/sessions?policy_id=${policyId}`)).body.total).toBe(0);
  });

  it('a rule-less hipaa policy falls back to its default action', async () => {
    const hipaa = await newPolicy({ name: 'Rule-less', profile: 'hipaa' });
    const s = await owner.client.post('/api/privacy/sessions', { policy_id: hipaa, dataset_id: datasetId, sample_size: 50 });
    await owner.client.post(`/api/privacy/sessions/${s.body.id}/detect`);
    expect(await settled(s.body.id, ['detected', 'failed', 'canceled'])).toMatchObject({ status: 'detected', rows_scanned: 50 });
    const results = (await owner.client.get(`/api/privacy/sessions/${s.body.id}/results`)).body.results as { pii_type: string; action: string | null }[];
    expect(results.find((r) => r.pii_type === 'ssn')?.action).toBe('redact');
    expect(results.find((r) => r.pii_type === 'credit_card')?.action).toBe('redact');
  });

  it('a canceled transform keeps no artifact', async () => {
    const s = await owner.client.post('/api/privacy/sessions', { policy_id: policyId, dataset_id: bigDatasetId, sample_size: 300, deep_scan: true });
    const t = await owner.client.post(`/api/privacy/sessions/${s.body.id}/transform`);
    expect(t.status).toBe(200);
    await eventually(async () => (await owner.client.get(`/api/jobs/${t.body.job_id}`)).body.job.status === 'running', 60_000, 50);
    // A second job while one is open is a conflict.
    expect((await owner.client.post(`/api/privacy/sessions/${s.body.id}/detect`)).status).toBe(409);
    expect((await owner.client.post(`/api/jobs/${t.body.job_id}/cancel`)).body).toEqual({ ok: true });
    const done = await settled(s.body.id, ['completed', 'failed', 'canceled']);
    expect(done.status).toBe('canceled');
    // The activity stops at its next heartbeat; whenever it ends, it links and keeps nothing.
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const artifacts = await stack.ds.query(`SELECT id FROM artifacts WHERE owner_id = $1`, [s.body.id]);
      expect(artifacts).toEqual([]);
      await new Promise((r) => setTimeout(r, 1000));
    }
    const after = (await owner.client.get(`/api/privacy/sessions/${s.body.id}`)).body.session;
    expect(after).toMatchObject({ status: 'canceled', output_artifact_id: null });
    expect((await owner.client.get(`/api/privacy/sessions/${s.body.id}/download`)).body.detail).toBe('Anonymized output not found');
    // A canceled session can run again.
    expect((await owner.client.post(`/api/privacy/sessions/${s.body.id}/detect`)).status).toBe(200);
  }, 180_000);
});

describe('POST /api/anonymize/stream', () => {
  const RULES: [string, string, Record<string, unknown>][] = [
    ['email', 'redact', {}],
    ['ssn', 'redact', {}],
    ['credit_card', 'mask', { char: 'X', visible: 4 }],
    ['phone', 'mask', { visible: 0 }],
  ];
  let policyId: string;

  beforeAll(async () => {
    policyId = await newPolicy({ name: 'Streamed' });
    for (const [pii_type, action, config] of RULES) expect((await owner.client.post(`/api/privacy/policies/${policyId}/rules`, { pii_type, action, config })).status).toBe(201);
  });

  const post = (c: ApiClient, query: string, body: string | Buffer, type = 'text/csv') => c.post(`/api/anonymize/stream?${query}`, undefined, { headers: { 'content-type': type }, rawBody: body });

  it('answers the CSV with the enabled types transformed, every row in order, the source columns kept', async () => {
    const r = await post(owner.client, `policy_id=${policyId}&deep_scan=true`, piiCsv(1500));
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const found = JSON.parse(r.headers.get('x-anonymize-columns')!) as { column: string; pii_type: string }[];
    expect(found).toEqual(
      expect.arrayContaining([
        { column: 'email', pii_type: 'email' },
        { column: 'ssn', pii_type: 'ssn' },
      ]),
    );
    const [header, ...rows] = parseCsv(r.raw!.toString('utf8'));
    expect(header).toEqual(['full_name', 'email', 'phone', 'ssn', 'card', 'ip', 'dob', 'amount', 'notes']);
    expect(rows).toHaveLength(1500);
    const col = (name: string) => rows.map((row) => row[header.indexOf(name)]);
    expect(col('amount')[1]).toBe('13.70'); // not PII: the text as sent
    expect(col('ssn').every((v) => v === '[REDACTED]')).toBe(true);
    expect(col('card').every((v) => /^X{12}\d{4}$/.test(v))).toBe(true);
    // Rows past the sample are transformed by the same plan.
    expect(col('email')[1499]).toBe('[REDACTED]');
    expect(col('notes')[1499]).toMatch(/^Customer called about order 2499, reach \[REDACTED\]$/);
    const left = detectColumns(
      header.map((name, i) => ({ name, values: rows.map((row) => row[i]) })),
      { deepScan: true },
    ).filter((f) => RULES.some(([type]) => type === f.piiType));
    expect(left).toEqual([]);
  });

  it('refuses what is not CSV, the wrong type, and policies the caller cannot reach', async () => {
    expect(await post(owner.client, `policy_id=${policyId}`, '')).toMatchObject({ status: 422, body: { detail: 'The body holds no CSV header' } });
    expect((await post(owner.client, `policy_id=${policyId}`, 'a,b\n"unterminated,1\n')).status).toBe(422);
    expect((await post(owner.client, `policy_id=${policyId}`, 'a,b\n1,2\n', 'application/json')).status).toBe(415);
    expect(await post(stranger.client, `policy_id=${policyId}`, 'a,b\n1,2\n')).toMatchObject({ status: 404, body: { detail: 'Policy not found' } });
    expect((await post(owner.client, 'policy_id=nope', 'a,b\n1,2\n')).status).toBe(422);
    const wide = Array.from({ length: 2001 }, (_, i) => `c${i}`).join(',');
    expect(await post(owner.client, `policy_id=${policyId}`, `${wide}\n${wide}\n`)).toMatchObject({ status: 422, body: { detail: 'The CSV has 2001 columns; at most 2000 are streamed' } });
  });

  it('answers while the body still arrives, every row of a large body', async () => {
    // 20 MB of CSV generated as it is sent; the answer is read as it comes and only counted. (The API's memory on a
    // 1 GB body is measured by bench/anonymize, with the client in another process.)
    const line = '"Jane Roe",jane.roe@example.com,(212) 555-0100,123-45-6789,4111111111111111,10.0.0.1,1970-01-01,12.50,"plain note"\n';
    const total = Math.ceil((20 * 1024 * 1024) / line.length);
    let sent = 0;
    let firstByteWhileSending = -1;
    // Half the body is sent, then the rest waits for the answer's first bytes: a server that answered only after the
    // whole body would never get it (the test fails after a minute). Timing the two sides against each other instead
    // failed once in the full suite, whose loaded client read the answer late.
    let answered: () => void = () => undefined;
    const firstAnswer = new Promise<void>((resolve) => (answered = resolve));
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode('full_name,email,phone,ssn,card,ip,dob,amount,notes\n'));
        const n = Math.min(2000, total - sent);
        if (n <= 0) return controller.close();
        if (sent >= total / 2) {
          const waited = await Promise.race([firstAnswer.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 60_000))]);
          if (!waited) return controller.error(new Error('no answer while the body was arriving'));
        }
        controller.enqueue(new TextEncoder().encode(line.repeat(n)));
        sent += n;
      },
    });
    const cookies = owner.client.cookies;
    const headers: Record<string, string> = { 'content-type': 'text/csv', cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrf-token': cookies.get('csrf_token') ?? '' };
    const res = await fetch(`${stack.baseUrl}/api/anonymize/stream?policy_id=${policyId}`, { method: 'POST', headers, body, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(200);
    let lines = 0;
    const reader = res.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (firstByteWhileSending < 0) {
        firstByteWhileSending = sent < total ? 1 : 0;
        answered();
      }
      for (const b of value) if (b === 10) lines++;
    }
    expect(lines).toBe(total + 1);
    expect(firstByteWhileSending).toBe(1);
  }, 300_000);
});
