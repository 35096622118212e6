import type { Page } from 'playwright-core';
import { useBrowser, logInThroughForm, openProjectTab, tableRows, waitForTableRows } from './support/browser';
import { ApiClient, createProject, eventually, signUp } from './support/client';
import { startStack, TestStack } from './support/stack';
import { syntheticRows, trainQuickModels } from './support/trained-models';

/**
 * Serving in the browser (issue 33) in Debian's Chromium against the real stack, with the checks every browser test
 * gets (no console error, no failed request, no serious axe violation at 1280 and 390 px, no horizontal scroll): the
 * deployment's test-prediction form answering and showing a refused request's error, the traffic charts drawn, the
 * inference log as a table with a status filter and the inputs-storing toggle, confirmations that cancel and that
 * confirm (deactivate a deployment, revoke an API key), model names in the deployment tables, and the jobs page
 * linking a job to what it belongs to.
 */

let stack: TestStack;
const ui = useBrowser('web-ui-serving');
let page: Page;
let api: ApiClient;
let owner: Awaited<ReturnType<typeof signUp>>;
let projectId = '';
let modelId = '';
let modelName = '';
let experimentId = '';
let dep = '';

const M = '/api/mlops';
const rows = syntheticRows(10, 3).map(({ y: _y, ...r }) => r);

beforeAll(async () => {
  page = ui.page;
  stack = await startStack({ env: { RATE_LIMIT_PREDICT: '100000' } });
  owner = await signUp(stack.baseUrl, stack.mail, { name: 'Sam Serving' });
  api = owner.client;
  projectId = await createProject(api, 'Serving project');
  modelId = (await trainQuickModels(api, projectId, ['GLM'], 200)).models.GLM;
  const model = (await api.get(`/api/models/${modelId}`)).body.model;
  modelName = model.name;
  experimentId = model.experiment_id;
  const r = await api.post(`${M}/projects/${projectId}/deployments`, { model_id: modelId, name: 'churn-v2', stage: 'production' });
  if (r.status !== 201) throw new Error(`deploy failed ${r.status}`);
  dep = r.body.id;
  // Traffic for the charts and the log: answered requests and one the schema refuses.
  for (const row of rows.slice(0, 4)) expect((await api.post(`${M}/deployments/${dep}/predict`, { inputs: row })).status).toBe(200);
  expect((await api.post(`${M}/deployments/${dep}/predict`, { inputs: { ...rows[0], x1: 'abc' } })).status).toBe(422);
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

const rowsOf = (region: string): Promise<string[][]> => tableRows(page, region);

async function deployment() {
  return (await api.get(`${M}/deployments/${dep}`)).body.deployment as { is_active: boolean; stage: string; config: { store_payload?: boolean } };
}

/** Whether the canvas named `label` has any painted pixel (Chart.js drew on it). */
async function drawn(label: string): Promise<boolean> {
  await page.getByRole('img', { name: label, exact: true }).waitFor();
  // A string, run in the page: the server's compiler has no DOM types.
  return page.evaluate<boolean>(`(() => {
    const c = [...document.querySelectorAll('canvas')].find((e) => e.getAttribute('aria-label') === ${JSON.stringify(label)});
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) return true;
    return false;
  })()`);
}

describe('serving in Chromium', () => {
  it('answers a test prediction from the form, filled with a sample row', async () => {
    await logInThroughForm(page, stack.baseUrl, owner);

    await page.goto(`${stack.baseUrl}/app/deployments/${dep}?tab=predict`);
    const x1 = page.getByLabel(/^x1 \(/);
    await x1.waitFor();
    // One field per feature, each with its type; the target is not one of them.
    for (const f of [/^x1 \(/, /^x2 \(/, /^color \(/]) expect(await page.getByLabel(f).count()).toBe(1);
    expect(await page.getByLabel(/^y \(/).count()).toBe(0);
    const typical = await x1.inputValue();
    expect(typical).not.toBe('');
    await page.getByRole('button', { name: 'Fill with a sample row' }).click();
    await eventually(async () => (await x1.inputValue()) !== typical, 10_000);
    await page.getByRole('button', { name: 'Predict', exact: true }).click();
    const answer = page.getByRole('status', { name: 'Prediction' });
    await answer.waitFor();
    expect(await answer.innerText()).toMatch(/Predicted (pos|neg) \(P\(pos\) = [\d.]+, decision threshold [\d.]+\)/);
    expect((await rowsOf('Class probabilities')).map((r) => r[0]).sort()).toEqual(['neg', 'pos']);
    await ui.checkPage('predict-answered');
  });

  it('shows the error detail of a refused prediction', async () => {
    // A staging deployment deactivated behind the page's back: its predict is refused with the spec's 404 text.
    const staged = await api.post(`${M}/projects/${projectId}/deployments`, { model_id: modelId, name: 'churn-canary', stage: 'staging' });
    await page.goto(`${stack.baseUrl}/app/deployments/${staged.body.id}?tab=predict`);
    await page.getByLabel(/^x1 \(/).waitFor();
    expect((await api.post(`${M}/deployments/${staged.body.id}/deactivate`, {})).status).toBe(200);
    const expected = [/^HTTP 404: POST .*\/predict$/, /^console error on \S+: Failed to load resource: the server responded with a status of 404/];
    const seen = await ui.checkPageAllowing('predict-refused', expected, async () => {
      await page.getByRole('button', { name: 'Predict', exact: true }).click();
      await page.getByRole('alert').filter({ hasText: 'The deployment refused the request: Deployment not found or inactive' }).waitFor();
    });
    expect(seen.filter((s) => s.startsWith('HTTP 404'))).toHaveLength(1);
  });

  it('draws the traffic per hour', async () => {
    await page.goto(`${stack.baseUrl}/app/deployments/${dep}?tab=traffic`);
    expect(await drawn('Requests and errors per hour')).toBe(true);
    expect(await drawn('Latency per hour (ms)')).toBe(true);
    // The figures in words beside the chart: 5 predict requests from beforeAll and 1 from the form, 1 refused.
    const summary = await page.locator('figcaption').first().innerText();
    expect(summary).toMatch(/^6 requests, 1 refused or failed/);
    await ui.checkPage('traffic');
  });

  it('lists the inference log as a table, filters it by status, and turns on storing inputs', async () => {
    await page.goto(`${stack.baseUrl}/app/deployments/${dep}?tab=logs`);
    await page.getByRole('region', { name: 'Logged requests', exact: true }).waitFor();
    expect(await rowsOf('Logged requests')).toHaveLength(6);
    await ui.checkPage('logs');

    await page.getByLabel('Status').selectOption('error');
    const [refused] = await waitForTableRows(page, 'Logged requests', 1);
    expect(refused[1]).toBe('422 refused');
    expect(refused[2]).toBe('not stored');
    expect(refused[3]).toBe('–');
    expect(refused[4]).toMatch(/^body\.inputs\.0\.x1: /);
    await ui.checkPage('logs-refused');

    const toggle = page.getByLabel('Store the inputs of predict requests in the inference log');
    expect(await toggle.isChecked()).toBe(false);
    await toggle.check();
    await eventually(async () => (await deployment()).config.store_payload === true, 10_000);
    await page.getByText('Inputs are stored').waitFor();
    expect((await api.post(`${M}/deployments/${dep}/predict`, { inputs: rows[5] })).status).toBe(200);
    await page.getByLabel('Status').selectOption('ok');
    const [newest] = await waitForTableRows(page, 'Logged requests', 6);
    expect(newest[1]).toBe('200 answered');
    expect(newest[2].split(', ').sort()).toEqual([`color = ${rows[5].color}`, `x1 = ${rows[5].x1}`, `x2 = ${rows[5].x2}`]);
    expect(newest[3]).toMatch(/^(pos|neg)$/);
    await ui.checkPage('logs-answered-with-inputs');

    // The drift tab says why drift needs it, with the same toggle.
    await page.getByRole('link', { name: 'Drift', exact: true }).click();
    expect(await page.getByLabel('Store the inputs of predict requests in the inference log').isChecked()).toBe(true);
    await ui.checkPage('drift-explained');

    // A drift schedule: the form then also offers to stop it, and its row of controls still fits a phone.
    await page.getByLabel('Run drift every (minutes)').fill('30');
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    await page.getByText('Drift runs every 30 minutes.').waitFor();
    expect((await api.get(`${M}/deployments/${dep}/drift-schedule`)).body.drift_schedule).toEqual({ interval_minutes: 30 });
    await ui.checkPage('drift-scheduled');
    await page.getByRole('button', { name: 'Stop the schedule', exact: true }).click();
    await page.getByText('Drift runs when asked.').waitFor();
    expect((await api.get(`${M}/deployments/${dep}/drift-schedule`)).body.drift_schedule).toBeNull();
  });

  it('names the model in the history and the project deployments tables', async () => {
    await page.goto(`${stack.baseUrl}/app/deployments/${dep}?tab=history`);
    await page.getByRole('region', { name: 'Stage transitions', exact: true }).waitFor();
    expect((await rowsOf('Stage transitions'))[0][3]).toBe(modelName);
    await openProjectTab(page, stack.baseUrl, projectId, 'deployments', 'Deployments');
    const row = await eventually(async () => (await rowsOf('Deployments of this project')).find((r) => r[0] === 'churn-v2'), 10_000);
    expect(row[3]).toBe(modelName);
    await ui.checkPage('project-deployments');
  });

  it('asks before deactivating: Escape and Cancel leave the deployment active, confirming deactivates it', async () => {
    await page.goto(`${stack.baseUrl}/app/deployments/${dep}`);
    const trigger = page.getByRole('button', { name: 'Deactivate', exact: true });
    await trigger.click();
    const dialog = page.getByRole('alertdialog', { name: "Deactivate deployment 'churn-v2'?" });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('It stops answering predictions');
    // Focus starts on Cancel and stays in the dialog.
    expect(await page.evaluate('document.activeElement && document.activeElement.textContent')).toBe('Cancel');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement && document.activeElement.textContent')).toBe('Deactivate');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement && document.activeElement.textContent')).toBe('Cancel');
    await ui.checkPage('deactivate-asked');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect((await deployment()).is_active).toBe(true);

    await trigger.click();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await deployment()).is_active).toBe(true);
    expect((await api.post(`${M}/deployments/${dep}/predict`, { inputs: rows[0] })).status).toBe(200);

    await trigger.click();
    await dialog.getByRole('button', { name: 'Deactivate', exact: true }).click();
    await page.waitForURL(`**/app/projects/${projectId}?tab=deployments`);
    await eventually(async () => (await deployment()).is_active === false, 10_000);
    expect((await api.post(`${M}/deployments/${dep}/predict`, { inputs: rows[0] })).status).toBe(404);
    await ui.checkPage('deactivated');
  });

  it('asks before revoking an API key', async () => {
    const created = await api.post('/api/auth/api-keys', { name: 'deploy key', scopes: ['read:projects'] });
    const key = created.body.api_key as string;
    const works = async () => (await fetch(`${stack.baseUrl}/api/projects`, { headers: { authorization: `Bearer ${key}` } })).status;
    expect(await works()).toBe(200);
    await page.goto(`${stack.baseUrl}/auth/profile`);
    await page.getByRole('button', { name: 'Revoke key deploy key' }).click();
    const dialog = page.getByRole('alertdialog', { name: "Revoke API key 'deploy key'?" });
    await dialog.waitFor();
    await ui.checkPage('revoke-asked');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await works()).toBe(200);

    await page.getByRole('button', { name: 'Revoke key deploy key' }).click();
    await dialog.getByRole('button', { name: 'Revoke', exact: true }).click();
    await eventually(async () => (await works()) === 401, 10_000);
    await ui.checkPage('revoked');
  });

  it('links each job to what it belongs to', async () => {
    await page.goto(`${stack.baseUrl}/app/jobs`);
    await page.getByRole('region', { name: 'Jobs', exact: true }).waitFor();
    const link = page.getByRole('link', { name: `experiment …${experimentId.slice(-8)}` });
    await link.first().waitFor();
    await ui.checkPage('jobs');
    await link.first().click();
    await page.waitForURL(`**/app/experiments/${experimentId}`);
  });
});
