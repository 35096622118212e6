import { type Page } from 'playwright-core';
import { useBrowser, checkPagesAtPhoneWidth, factOf, logInThroughForm, tableRows, waitForTableRows } from './support/browser';
import { ApiClient, createProject, eventually, signUp } from './support/client';
import { startStack, TestStack } from './support/stack';
import { syntheticRows, trainQuickModels } from './support/trained-models';

/**
 * The MLOps pages of issue 31 in Debian's Chromium against the real stack, with the checks every browser test gets
 * (no console error, no failed request, no serious axe violation, no horizontal scroll, a screenshot under
 * test-artifacts/web-ui-mlops/): a registered model and a version of a trained model made from the Registry page, a
 * transition to production asked and approved there; a canary rollout started from the deployment's Rollouts tab,
 * its live state, pause / resume / promote; an A/B test made from its form, its statistics once traffic and outcomes
 * came in, and the winner promoted; a retraining policy made from its form.
 */

let stack: TestStack;
const ui = useBrowser('web-ui-mlops');
let page: Page;
let api: ApiClient;
let owner: Awaited<ReturnType<typeof signUp>>;
let projectId = '';
let glm = '';
let gbm = '';
/** The production deployment the registry's approval made (v1 of `churn`, the GBM). */
let registryDeployment = '';

const M = '/api/mlops';
const inputs = syntheticRows(50, 3).map(({ y: _y, ...r }) => r);

beforeAll(async () => {
  page = ui.page;
  stack = await startStack({ env: { RATE_LIMIT_PREDICT: '100000' } });
  owner = await signUp(stack.baseUrl, stack.mail, { name: 'Mona MLOps' });
  api = owner.client;
  projectId = await createProject(api, 'Lifecycle project');
  const trained = await trainQuickModels(api, projectId, ['GLM', 'GBM']);
  glm = trained.models.GLM;
  gbm = trained.models.GBM;
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

const rowsOf = (region: string): Promise<string[][]> => tableRows(page, region);

/** The project's active production deployment. */
async function productionDeployment(): Promise<{ id: string; name: string; model_id: string }> {
  const items = (await api.get(`${M}/projects/${projectId}/deployments?limit=200`)).body.items as { id: string; name: string; model_id: string; stage: string; is_active: boolean }[];
  const prod = items.find((d) => d.stage === 'production' && d.is_active);
  if (!prod) throw new Error('no production deployment');
  return prod;
}

describe('the MLOps pages in Chromium', () => {
  it('registers a model and a version of a trained model from the Registry page', async () => {
    await logInThroughForm(page, stack.baseUrl, owner);
    await page.getByRole('link', { name: 'Lifecycle project' }).click();
    await page.getByRole('link', { name: 'Registry', exact: true }).click();
    await page.getByRole('heading', { name: 'Model registry', exact: true }).waitFor();
    await page.getByText('No registered model yet.').waitFor();
    await ui.checkPage('registry-empty');

    await page.getByLabel('Name', { exact: true }).fill('churn');
    await page.getByLabel('Description').fill('Churn classifier');
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    expect((await waitForTableRows(page, 'Registered models', 1))[0].slice(0, 3)).toEqual(['churn', '–', '–']);
    await ui.checkPage('registry-listed');

    await page.getByRole('link', { name: 'churn', exact: true }).click();
    await page.getByRole('heading', { name: 'New version', exact: true }).waitFor();
    await page.getByLabel('Trained model').selectOption(gbm);
    await page.getByLabel('Version description').fill('first GBM');
    await page.getByRole('button', { name: 'Add version' }).click();
    const [v1] = await waitForTableRows(page, 'Versions', 1);
    expect(v1.slice(0, 3)).toEqual(['v1', 'none', '–']);
    // The metrics snapshot of the trained model, in the row and in the version's own table.
    expect(v1[4]).not.toBe('–');
    await page.getByRole('heading', { name: 'Version 1', exact: true }).waitFor();
    expect((await rowsOf('Metrics of v1')).length).toBeGreaterThan(0);
    await ui.checkPage('version-added');

    await page.getByLabel('Alias').fill('champion');
    await page.getByRole('button', { name: 'Point alias here' }).click();
    await eventually(async () => (await rowsOf('Versions'))[0][2] === 'champion', 10_000);
    await page.getByText('aliases: champion → v1').waitFor();
  });

  it('asks for a transition to production and approves it: the version is deployed', async () => {
    await page.getByLabel('To stage').selectOption('production');
    await page.getByLabel('Comment').fill('ship it');
    await page.getByRole('button', { name: 'Request transition' }).click();
    expect((await waitForTableRows(page, 'Transition requests of v1', 1))[0].slice(0, 4)).toEqual(['production', 'pending', 'you', 'ship it']);
    await ui.checkPage('transition-pending');

    await page.getByRole('button', { name: 'Approve the move to production' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Approve', exact: true }).click();
    await eventually(async () => (await rowsOf('Transition requests of v1'))[0][1] === 'approved', 30_000);
    await eventually(async () => (await rowsOf('Versions'))[0][1] === 'production', 10_000);
    expect(await factOf(page, 'Stage')).toBe('production');
    const version = (await api.get(`${M}/registry/${(await api.get(`${M}/projects/${projectId}/registry`)).body.items[0].id}/versions`)).body.items[0];
    expect(version.stage).toBe('production');
    registryDeployment = version.deployment_id;
    const dep = (await api.get(`${M}/deployments/${registryDeployment}`)).body.deployment;
    expect(dep).toMatchObject({ stage: 'production', name: 'churn v1', model_id: gbm });
    await ui.checkPage('transition-approved');

    await page.getByRole('link', { name: 'Events', exact: true }).click();
    await eventually(async () => (await rowsOf('Registry events').catch(() => [])).length >= 3, 10_000);
    const kinds = (await rowsOf('Registry events')).map((r) => r[1]);
    expect(kinds).toEqual(expect.arrayContaining(['version_created', 'transition_requested', 'transition_approved']));
    await ui.checkPage('registry-events');
  });

  it("changes the registered model's description and the aliases that deploy when moved", async () => {
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
    await page.getByLabel('Description').fill('Churn classifier, monthly');
    await page.getByLabel('Aliases that deploy when moved').fill('champion');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Churn classifier, monthly', { exact: true }).waitFor();
    await page.getByText('deploy on move: champion').waitFor();
    const registered = (await api.get(`${M}/projects/${projectId}/registry`)).body.items[0];
    expect(registered).toMatchObject({ description: 'Churn classifier, monthly', auto_deploy_aliases: ['champion'] });
    await ui.checkPage('registry-settings');
  });

  it("starts a canary on the deployment's Rollouts tab and follows its live state to promotion", async () => {
    await page.goto(`${stack.baseUrl}/app/deployments/${registryDeployment}`);
    await page.getByRole('link', { name: 'Rollouts', exact: true }).click();
    await page.getByRole('heading', { name: 'Start a rollout', exact: true }).waitFor();
    await page.getByText('No rollout yet.').waitFor();
    await ui.checkPage('rollouts-empty');

    await page.getByLabel('Strategy').selectOption('canary');
    await page.getByRole('combobox', { name: 'Candidate' }).selectOption(glm);
    await page.getByLabel('Traffic steps (%)').fill('50');
    await page.getByLabel('Pause per step (seconds)').fill('3600');
    await page.getByLabel('Gate metric').selectOption('error_rate');
    await page.getByLabel('Gate holds when observed is').selectOption('lt');
    await page.getByLabel('Gate threshold').fill('0.5');
    await page.getByLabel('Minimum samples').fill('1000');
    await page.getByLabel('Gate interval (seconds)').fill('5');
    await page.getByRole('button', { name: 'Start rollout' }).click();

    await page.getByRole('heading', { name: 'Canary rollout', exact: true }).waitFor();
    await eventually(async () => (await factOf(page, 'State')) === 'running', 30_000);
    expect(await factOf(page, 'Step')).toBe('1 of 1');
    // The candidate takes its share once the workflow has deployed it; the split shows both sides.
    await eventually(async () => (await factOf(page, 'Candidate traffic')) === '50%' && (await rowsOf('Traffic split').catch(() => [])).length === 2, 60_000);
    const split = await rowsOf('Traffic split');
    expect(split.map((r) => [r[0], r[2]])).toEqual([
      ['stable', '50%'],
      ['candidate', '50%'],
    ]);
    expect((await rowsOf('Canary steps'))[0]).toEqual(['1', '50%', '60 min', 'error_rate < 0.5 (≥ 1000 samples)', 'current']);
    // Requests reach both sides; the gates are checked every five seconds on the candidate's own.
    for (const row of inputs.slice(0, 20)) expect((await api.post(`${M}/deployments/${registryDeployment}/predict`, { inputs: row })).status).toBe(200);
    const [gate] = await waitForTableRows(page, 'Gate results', 1, 30_000);
    expect(gate[0]).toBe('error_rate');
    expect(gate[2]).toBe('< 0.5');
    await ui.checkPage('canary-running');

    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await eventually(async () => (await factOf(page, 'State')) === 'paused', 20_000);
    await page.getByRole('button', { name: 'Resume', exact: true }).click();
    await eventually(async () => (await factOf(page, 'State')) === 'running', 20_000);
    await page.getByRole('button', { name: 'Promote now' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Promote now', exact: true }).click();
    await eventually(async () => (await factOf(page, 'State')) === 'promoted', 60_000);
    await eventually(async () => (await rowsOf('Rollouts of this deployment'))[0]?.[1] === 'promoted', 10_000);
    expect((await rowsOf('Rollout history')).map((r) => r[1]).length).toBeGreaterThan(1);
    await ui.checkPage('canary-promoted');
  });

  it('shadows the production deployment with another model and compares their answers', async () => {
    const prod = await productionDeployment();
    await page.goto(`${stack.baseUrl}/app/deployments/${prod.id}?tab=rollouts`);
    await page.getByRole('heading', { name: 'Start a rollout', exact: true }).waitFor();
    await page.getByLabel('Strategy').selectOption('shadow');
    await page.getByRole('combobox', { name: 'Candidate' }).selectOption(gbm);
    await page.getByLabel('Mirrored share (%)').fill('100');
    await page.getByRole('button', { name: 'Start rollout' }).click();
    await page.getByRole('heading', { name: 'Shadow rollout', exact: true }).waitFor();
    expect(await factOf(page, 'Mirrored')).toBe('100% of requests');
    expect((await waitForTableRows(page, 'Traffic split', 2, 60_000)).map((r) => [r[0], r[2]])).toEqual([
      ['stable', '100%'],
      ['shadow', '100% mirrored'],
    ]);
    for (const row of inputs.slice(0, 20)) expect((await api.post(`${M}/deployments/${prod.id}/predict`, { inputs: row })).status).toBe(200);
    await page.getByRole('heading', { name: 'Shadow comparison', exact: true }).waitFor();
    await eventually(async () => Number(await factOf(page, 'Compared answers')) >= 20, 30_000);
    expect(await factOf(page, 'Agreement')).toMatch(/^[\d.]+%$/);
    await ui.checkPage('shadow-running');

    await page.getByRole('button', { name: 'Abort', exact: true }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Abort', exact: true }).click();
    await eventually(async () => (await factOf(page, 'State')) === 'aborted', 60_000);
    expect((await productionDeployment()).id).toBe(prod.id);
    await ui.checkPage('shadow-aborted');
  });

  it('switches production blue-green and rolls the switch back inside its window', async () => {
    const prod = await productionDeployment();
    await page.goto(`${stack.baseUrl}/app/deployments/${prod.id}?tab=rollouts`);
    await page.getByRole('heading', { name: 'Start a rollout', exact: true }).waitFor();
    await page.getByLabel('Strategy').selectOption('blue_green');
    await page.getByRole('combobox', { name: 'Candidate' }).selectOption(gbm);
    await page.getByLabel('Keep the previous (seconds)').fill('600');
    await page.getByRole('button', { name: 'Start rollout' }).click();
    await page.getByRole('heading', { name: 'Blue-green rollout', exact: true }).waitFor();
    // Switched: the candidate serves production while the previous one stays restorable.
    await eventually(async () => (await productionDeployment()).id !== prod.id, 60_000);
    expect((await productionDeployment()).model_id).toBe(gbm);
    await page.getByRole('button', { name: 'Roll back' }).waitFor();
    await ui.checkPage('blue-green-switched');

    await page.getByRole('button', { name: 'Roll back' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Roll back', exact: true }).click();
    await eventually(async () => (await factOf(page, 'State')) === 'rolled_back', 60_000);
    expect((await productionDeployment()).id).toBe(prod.id);
    await ui.checkPage('blue-green-rolled-back');
  });

  it("creates an A/B test from its form and shows each variant's statistics, the conclusion and the promotion", async () => {
    // Two active deployments: the production one (GLM after the canary) and a staging GBM.
    const prod = await productionDeployment();
    const staged = await api.post(`${M}/projects/${projectId}/deployments`, { model_id: gbm, name: 'gbm staging', stage: 'staging' });
    expect(staged.status).toBe(201);

    await page.goto(`${stack.baseUrl}/app/projects/${projectId}`);
    await page.getByRole('link', { name: 'A/B tests', exact: true }).click();
    await page.getByRole('heading', { name: 'New A/B test', exact: true }).waitFor();
    await page.getByText('No A/B test yet.').waitFor();
    await ui.checkPage('ab-tests-empty');

    await page.getByLabel('Name', { exact: true }).fill('Checkout');
    await page.getByLabel('Primary metric').selectOption('conversion');
    await page.getByLabel('Minimum samples per variant').fill('20');
    await page.getByLabel('Variant 1 name').fill('control');
    await page.getByLabel('Variant 1 deployment').selectOption(prod.id);
    await page.getByLabel('Variant 2 name').fill('gbm');
    await page.getByLabel('Variant 2 deployment').selectOption(staged.body.id);
    await page.getByRole('button', { name: 'Create A/B test' }).click();
    await page.getByRole('heading', { name: 'Checkout', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await page.getByRole('button', { name: 'Stop now' }).waitFor();
    const testId = page.url().split('/').pop()!;
    await ui.checkPage('ab-test-started');

    // Traffic through the test: the gbm variant converts four times in five, the control once in five.
    let state = 'running';
    for (let batch = 0; batch < 20 && state === 'running'; batch++) {
      const outcomes = [];
      for (let i = 0; i < 20; i++) {
        const r = await api.post(`${M}/ab-tests/${testId}/predict`, { inputs: inputs[i % inputs.length] }, { headers: { 'x-ab-key': `visitor-${batch}-${i}` } });
        expect(r.status).toBe(200);
        const converts = r.body.variant === 'gbm' ? i % 5 !== 0 : i % 5 === 0;
        outcomes.push({ request_id: r.body.request_id, value: converts ? 1 : 0 });
      }
      expect((await api.post(`${M}/ab-tests/${testId}/outcomes`, { outcomes })).status).toBe(200);
      state = (await api.get(`${M}/ab-tests/${testId}`)).body.state;
    }
    expect(state).toBe('concluded');

    await page.reload();
    await page.getByRole('status').filter({ hasText: 'gbm wins against control' }).waitFor();
    const variants = await rowsOf('Variant statistics');
    expect(variants.map((v) => v[0])).toEqual(['control', 'gbm']);
    for (const v of variants) expect(Number(v[3].replace(/,/g, ''))).toBeGreaterThanOrEqual(20);
    expect(Number(variants[1][4])).toBeGreaterThan(Number(variants[0][4]));
    const [comparison] = await rowsOf('Comparisons');
    expect(comparison[0]).toBe('gbm');
    expect(comparison[1]).toBe('control');
    expect(Number(comparison[2])).toBeGreaterThan(0);
    expect(comparison[3]).toMatch(/ to /);
    expect(comparison[5]).toBe('yes');
    await ui.checkPage('ab-test-concluded');

    await page.getByRole('button', { name: 'Promote gbm to production' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Promote', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Promoted' }).waitFor();
    expect((await api.get(`${M}/deployments/${staged.body.id}`)).body.deployment.stage).toBe('production');
    await ui.checkPage('ab-test-promoted');
  });

  it('creates a retraining policy from its form', async () => {
    await page.goto(`${stack.baseUrl}/app/projects/${projectId}`);
    await page.getByRole('link', { name: 'Retraining', exact: true }).click();
    await page.getByRole('heading', { name: 'New policy', exact: true }).waitFor();
    await page.getByText('No policy yet.').waitFor();
    await page.getByText('No retraining yet.').waitFor();
    await ui.checkPage('retraining-empty');

    await page.getByLabel('Name', { exact: true }).fill('Weekly retrain');
    await page.getByLabel('Registered model').selectOption({ label: 'churn' });
    await page.getByLabel('Outcome').selectOption('approval');
    await page.getByLabel('Minimum improvement').fill('0.01');
    await page.getByLabel('Schedule (cron, UTC)').fill('0 3 * * 1');
    await page.getByLabel('On a new version of the training dataset').check();
    await page.getByRole('button', { name: 'Create policy' }).click();
    const [row] = await waitForTableRows(page, 'Retraining policies', 1);
    expect(row.slice(0, 7)).toEqual(['Weekly retrain', 'churn', 'cron 0 3 * * 1, new dataset version', 'approval', 'sort metric better by ≥ 0.01', '60 min', 'yes']);
    const [policy] = (await api.get(`${M}/retraining-policies?project_id=${projectId}`)).body.items;
    expect(policy).toMatchObject({ name: 'Weekly retrain', outcome: 'approval', triggers: { schedule_cron: '0 3 * * 1', new_dataset_version: true } });
    await ui.checkPage('retraining-policy');

    await page.getByRole('button', { name: 'Disable Weekly retrain' }).click();
    await eventually(async () => (await rowsOf('Retraining policies'))[0][6] === 'no', 10_000);
    await ui.checkPage('retraining-disabled');
  });

  it('runs the policy by hand: the retraining job shows its state, evaluation and links, and is approved', async () => {
    // Any challenger passes the gate (the champion scores perfectly on the small holdout), so the run awaits approval.
    const [policy] = (await api.get(`${M}/retraining-policies?project_id=${projectId}`)).body.items;
    expect((await api.patch(`${M}/retraining-policies/${policy.id}`, { gate: { min_improvement: -1 } })).status).toBe(200);
    await page.reload();
    await page.getByRole('button', { name: 'Run now: Weekly retrain' }).click();
    expect((await waitForTableRows(page, 'Retraining jobs', 1))[0].slice(1, 3)).toEqual(['Weekly retrain', 'manual']);
    // The list is read again every five seconds while the job is open.
    const settled = ['awaiting_approval', 'promoted', 'rejected', 'registered', 'failed'];
    await eventually(async () => settled.includes((await rowsOf('Retraining jobs'))[0][3]), 240_000, 1000);
    const [job] = await rowsOf('Retraining jobs');
    expect(job[3]).toBe('awaiting_approval');
    expect(job[4]).toMatch(/champion .* challenger .* on \d+ rows, passed$/);
    expect(job[5]).toContain('experiment');
    expect(job[5]).toContain('challenger');
    await ui.checkPage('retraining-awaiting-approval');

    await page.getByRole('button', { name: 'Approve the challenger' }).click();
    await eventually(async () => (await rowsOf('Retraining jobs'))[0][3] === 'promoted', 60_000);
    const [done] = (await api.get(`${M}/retraining-jobs?project_id=${projectId}`)).body.items;
    expect(done.state).toBe('promoted');
    // The challenger is production and the registry's champion now.
    const challenger = (await api.get(`${M}/versions/${done.challenger_version_id}`)).body;
    expect(challenger).toMatchObject({ stage: 'production', aliases: expect.arrayContaining(['champion']) });
    await ui.checkPage('retraining-promoted');
  }, 300_000);

  it('fits a 390 px wide screen: the project, a registered model, a rollout, an A/B test, retraining', async () => {
    const registered = (await api.get(`${M}/projects/${projectId}/registry`)).body.items[0];
    const [canary] = (await api.get(`${M}/deployments/${registryDeployment}/strategies`)).body.items;
    const [abTest] = (await api.get(`${M}/ab-tests?project_id=${projectId}`)).body.items;
    await checkPagesAtPhoneWidth(ui, [
      { url: `${stack.baseUrl}/app/projects/${projectId}`, name: 'narrow-project', heading: 'Lifecycle project' },
      { url: `${stack.baseUrl}/app/registry/${registered.id}`, name: 'narrow-registered-model', heading: 'Transition requests' },
      { url: `${stack.baseUrl}/app/rollouts/${canary.id}`, name: 'narrow-rollout', heading: 'Canary rollout' },
      { url: `${stack.baseUrl}/app/ab-tests/${abTest.id}`, name: 'narrow-ab-test', heading: 'Comparisons with the control' },
      { url: `${stack.baseUrl}/app/projects/${projectId}/retraining`, name: 'narrow-retraining', heading: 'Retraining jobs' },
    ]);
  });
});
