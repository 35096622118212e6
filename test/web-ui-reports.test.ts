import { type Page } from 'playwright-core';
import { useBrowser, logInThroughForm, openProjectTab } from './support/browser';
import { ApiClient, createProject, eventually, signUp } from './support/client';
import { startStack, TestStack } from './support/stack';
import { trainQuickModels } from './support/trained-models';

/**
 * Reports from the web UI in Chromium (issue 33), with the checks every browser test gets (no console error, no failed
 * request, no serious axe violation at 1280 and 390 px, no horizontal scroll): a PDF asked from the project's report
 * button with a title, comments and chosen sections, its job followed on its page to the download; a failed report
 * shows its error, and Retry asks for the same report again.
 */
let stack: TestStack;
const ui = useBrowser('web-ui-reports');
let page: Page;
let api: ApiClient;
let owner: Awaited<ReturnType<typeof signUp>>;
let projectId = '';
let modelId = '';

beforeAll(async () => {
  page = ui.page;
  stack = await startStack({ env: { RATE_LIMIT_REPORT: '1000' } });
  owner = await signUp(stack.baseUrl, stack.mail, { name: 'Rita Reports' });
  api = owner.client;
  projectId = await createProject(api, 'Reported from the UI');
  modelId = (await trainQuickModels(api, projectId, ['GLM'], 200)).models.GLM;
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

type StoredReport = { id: string; status: string; kind: string; entity_id: string; error: string | null; options: Record<string, unknown> };

async function reportById(id: string): Promise<StoredReport> {
  return (await api.get(`/api/reports/${id}`)).body.report as StoredReport;
}

describe('reports in Chromium', () => {
  it('asks for a PDF with a title, comments and chosen sections, and follows its job to the download', async () => {
    await logInThroughForm(page, stack.baseUrl, owner);
    await openProjectTab(page, stack.baseUrl, projectId, 'reports', 'Reports');
    await page.getByRole('button', { name: 'Project report' }).click();
    await page.getByRole('heading', { name: 'New project report' }).waitFor();
    await ui.checkPage('report-form');

    await page.getByLabel('Format').selectOption('pdf');
    await page.getByLabel('Title').fill('Quarterly model review');
    await page.getByLabel('Comments').fill('Two findings.\n\nBoth fixed.');
    await page.getByRole('checkbox', { name: 'Charts' }).uncheck();
    // The job's progress appears on the report's page while it runs: seen as the bar or the queued line.
    const progressSeen = page
      .locator('progress[aria-label="Report progress"]')
      .or(page.getByText('Queued: waiting for a worker.'))
      .first()
      .waitFor({ timeout: 30_000 })
      .then(() => true);
    await page.getByRole('button', { name: 'Generate report' }).click();
    await page.waitForURL(/\/app\/reports\/[0-9a-f-]{36}$/);
    const id = page.url().split('/').pop() as string;
    expect(await progressSeen).toBe(true);
    await page.getByRole('link', { name: 'Download PDF' }).waitFor({ timeout: 90_000 });
    await page.getByRole('heading', { name: 'Quarterly model review', level: 1 }).waitFor();
    await ui.checkPage('report-pdf-done');

    const report = await reportById(id);
    expect(report).toMatchObject({ status: 'succeeded', kind: 'project', entity_id: projectId });
    expect(report.options).toMatchObject({
      format: 'pdf',
      title: 'Quarterly model review',
      comments: 'Two findings.\n\nBoth fixed.',
      include_charts: false,
      include_leaderboard: true,
      include_data_summary: true,
      llm_insights: false,
    });
    const job = (await api.get(`/api/jobs/${(await api.get(`/api/reports/${id}`)).body.report.job_id}`)).body.job;
    expect(job).toMatchObject({ kind: 'report_generate', status: 'succeeded', progress: 100 });
  });

  it('shows a failed report with its error, and Retry asks for the same report again', async () => {
    // A report whose job failed (as a worker records it): the same row a failed render leaves.
    const [{ id }] = await stack.ds.query(
      `INSERT INTO reports (id, project_id, kind, entity_id, status, options, error, finished_at)
       VALUES (gen_random_uuid(), $1, 'model', $2, 'failed', $3, 'The renderer ran out of memory', now()) RETURNING id`,
      [projectId, modelId, JSON.stringify({ format: 'docx', title: 'Model card', comments: 'For the audit.', llm_insights: false, include_charts: false, include_metrics: true })],
    );
    await page.goto(`${stack.baseUrl}/app/reports/${id}`);
    await page.getByRole('heading', { name: 'The report was not made' }).waitFor();
    await page.getByRole('alert').filter({ hasText: 'The renderer ran out of memory' }).waitFor();
    await ui.checkPage('report-failed');

    await page.getByRole('button', { name: 'Retry' }).click();
    await page.waitForURL((url) => /\/app\/reports\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.endsWith(id));
    const retried = page.url().split('/').pop() as string;
    await page.getByRole('link', { name: 'Download DOCX' }).waitFor({ timeout: 90_000 });
    await page.getByText('The DOCX is ready').waitFor();
    await ui.checkPage('report-retried');
    const again = await eventually(async () => {
      const r = await reportById(retried);
      return r.status === 'succeeded' ? r : undefined;
    });
    expect(again).toMatchObject({ kind: 'model', entity_id: modelId, error: null });
    expect(again.options).toMatchObject({ format: 'docx', title: 'Model card', comments: 'For the audit.', include_charts: false, include_metrics: true });
    // The failed one stays as it was.
    expect(await reportById(id)).toMatchObject({ status: 'failed', error: 'The renderer ran out of memory' });
  });

  it('opens the form without a kind as an error, not a crash', async () => {
    await page.goto(`${stack.baseUrl}/app/reports/new?project_id=${projectId}`);
    await page.getByRole('alert').filter({ hasText: "start it from that page's report button" }).waitFor();
  });
});
