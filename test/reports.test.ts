import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiClient, createProject, eventually, signUp } from './support/client';
import { docxContent, pdfInkPerPage, pdfPageCount, pdfText } from './support/documents';
import { expectRangedDownload } from './support/ranges';
import { startStack, TestStack } from './support/stack';
import { trainQuickModels } from './support/trained-models';

/**
 * Reports through HTTP on the real stack: every kind that exists in every format, read back as a
 * person would see it (PDF text layer and page images, DOCX XML, HTML markup), the view headers,
 * the 409 before completion, and the refusals.
 */
let stack: TestStack;
let owner: Awaited<ReturnType<typeof signUp>>;
let stranger: Awaited<ReturnType<typeof signUp>>;
let projectId: string;
let otherProjectId: string;
let experimentId: string;
let bestModelId: string;
let deploymentId: string;
let foreignModel: string;
/** What the fake LLM provider was asked. */
const llmPrompts: string[] = [];
let llm: http.Server;

type Kind = 'experiment' | 'model' | 'project' | 'deployment';

async function generated(c: ApiClient, body: Record<string, unknown>) {
  const r = await c.post('/api/reports', body);
  if (r.status !== 201) throw new Error(`report failed ${r.status} ${JSON.stringify(r.body)}`);
  const report = await eventually(async () => {
    const g = (await c.get(`/api/reports/${r.body.id}`)).body.report;
    return ['succeeded', 'failed', 'canceled'].includes(g.status) ? g : undefined;
  }, 120_000);
  return { created: r.body, report };
}

function entityOf(kind: Kind): string {
  return { experiment: experimentId, model: bestModelId, project: projectId, deployment: deploymentId }[kind];
}

beforeAll(async () => {
  // An OpenAI-compatible chat-completions endpoint, so llm_insights is exercised over real HTTP.
  llm = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      llmPrompts.push(body);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'The leading model is clearly ahead.\n\nCheck the drift next week.' } }] }));
    });
  });
  await new Promise<void>((r) => llm.listen(0, '127.0.0.1', r));
  stack = await startStack({
    env: { RATE_LIMIT_TRAIN: '1000', RATE_LIMIT_PREDICT: '1000', RATE_LIMIT_REPORT: '1000', LLM_API_URL: `http://127.0.0.1:${(llm.address() as AddressInfo).port}/v1`, LLM_MODEL: 'test-model' },
  });
  owner = await signUp(stack.baseUrl, stack.mail);
  stranger = await signUp(stack.baseUrl, stack.mail);
  projectId = await createProject(owner.client, 'Reported');
  otherProjectId = await createProject(owner.client, 'Elsewhere');
  const [here, there] = await Promise.all([trainQuickModels(owner.client, projectId, ['GLM', 'GBM']), trainQuickModels(owner.client, otherProjectId, ['GLM'], 200)]);
  foreignModel = there.models.GLM;
  experimentId = (await owner.client.get(`/api/models/${here.models.GBM}`)).body.model.experiment_id;
  bestModelId = (await owner.client.get(`/api/experiments/${experimentId}`)).body.models[0].id as string;
  const dep = await owner.client.post(`/api/mlops/projects/${projectId}/deployments`, { model_id: bestModelId, name: 'reported-prod', stage: 'production', store_payload: true });
  deploymentId = dep.body.id;
  const row = (await owner.client.get(`/api/studio/deployments/${deploymentId}/schema`)).body.example_input;
  for (let i = 0; i < 5; i++) await owner.client.post(`/api/mlops/deployments/${deploymentId}/predict`, { inputs: row });
}, 300_000);
afterAll(async () => {
  await stack?.stop();
  llm?.close();
});

describe('every kind in every format', () => {
  const kinds: Kind[] = ['experiment', 'model', 'project', 'deployment'];
  const headings: Record<Kind, string[]> = {
    experiment: ['Data summary', 'Leaderboard', 'Variable importance', 'Best model', 'ROC and precision-recall curves', 'Learning curve', 'Hyperparameters', 'Engine log'],
    model: ['Data summary', 'Metrics of', 'Variable importance and SHAP summary', 'Parameters (default and actual)'],
    project: ['Datasets and their quality', 'Experiments timeline', 'Best models', 'Deployments and their latest drift'],
    deployment: ['Traffic, latency and errors', 'Drift', 'Transition history'],
  };

  it.each(kinds)('%s: PDF with its headings, figures and pages that are not blank', async (kind) => {
    const { created, report } = await generated(owner.client, { project_id: projectId, kind, entity_id: entityOf(kind), options: { format: 'pdf' } });
    expect(created).toEqual({ id: created.report_id, report_id: expect.any(String), job_id: expect.any(String), status: 'queued' });
    expect(report).toMatchObject({ status: 'succeeded', kind, entity_id: entityOf(kind), project_id: projectId, artifact_id: expect.any(String), job_id: created.job_id });
    const job = (await owner.client.get(`/api/jobs/${created.job_id}`)).body.job;
    expect(job).toMatchObject({ kind: 'report_generate', status: 'succeeded', progress: 100 });

    const file = await owner.client.get(`/api/reports/${report.id}/download`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="${kind}-[a-z0-9-]+\\.pdf"$`));
    const text = pdfText(file.raw!);
    for (const h of headings[kind]) expect(text).toContain(h);
    const pages = pdfPageCount(file.raw!);
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(pages).toBeLessThan(60);
    expect(text).toMatch(new RegExp(`Page 1 of ${pages}`));
    const ink = pdfInkPerPage(file.raw!);
    expect(ink).toHaveLength(pages);
    // A page with only the running header, a heading and the footer is ~0.07% ink at 30 dpi: every page holds more.
    for (const share of ink) expect(share).toBeGreaterThan(0.001);
    if (kind === 'model') await expectRangedDownload(owner.client, `/api/reports/${report.id}/download`);
    if (kind === 'experiment' || kind === 'model') {
      const best = (await owner.client.get(`/api/models/${bestModelId}`)).body.model;
      const auc = (best.metrics.auc as number).toFixed(4);
      expect(text).toContain(String(Number(auc)));
    }
  });

  it.each(kinds)('%s: HTML, self-contained and viewable inline in a same-origin frame only', async (kind) => {
    const { report } = await generated(owner.client, { project_id: projectId, kind, entity_id: entityOf(kind) });
    expect(report.status).toBe('succeeded');
    const view = await owner.client.get(`/api/reports/${report.id}/view`);
    expect(view.status).toBe(200);
    expect(view.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(view.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(view.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
    expect(view.headers.get('content-disposition')).toMatch(/^inline; filename=".+\.html"$/);
    const html = view.raw!.toString('utf8');
    for (const h of headings[kind]) expect(html).toContain(h);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/(src|href)\s*=\s*["']?https?:/i);
    const images = [...html.matchAll(/<img[^>]*src="([^"]+)"/g)].map((m) => m[1]);
    for (const src of images) expect(src).toMatch(/^data:image\//);
    if (kind === 'experiment') expect(images.length).toBeGreaterThanOrEqual(3);
  });

  it.each(kinds)('%s: DOCX whose headings and tables read back', async (kind) => {
    const { report } = await generated(owner.client, { project_id: projectId, kind, entity_id: entityOf(kind), options: { format: 'docx' } });
    expect(report.status).toBe('succeeded');
    const file = await owner.client.get(`/api/reports/${report.id}/download`);
    expect(file.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    const doc = docxContent(file.raw!);
    const headingTexts = doc.paragraphs.filter((p) => p.style && /^Heading\d$/.test(p.style)).map((p) => p.text);
    for (const h of headings[kind]) expect(headingTexts.some((t) => t.includes(h))).toBe(true);
    expect(doc.tableCells.length).toBeGreaterThan(4);
    if (kind === 'deployment') expect(doc.tableCells).toContain('production');
  });
});

describe('options', () => {
  it('takes a title and comments (escaped), leaves out what is switched off, and writes insights through the configured LLM', async () => {
    const hostile = `<script>alert("x")</script> & 'quotes'`;
    const { report } = await generated(owner.client, {
      project_id: projectId,
      kind: 'experiment',
      entity_id: experimentId,
      options: { title: `Quarterly ${hostile}`, comments: `Reviewed by ${hostile}`, include_charts: false, include_hyperparameters: false, llm_insights: true },
    });
    expect(report.summary.title).toBe(`Quarterly ${hostile}`);
    expect(report.summary.sections).toEqual(expect.arrayContaining(['Insights', 'Comments', 'Leaderboard']));
    expect(report.summary.sections).not.toContain('Hyperparameters');
    const html = (await owner.client.get(`/api/reports/${report.id}/view`)).raw!.toString('utf8');
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('&lt;script&gt;alert(');
    expect(html).not.toMatch(/<img/);
    expect(html).toContain('The leading model is clearly ahead.');
    expect(JSON.parse(llmPrompts[llmPrompts.length - 1]).model).toBe('test-model');
    expect(llmPrompts[llmPrompts.length - 1]).toContain('best_model');
  });

  it('refuses options of the wrong type or unknown, and a format it cannot make', async () => {
    const base = { project_id: projectId, kind: 'model', entity_id: bestModelId };
    for (const options of [{ format: 'xlsx' }, { include_charts: 'yes' }, { inclde_charts: false }, { title: 'x'.repeat(201) }]) {
      const r = await owner.client.post('/api/reports', { ...base, options });
      expect(r.status).toBe(422);
    }
  });
});

describe('refusals', () => {
  it("answers 422 'Invalid kind', 404 for an entity outside the project, and 404 for another user's report", async () => {
    const bad = await owner.client.post('/api/reports', { project_id: projectId, kind: 'dataset', entity_id: projectId });
    expect(bad).toMatchObject({ status: 422, body: { detail: 'Invalid kind' } });
    expect(await owner.client.post('/api/reports', { project_id: projectId, kind: 'model', entity_id: foreignModel })).toMatchObject({ status: 404, body: { detail: 'Model not found' } });
    expect(await owner.client.post('/api/reports', { project_id: projectId, kind: 'project', entity_id: otherProjectId })).toMatchObject({ status: 404, body: { detail: 'Project not found' } });
    expect(await owner.client.post('/api/reports', { project_id: projectId, kind: 'synthgen', entity_id: experimentId })).toMatchObject({ status: 404, body: { detail: 'Synthgen job not found' } });
    expect(await stranger.client.post('/api/reports', { project_id: projectId, kind: 'project', entity_id: projectId })).toMatchObject({ status: 404, body: { detail: 'Project not found' } });

    const { report } = await generated(owner.client, { project_id: projectId, kind: 'project', entity_id: projectId });
    for (const suffix of ['', '/view', '/download']) {
      expect(await stranger.client.get(`/api/reports/${report.id}${suffix}`)).toMatchObject({ status: 404, body: { detail: 'Report not found' } });
    }
    expect((await stranger.client.get(`/api/reports?project_id=${projectId}`)).status).toBe(404);
    const list = await owner.client.get(`/api/reports?project_id=${projectId}&kind=project&limit=2`);
    expect(list.body).toMatchObject({ limit: 2, offset: 0 });
    expect(list.body.items[0]).toMatchObject({ kind: 'project', entity_id: projectId });
    expect((await owner.client.get(`/api/reports?project_id=${projectId}&limit=501`)).status).toBe(422);
  });

  it('answers 409 before the file exists', async () => {
    // A report whose job never ran: deterministic, whatever the worker's speed.
    const [{ id }] = await stack.ds.query(
      `INSERT INTO reports (id, project_id, kind, entity_id, status, options) VALUES (gen_random_uuid(), $1, 'project', $1, 'queued', '{"format":"html"}') RETURNING id`,
      [projectId],
    );
    for (const suffix of ['/view', '/download']) {
      expect(await owner.client.get(`/api/reports/${id}${suffix}`)).toMatchObject({ status: 409, body: { detail: 'Report has no artifact yet (still processing)' } });
    }
    const r = await owner.client.post('/api/reports', { project_id: projectId, kind: 'experiment', entity_id: experimentId, options: { format: 'pdf' } });
    const early = await owner.client.get(`/api/reports/${r.body.id}/view`);
    const now = (await owner.client.get(`/api/reports/${r.body.id}`)).body.report;
    if (now.status !== 'succeeded') expect(early.status).toBe(409);
  });

  it('fails readably and keeps no artifact when the entity is gone before the render', async () => {
    const { JobService } = await import('../services/jobs');
    const { Access } = await import('../services/access');
    const { TemporalGateway } = await import('../platform/temporal-client');
    const { createLogger } = await import('../platform/logger');
    const temporal = new TemporalGateway(stack.info.temporalAddress, 'default');
    const jobs = new JobService(stack.ds, new Access(stack.ds), temporal, stack.config, createLogger('silent'), stack.store);
    const missing = '00000000-0000-4000-8000-000000000001';
    const job = await stack.ds.transaction(async (em) => {
      const [{ id }] = await em.query(`INSERT INTO reports (id, project_id, kind, entity_id, status, options) VALUES (gen_random_uuid(), $1, 'model', $2, 'queued', '{"format":"pdf"}') RETURNING id`, [
        projectId,
        missing,
      ]);
      const j = await jobs.create(em, { kind: 'report_generate', projectId, entityId: id, input: { reportId: id } });
      await em.query('UPDATE reports SET job_id = $2 WHERE id = $1', [id, j.id]);
      return j;
    });
    await jobs.start(job);
    await temporal.close();
    const done = await eventually(async () => {
      const j = (await owner.client.get(`/api/jobs/${job.id}`)).body.job;
      return j.status === 'failed' ? j : undefined;
    });
    expect(done.error).toBe('Model not found: it was deleted before the report was made');
    const report = (await owner.client.get(`/api/reports/${job.entityId}`)).body.report;
    expect(report).toMatchObject({ status: 'failed', artifact_id: null, error: 'Model not found: it was deleted before the report was made' });
    const [{ n }] = await stack.ds.query(`SELECT count(*)::int AS n FROM artifacts WHERE owner_type = 'report' AND owner_id = $1`, [job.entityId]);
    expect(n).toBe(0);
  });
});
