import { type Page } from 'playwright-core';
import { trainBinaryWithEnsemble } from './support/binary-ensemble';
import { useBrowser, logInThroughForm, tableRows, waitForTableRows } from './support/browser';
import { createProject, eventually, signUp } from './support/client';
import { startStack, TestStack } from './support/stack';

/**
 * The project's model table, the compare view and the model page in Debian's Chromium against the real stack (with
 * the checks every browser test gets: no console error, no failed request, no serious axe violation at 1280 and 390 px,
 * no horizontal scroll): the table sorted by a column and filtered by a search; three models chosen and compared
 * (metrics side by side, overlaid ROC and PR curves, differing parameters); the model page's hyperparameters, PR
 * curve, threshold table and where its metrics were measured; an ensemble's features apart from its base models.
 */

let stack: TestStack;
const ui = useBrowser('web-ui-models');
let page: Page;
let owner: Awaited<ReturnType<typeof signUp>>;
let projectId = '';
let models: Record<string, string> = {};

beforeAll(async () => {
  page = ui.page;
  stack = await startStack();
  owner = await signUp(stack.baseUrl, stack.mail, { name: 'Mo Models' });
  projectId = await createProject(owner.client, 'Model table project');
  ({ models } = await trainBinaryWithEnsemble(owner.client, projectId));
  const d = await owner.client.post(`/api/mlops/projects/${projectId}/deployments`, { model_id: models.GBM, name: 'gbm-staging', stage: 'staging' });
  expect(d.status).toBe(201);
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

const rowsOf = (region: string): Promise<string[][]> => tableRows(page, region);

/** The model names in the model table, top to bottom (the badge after a name left out). */
async function modelNames(): Promise<string[]> {
  return (await rowsOf('Models of this project')).map((r) => r[1].replace(/\s*best$/, ''));
}

describe('the model table, compare view and model page in Chromium', () => {
  it('sorts the project model table by a column and filters it by a search', async () => {
    await logInThroughForm(page, stack.baseUrl, owner);
    await page.getByRole('link', { name: 'Model table project' }).click();
    await page.getByRole('link', { name: 'Models', exact: true }).click();
    const first = await waitForTableRows(page, 'Models of this project', 3, 15_000);
    // Metric, algorithm, experiment, dataset version and deployment of each model.
    const gbm = first.find((r) => r[1].startsWith('GBM_1'))!;
    expect(gbm[2]).toMatch(/^AUC 0\.\d+/);
    expect(gbm.slice(3, 7)).toEqual(['GBM', 'binary run', 'synthetic v0', 'gbm-staging (staging)']);
    await ui.checkPage('models-table');

    await page.getByRole('button', { name: 'Model', exact: true }).click();
    await eventually(async () => JSON.stringify(await modelNames()) === JSON.stringify(['GBM_1', 'GLM_1', 'StackedEnsemble_AllModels']), 10_000);
    expect(await page.getByRole('columnheader', { name: 'Model' }).getAttribute('aria-sort')).toBe('ascending');
    await page.getByRole('button', { name: 'Model', exact: true }).click();
    await eventually(async () => JSON.stringify(await modelNames()) === JSON.stringify(['StackedEnsemble_AllModels', 'GLM_1', 'GBM_1']), 10_000);

    await page.getByRole('button', { name: 'Metric', exact: true }).click();
    await eventually(async () => {
      const aucs = (await rowsOf('Models of this project')).map((r) => Number(r[2].replace('AUC ', '')));
      return aucs.length === 3 && aucs.every((v, i) => i === 0 || v <= aucs[i - 1]);
    }, 10_000);
    expect(await page.getByRole('columnheader', { name: 'Metric' }).getAttribute('aria-sort')).toBe('descending');

    await page.getByLabel('Search models').fill('glm');
    await eventually(async () => JSON.stringify(await modelNames()) === JSON.stringify(['GLM_1']), 10_000);
    await page.getByLabel('Search models').fill('nothing like it');
    await page.getByText('No model matches the search.').waitFor();
    await ui.checkPage('models-filtered');
    await page.getByLabel('Search models').fill('');
    await waitForTableRows(page, 'Models of this project', 3);
  });

  it('compares three chosen models: metrics side by side, overlaid ROC and PR curves, differing parameters', async () => {
    const compare = page.getByRole('button', { name: 'Compare', exact: true });
    expect(await compare.isDisabled()).toBe(true);
    for (const name of ['GLM_1', 'GBM_1', 'StackedEnsemble_AllModels']) await page.getByRole('checkbox', { name: `Compare ${name} (binary run)` }).check();
    await compare.click();
    await page.getByRole('heading', { name: 'Compare 3 models' }).waitFor();
    const ids = new URL(page.url()).searchParams.get('models')!.split(',');
    expect(ids.sort()).toEqual([models.GLM, models.GBM, models.StackedEnsemble].sort());

    // The heading shows at once; the comparison once its answer came.
    await page.getByRole('region', { name: 'Metrics side by side' }).waitFor();
    const heads = await page.getByRole('region', { name: 'Metrics side by side' }).locator('thead th').allInnerTexts();
    expect(heads.slice(1).map((h) => h.split('\n')[0])).toEqual(expect.arrayContaining(['GLM_1', 'GBM_1', 'StackedEnsemble_AllModels']));
    const auc = (await rowsOf('Metrics side by side')).find((r) => r[0] === 'auc')!;
    expect(auc.slice(1)).toHaveLength(3);
    for (const v of auc.slice(1)) expect(Number(v.replace(/\s*\(best\)$/, ''))).toBeGreaterThan(0.5);
    const measured = (await rowsOf('Metrics side by side')).find((r) => r[0] === 'measured on')!;
    expect(measured.slice(1)).toEqual(['cross-validation', 'cross-validation', 'cross-validation']);

    // One series per model in each overlaid chart (the caption names them for screen readers).
    for (const chart of ['ROC curves of the compared models', 'Precision-recall curves of the compared models']) {
      await page.getByRole('img', { name: chart }).waitFor();
      const caption = await page
        .locator('figure', { has: page.getByRole('img', { name: chart }) })
        .locator('figcaption')
        .innerText();
      for (const name of ['GLM_1', 'GBM_1', 'StackedEnsemble_AllModels']) expect(caption).toContain(`${name} (binary run)`);
    }
    await page
      .getByRole('img', { name: /against/ })
      .first()
      .waitFor();
    expect(await page.locator('tr.differs').count()).toBeGreaterThan(0);
    await page.getByLabel(/Only those that differ/).check();
    const params = page.getByRole('region', { name: 'Parameters side by side' });
    await eventually(async () => (await params.locator('tbody tr:not(.differs)').count()) === 0, 5_000);
    expect(await params.locator('tbody tr.differs').count()).toBeGreaterThan(0);
    await ui.checkPage('compare-three');

    // The URL alone shows the same comparison (it can be shared).
    await page.reload();
    await page.getByRole('heading', { name: 'Compare 3 models' }).waitFor();
    await page.getByRole('img', { name: 'ROC curves of the compared models' }).waitFor();
  });

  it('shows the hyperparameters, PR curve, threshold table and where the metrics come from on the model page', async () => {
    await page.goto(`${stack.baseUrl}/app/models/${models.GBM}`);
    await page.getByRole('heading', { name: 'GBM_1' }).waitFor();
    await page.getByRole('heading', { name: 'Hyperparameters' }).waitFor();
    const params = await rowsOf('Hyperparameters');
    expect(params.length).toBeGreaterThan(3);
    expect(params.some((r) => r[2] === 'default')).toBe(true);
    expect(await page.getByTestId('metric-source').innerText()).toMatch(/cross-validation/);
    expect((await rowsOf('Metrics')).every((r) => r[2] === 'cross-validation')).toBe(true);
    await page.getByRole('img', { name: /Precision-recall curve/ }).waitFor();
    await page.getByRole('img', { name: /ROC curve/ }).waitFor();
    const table = await rowsOf('Threshold table');
    expect(table.length).toBeGreaterThanOrEqual(10);
    const thresholds = table.map((r) => Number(r[0]));
    thresholds.forEach((t, i) => i === 0 || expect(t).toBeLessThan(thresholds[i - 1]));
    for (const r of table) for (const v of r.slice(2, 5).map(Number)) expect(v >= 0 && v <= 1).toBe(true);
    await ui.checkPage('model-page');

    // Deploying to production asks first; cancelling deploys nothing.
    await page.getByLabel('Stage').selectOption('production');
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    const dialog = page.getByRole('alertdialog', { name: /Deploy GBM_1 to production/ });
    await dialog.waitFor();
    await ui.checkPage('model-deploy-confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    const listed = await owner.client.get(`/api/mlops/projects/${projectId}/deployments`);
    expect((listed.body.items as Array<{ stage: string }>).filter((d) => d.stage === 'production')).toEqual([]);
  });

  it("shows an ensemble's feature importance without its base models, which it lists apart", async () => {
    await page.goto(`${stack.baseUrl}/app/models/${models.StackedEnsemble}`);
    await page.getByRole('heading', { name: 'StackedEnsemble_AllModels' }).waitFor();
    await page.getByRole('heading', { name: 'Base model weights' }).waitFor();
    const features = await page.getByRole('img', { name: 'Scaled feature importance' }).locator('xpath=ancestor::figure').locator('figcaption').innerText();
    expect(features).not.toMatch(/GBM_1|GLM_1/);
    expect(features).toMatch(/x1|x2|color/);
    const bases = await page
      .getByRole('img', { name: /Weight of each base model/ })
      .locator('xpath=ancestor::figure')
      .locator('figcaption')
      .innerText();
    expect(bases).toMatch(/GBM_1/);
    await ui.checkPage('ensemble-page');
  });
});
