import { type Page } from 'playwright-core';
import { useBrowser, logInThroughForm, openProjectTab, waitForTableRows } from './support/browser';
import { ApiClient, createProject, eventually, signUp } from './support/client';
import { datasetFile } from './support/datasets';
import { startStack, TestStack } from './support/stack';

/**
 * Issue 33 in Chromium (with the checks every browser test gets: no console error or failed request, no serious axe
 * violation at 1280 and 390 px, no horizontal scroll; screenshots under test-artifacts/web-ui-leakage/): an experiment
 * on titanic started from the form with a column left out, its progress bar moving with the models, the leakage
 * warning naming `alive`, the one-click retrain without it, and the project's experiment list with scores and versions.
 */

let stack: TestStack;
const ui = useBrowser('web-ui-leakage');
let page: Page;
let api: ApiClient;
let owner: Awaited<ReturnType<typeof signUp>>;
let projectId = '';

beforeAll(async () => {
  page = ui.page;
  stack = await startStack({ env: { RATE_LIMIT_TRAIN: '1000' } });
  owner = await signUp(stack.baseUrl, stack.mail, { name: 'Lea Leakage' });
  api = owner.client;
  projectId = await createProject(api, 'Leakage project');
  const up = await api.upload('/api/datasets/upload', { project_id: projectId, name: 'titanic' }, datasetFile('titanic.csv'));
  expect(up.status).toBe(201);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

/** The experiment id of the page now open. */
function openExperimentId(): string {
  const m = /\/app\/experiments\/([0-9a-f-]{36})/.exec(page.url());
  if (!m) throw new Error(`not on an experiment page: ${page.url()}`);
  return m[1];
}

async function waitSucceeded(id: string): Promise<void> {
  await eventually(async () => (await api.get(`/api/experiments/${id}/status`)).body.status === 'succeeded', 240_000, 250);
}

describe('leakage and ignored columns in Chromium', () => {
  let leakyId = '';

  it('starts an experiment with an ignored column from the form, and its progress bar moves with the models', async () => {
    await logInThroughForm(page, stack.baseUrl, owner);
    await page.getByRole('link', { name: 'Leakage project' }).click();
    await page.getByRole('link', { name: 'Experiments', exact: true }).click();
    await page.getByRole('link', { name: 'New experiment' }).click();
    await page.getByRole('heading', { name: 'New experiment', exact: true }).waitFor();
    await page.getByLabel('Target column').selectOption('survived');
    await page.getByLabel('Experiment name').fill('survival');
    // The multi-select of columns to leave out: the target is not offered.
    const leaveOut = page.getByRole('group', { name: 'Leave out columns' });
    await leaveOut.getByLabel('deck', { exact: true }).check();
    expect(await leaveOut.getByLabel('survived', { exact: true }).count()).toBe(0);
    await page.getByText('Ignored columns are no feature of any model: deck.').waitFor();
    await page.getByLabel('Max models').fill('4');
    await page.getByLabel('Cross-validation folds').fill('3');
    await page.getByRole('group', { name: 'Leave out algorithms' }).getByLabel('DeepLearning').check();
    await ui.checkPage('new-experiment');

    // Every value the training progress bar shows, seen from inside the page as it changes.
    await page.evaluate(`window.trainingSeen = [];
      new MutationObserver(() => {
        const bar = document.querySelector('progress[aria-label="Training progress"]');
        if (bar && window.trainingSeen[window.trainingSeen.length - 1] !== Number(bar.value)) window.trainingSeen.push(Number(bar.value));
      }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true })`);
    await page.getByRole('button', { name: 'Start training' }).click();
    await page.getByRole('heading', { name: 'survival', exact: true }).waitFor();
    leakyId = openExperimentId();
    await page.getByText('4 of 4 models + ensemble').waitFor({ timeout: 240_000 });
    await page.getByText('succeeded', { exact: true }).first().waitFor({ timeout: 60_000 });
    await eventually(async () => Number(await page.locator('progress[aria-label="Training progress"]').getAttribute('value')) === 100, 10_000);
    const seen = await page.evaluate<number[]>('window.trainingSeen');
    // It moved through values between empty and full, never backwards.
    expect(seen.some((v) => v > 0 && v < 100)).toBe(true);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen[seen.length - 1]).toBe(100);
    await page.getByText('Ignored columns: deck').waitFor();
    await page.getByText('target survived (binary)').waitFor();
    await page.getByText('titanic', { exact: true }).first().waitFor();
    await page.getByText(/v0 · target survived/).waitFor();
  });

  it('warns about alive prominently and retrains without it in one click', async () => {
    const warning = page.getByRole('alert').filter({ has: page.getByRole('heading', { name: 'Possible target leakage' }) });
    await warning.waitFor();
    await warning.getByText('alive alone predicts survived almost perfectly', { exact: false }).waitFor();
    await ui.checkPage('leakage-warning');

    await warning.getByRole('button', { name: 'Retrain without alive' }).click();
    await page.getByRole('heading', { name: 'survival without alive', exact: true }).waitFor();
    const retrainedId = openExperimentId();
    expect(retrainedId).not.toBe(leakyId);
    await page.getByText('Ignored columns: deck, alive').waitFor();
    await waitSucceeded(retrainedId);
    await page.getByText('4 of 4 models + ensemble').waitFor({ timeout: 30_000 });
    expect(await page.getByRole('heading', { name: 'Possible target leakage' }).count()).toBe(0);
    await ui.checkPage('retrained-without-alive');

    const retrained = (await api.get(`/api/experiments/${retrainedId}`)).body.experiment;
    expect(retrained).toMatchObject({ ignored_columns: ['deck', 'alive'], warnings: [], target_column: 'survived', dataset_version_id: expect.any(String) });
  });

  it("lists the project's experiments with their best score, dataset version, resolved kind and leakage", async () => {
    await openProjectTab(page, stack.baseUrl, projectId, 'experiments', 'Experiments');
    const rows = await waitForTableRows(page, 'Experiments of this project', 2);
    const leaky = rows.find((r) => r[0] === 'survival')!;
    const clean = rows.find((r) => r[0] === 'survival without alive')!;
    expect(leaky[1]).toContain('4 of 4 models + ensemble');
    expect(leaky[1]).toContain('possible leakage: alive');
    expect(clean[1]).not.toContain('leakage');
    for (const r of [leaky, clean]) {
      expect(r[2]).toBe('titanic v0');
      expect(r[3]).toBe('survived (binary)');
      expect(r[5]).toMatch(/^AUC 0\.\d+|^AUC 1$/);
    }
    await ui.checkPage('experiment-list');
  });
});
