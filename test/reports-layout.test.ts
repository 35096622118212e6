import fs from 'node:fs';
import path from 'node:path';
import { ApiClient, createProject, eventually, signUp } from './support/client';
import { docxContent, pdfPageTexts, thinPage } from './support/documents';
import { startStack, TestStack } from './support/stack';
import { trainQuickModels } from './support/trained-models';

/**
 * Report layout and reading through HTTP on the real stack (issue 33): a small project (one dataset, one experiment of
 * two models, one deployment) prints on two pages; no page of any kind's PDF holds only a heading or a single table
 * row (each page read with `pdftotext -f N -l N`); every section has a plain-language reading, the same in HTML, PDF
 * and DOCX; leakage warnings are read out; statistics missing from a version are computed at report time; numbers are
 * written for people. And the report request refuses hostile input with the spec's codes.
 */
const ARTIFACTS = path.join(process.cwd(), 'test-artifacts', 'reports-layout');

let stack: TestStack;
let owner: Awaited<ReturnType<typeof signUp>>;
let stranger: Awaited<ReturnType<typeof signUp>>;
let projectId: string;
let versionId: string;
let experimentId: string;
let modelId: string;
let deploymentId: string;

type Kind = 'project' | 'experiment' | 'model' | 'deployment';
const entityOf = (kind: Kind): string => ({ project: projectId, experiment: experimentId, model: modelId, deployment: deploymentId })[kind];

async function report(c: ApiClient, kind: Kind, options: Record<string, unknown>): Promise<{ id: string; bytes: Buffer }> {
  const r = await c.post('/api/reports', { project_id: projectId, kind, entity_id: entityOf(kind), options });
  if (r.status !== 201) throw new Error(`report refused ${r.status} ${JSON.stringify(r.body)}`);
  const done = await eventually(async () => {
    const g = (await c.get(`/api/reports/${r.body.id}`)).body.report;
    return ['succeeded', 'failed', 'canceled'].includes(g.status) ? g : undefined;
  }, 120_000);
  expect({ status: done.status, error: done.error }).toEqual({ status: 'succeeded', error: null });
  const file = await c.get(`/api/reports/${r.body.id}/download`);
  return { id: r.body.id, bytes: file.raw! };
}

/** The readings of an HTML report, in order. */
function htmlReadings(html: string): string[] {
  const decode = (t: string) =>
    t
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');
  return [...html.matchAll(/<p class="reading">([^<]*)<\/p>/g)].map((m) => decode(m[1]));
}

beforeAll(async () => {
  stack = await startStack({ env: { RATE_LIMIT_REPORT: '1000', RATE_LIMIT_PREDICT: '1000' } });
  owner = await signUp(stack.baseUrl, stack.mail);
  stranger = await signUp(stack.baseUrl, stack.mail);
  projectId = await createProject(owner.client, 'Small project');
  const trained = await trainQuickModels(owner.client, projectId, ['GLM', 'GBM'], 300);
  versionId = trained.versionId;
  modelId = trained.models.GBM;
  experimentId = (await owner.client.get(`/api/models/${modelId}`)).body.model.experiment_id;
  const dep = await owner.client.post(`/api/mlops/projects/${projectId}/deployments`, { model_id: modelId, name: 'small-prod', stage: 'production', store_payload: true });
  deploymentId = dep.body.id;
  const row = (await owner.client.get(`/api/studio/deployments/${deploymentId}/schema`)).body.example_input;
  for (let i = 0; i < 3; i++) await owner.client.post(`/api/mlops/deployments/${deploymentId}/predict`, { inputs: row });
  // A leak found before training (as the leakage check stores it), and statistics not computed yet for the version.
  await stack.ds.query(`UPDATE experiments SET warnings = $2 WHERE id = $1`, [
    experimentId,
    JSON.stringify([{ kind: 'leakage', column: 'x1', measure: 'auc', score: 0.991, message: 'x1 alone predicts y with AUC 0.991' }]),
  ]);
  await stack.ds.query('UPDATE dataset_versions SET statistics = NULL WHERE id = $1', [versionId]);
}, 300_000);
afterAll(async () => {
  await stack?.stop();
});

describe('report layout', () => {
  it("a small project's PDF fits on two pages, none of them thin, with a reading under every section", async () => {
    const { bytes } = await report(owner.client, 'project', { format: 'pdf' });
    // Kept beside the browser tests' screenshots, to look at.
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    fs.writeFileSync(path.join(ARTIFACTS, 'small-project.pdf'), bytes);
    const pages = pdfPageTexts(bytes);
    expect(pages.length).toBeLessThanOrEqual(2);
    pages.forEach((p, i) => expect({ page: i + 1, thin: thinPage(p) }).toEqual({ page: i + 1, thin: null }));
    const text = pages.join('\n').replace(/\s+/g, ' ');
    for (const h of ['Datasets and their quality', 'Experiments timeline', 'Best models', 'Deployments and their latest drift']) expect(text).toContain(h);
    expect(text).toContain('quality score (0 to 100');
    expect(text).toContain('possible leakage: x1');
    expect(text).toContain('Possible target leakage in');
    // A quality score reads 57.1, not 57.1000.
    expect(text).not.toMatch(/\b\d+\.\d000\b/);
  });

  it.each<Kind>(['experiment', 'model', 'deployment'])('%s: no PDF page holds only a heading or a single table row', async (kind) => {
    const { bytes } = await report(owner.client, kind, { format: 'pdf' });
    const pages = pdfPageTexts(bytes);
    pages.forEach((p, i) => expect({ kind, page: i + 1, thin: thinPage(p) }).toEqual({ kind, page: i + 1, thin: null }));
  });

  it('the experiment report reads out the leak, the data and the metrics, and the same readings in HTML, PDF and DOCX', async () => {
    const html = (await report(owner.client, 'experiment', { format: 'html' })).bytes.toString('utf8');
    const readings = htmlReadings(html);
    expect(readings.length).toBeGreaterThanOrEqual(6);
    expect(readings[0]).toMatch(/^Possible target leakage: x1 \(auc 0\.991 on its own\)/);
    expect(html).toContain('<h2><span class="num">1</span> Warnings</h2>');
    const data = readings.find((r) => r.startsWith('The data is '));
    expect(data).toMatch(/^The data is .+ v\d+: 300 rows and \d+ columns, predicting y\. Its quality score is [\d.]+ of 100/);
    expect(readings.some((r) => /ranked by \w+; /.test(r))).toBe(true);
    expect(readings.some((r) => r.includes('scores on cross-validation') || r.includes('scores on a held-out'))).toBe(true);
    // Statistics were missing from the version: computed for the report, not "no statistics".
    expect(html).not.toContain('No statistics were computed');
    expect(html).toMatch(/<td>mean -?\d/);
    const [stored] = await stack.ds.query('SELECT statistics IS NOT NULL AS has FROM dataset_versions WHERE id = $1', [versionId]);
    expect(stored.has).toBe(true);
    // Table headers never break inside a word.
    expect(html).toMatch(/table\.data thead th \{[^}]*word-break: keep-all;[^}]*hyphens: none;/);

    const docx = docxContent((await report(owner.client, 'experiment', { format: 'docx' })).bytes);
    expect(docx.paragraphs.filter((p) => p.style === 'Reading').map((p) => p.text)).toEqual(readings);
    const pdf = pdfPageTexts((await report(owner.client, 'experiment', { format: 'pdf' })).bytes)
      .join('\n')
      .replace(/\s+/g, ' ');
    const at = readings.map((r) => pdf.indexOf(r.replace(/\s+/g, ' ')));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it('the deployment report says what its traffic and drift mean', async () => {
    const html = (await report(owner.client, 'deployment', { format: 'html' })).bytes.toString('utf8');
    const readings = htmlReadings(html);
    expect(readings[0]).toMatch(/^3 requests in the last 7 days, 0 errors \(0%\)\./);
    expect(readings[1]).toContain('PSI (population stability index) compares the live inputs with the training data');
  });
});

describe('the synthgen report', () => {
  it('has no page that holds only a heading or a single table row, and reads its quality', async () => {
    const c = owner.client;
    const m = await c.post('/api/synthgen/models', { project_id: projectId, dataset_version_id: versionId, name: 'copula', model_type: 'gaussian_copula', config: { seed: 3 } });
    expect(m.status).toBe(201);
    const ready = await eventually(async () => {
      const got = (await c.get(`/api/synthgen/models/${m.body.id}`)).body.model;
      return got.status === 'pending' ? undefined : got;
    }, 240_000);
    expect(ready.status).toBe('ready');
    const g = await c.post(`/api/synthgen/models/${m.body.id}/generate`, { num_rows: 100 });
    expect(g.status).toBe(200);
    const job = await eventually(async () => {
      const j = (await c.get(`/api/synthgen/jobs/${g.body.job_id}`)).body;
      return j.status === 'completed' || j.status === 'failed' ? j : undefined;
    }, 120_000);
    expect(job.status).toBe('completed');
    const r = await c.post('/api/reports', { project_id: projectId, kind: 'synthgen', entity_id: g.body.job_id, options: { format: 'pdf' } });
    expect(r.status).toBe(201);
    const done = await eventually(async () => {
      const got = (await c.get(`/api/reports/${r.body.id}`)).body.report;
      return ['succeeded', 'failed'].includes(got.status) ? got : undefined;
    }, 120_000);
    expect({ status: done.status, error: done.error }).toEqual({ status: 'succeeded', error: null });
    const pages = pdfPageTexts((await c.get(`/api/reports/${r.body.id}/download`)).raw!);
    pages.forEach((p, i) => expect({ page: i + 1, thin: thinPage(p) }).toEqual({ page: i + 1, thin: null }));
    const text = pages.join('\n').replace(/\s+/g, ' ');
    expect(text).toContain('This job drew 100 synthetic rows from copula');
    expect(text).toMatch(/How closely the synthetic rows follow the real ones: [\d.]+% overall/);
  });
});

describe('the privacy report', () => {
  /** A small table of contact details, the kind of file a privacy session is run on. */
  const csv = ['name,email,phone,amount', ...Array.from({ length: 40 }, (_, i) => `Ann Lee${i},ann.lee${i}@example.com,(212) 555-${String(1000 + i)},${i * 3.5}`)].join('\n') + '\n';

  async function session(id: string, statuses: string[]) {
    return eventually(async () => {
      const s = (await owner.client.get(`/api/privacy/sessions/${id}`)).body.session;
      return statuses.includes(s.status) ? s : undefined;
    }, 120_000);
  }

  it('has no page that holds only a heading or a single table row', async () => {
    const c = owner.client;
    const up = await c.upload('/api/datasets/upload', { project_id: projectId, name: 'contacts' }, { name: 'contacts.csv', data: csv });
    expect(up.status).toBe(201);
    const policy = await c.post('/api/privacy/policies', { project_id: projectId, name: 'Contacts policy' });
    expect(policy.status).toBe(201);
    const s = await c.post('/api/privacy/sessions', { policy_id: policy.body.id, dataset_id: up.body.id ?? up.body.dataset_id });
    expect(s.status).toBe(201);
    expect((await c.post(`/api/privacy/sessions/${s.body.id}/detect`)).status).toBeLessThan(300);
    expect((await session(s.body.id, ['detected', 'failed'])).status).toBe('detected');
    expect((await c.post(`/api/privacy/sessions/${s.body.id}/transform`)).status).toBeLessThan(300);
    expect((await session(s.body.id, ['completed', 'failed'])).status).toBe('completed');
    const r = await c.get(`/api/privacy/sessions/${s.body.id}/report`);
    expect(r.status).toBe(200);
    const pages = pdfPageTexts((await c.get(r.body.download_url)).raw!);
    pages.forEach((p, i) => expect({ page: i + 1, thin: thinPage(p) }).toEqual({ page: i + 1, thin: null }));
  });
});

describe('report requests refuse hostile input', () => {
  it('answers 422, 404 and 403 as the spec says, never 500', async () => {
    const c = owner.client;
    const body = { project_id: projectId, kind: 'model', entity_id: modelId };
    expect((await c.post('/api/reports', { ...body, options: { format: 'pdf', include_charts: 2 ** 31 } })).status).toBe(422);
    expect((await c.post('/api/reports', { ...body, options: { format: 'odt' } })).status).toBe(422);
    expect((await c.post('/api/reports', { ...body, options: { title: 42 } })).status).toBe(422);
    expect((await c.post('/api/reports', { ...body, kind: 'model\u0000' })).status).toBe(422);
    expect((await c.post('/api/reports', { ...body, kind: 'notebook' })).body).toEqual({ detail: 'Invalid kind' });
    expect((await c.post('/api/reports', { ...body, options: { title: 'a\u0000b' } })).status).toBe(422);
    expect((await c.post('/api/reports', { ...body, entity_id: String(2 ** 31 + 1) })).status).toBe(422);
    expect((await c.post('/api/reports', { ...body, entity_id: projectId })).status).toBe(404);
    expect((await stranger.client.post('/api/reports', body)).status).toBe(404);
    c.sendCsrf = false;
    expect((await c.post('/api/reports', body)).status).toBe(403);
    c.sendCsrf = true;
    const readOnly = new ApiClient(stack.baseUrl).withKey((await c.post('/api/auth/api-keys', { name: 'ro', scopes: ['read:reports'] })).body.api_key);
    expect((await readOnly.post('/api/reports', body)).body).toEqual({ detail: 'Insufficient scope' });
    // Markup and a control character in the title: printed as text, the control character dropped; the report is made.
    const made = await report(c, 'model', { format: 'docx', title: 'Q4 <b>review</b>\u0007' });
    expect(docxContent(made.bytes).paragraphs[0].text).toBe('Q4 <b>review</b>');
  });
});
