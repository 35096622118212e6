import fs from 'node:fs';
import { type BrowserContext, type Page } from 'playwright-core';
import { useBrowser, checkPagesAtPhoneWidth, openProjectTab, submitLoginForm, tableRows } from './support/browser';
import { ApiClient, createProject, eventually, signUp } from './support/client';
import { linkIn } from './support/smtp-sink';
import { startStack, TestStack } from './support/stack';
import { trainQuickModels } from './support/trained-models';

/**
 * The web UI's privacy, synthgen and studio pages, the password reset through the SMTP sink, revoking a session and
 * canceling an experiment, in Debian's Chromium against the real stack, with the same checks on every page as
 * test/web-ui.test.ts (test/support/browser.ts): no console error, no failed request, no serious or critical axe
 * violation, a screenshot under test-artifacts/web-ui-more/. Data is small and budgets tiny (about a minute on 2 cores).
 */

let stack: TestStack;
const ui = useBrowser('web-ui-more');
let context: BrowserContext;
let page: Page;
let api: ApiClient;
let email = '';
let projectId = '';
/** The quick GLM of the studio and the table the synthgen model learns, trained while the first pages are checked. */
let trained: Promise<{ versionId: string; models: Record<string, string> }>;
const newPassword = 'a brand new browser password';

/** Contacts with emails and phone numbers (and a city and an amount, which are not PII). */
function contactsCsv(n: number): string {
  const first = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald'];
  const last = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth'];
  const cities = ['Paris', 'Lyon', 'Nantes'];
  const lines = ['customer,email,phone,city,amount'];
  for (let i = 0; i < n; i++) {
    const f = first[i % 6];
    const l = last[(i * 5) % 6];
    lines.push(
      [`${f} ${l}`, `${f.toLowerCase()}.${l.toLowerCase()}${i}@example.com`, `(212) 555-${String(1000 + ((i * 37) % 9000)).slice(-4)}`, cities[i % 3], ((i * 13.7) % 500).toFixed(2)].join(','),
    );
  }
  return lines.join('\n') + '\n';
}

beforeAll(async () => {
  ({ context, page } = ui);
  stack = await startStack({ env: { RATE_LIMIT_TRAIN: '1000', RATE_LIMIT_PREDICT: '1000' } });
  const user = await signUp(stack.baseUrl, stack.mail, { name: 'Bea Browser' });
  api = user.client;
  email = user.email;
  projectId = await createProject(api, 'More pages');
  const up = await api.upload('/api/datasets/upload', { project_id: projectId, name: 'contacts' }, { name: 'contacts.csv', data: contactsCsv(60) });
  expect(up.status).toBe(201);
  trained = trainQuickModels(api, projectId, ['GLM']);
  // Settled here too, so a failed training is reported by the test that needs it and never as an unhandled rejection.
  trained.catch(() => undefined);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

describe('the web UI in Chromium: password reset, sessions, privacy, synthgen, studio', () => {
  it('resets a forgotten password from the mailed link and logs in with the new one', async () => {
    await page.goto(`${stack.baseUrl}/auth/forgot-password`);
    await page.getByRole('heading', { name: 'Reset your password', exact: true }).waitFor();
    await ui.checkPage('forgot-password');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send the reset link' }).click();
    await page.getByRole('status').waitFor();
    await ui.checkPage('forgot-password-sent');

    const mail = await stack.mail.waitFor(email, /reset-password\?token=/);
    const link = new URL(linkIn(mail, 'reset-password?token='));
    await page.goto(stack.baseUrl + link.pathname + link.search);
    await page.getByRole('heading', { name: 'Choose a new password', exact: true }).waitFor();
    await ui.checkPage('reset-password');
    await page.getByLabel('New password (at least 8 characters)').fill(newPassword);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('heading', { name: 'Password changed', exact: true }).waitFor();
    await ui.checkPage('reset-password-done');
    // The reset ended every session, the API client's too.
    expect((await api.get('/api/auth/me')).status).toBe(401);

    await page.getByRole('link', { name: 'Go to the login page' }).click();
    await submitLoginForm(page, { email, password: newPassword });
    await page.getByRole('heading', { name: 'Projects', exact: true }).waitFor();
    await page.getByRole('link', { name: 'More pages' }).waitFor();
    await ui.checkPage('projects');
  });

  it("revokes another session from the profile; that session's requests are then refused", async () => {
    expect((await api.post('/api/auth/login', { email, password: newPassword })).status).toBe(200);
    expect((await api.get('/api/auth/me')).status).toBe(200);
    await page.getByRole('link', { name: 'Profile', exact: true }).click();
    await page.getByRole('region', { name: 'Live sessions', exact: true }).waitFor();
    await expect(page.getByRole('button', { name: /^Revoke the session started/ }).count()).resolves.toBe(1);
    await ui.checkPage('profile-sessions');
    await page.getByRole('button', { name: /^Revoke the session started/ }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke', exact: true }).click();
    await eventually(async () => (await page.getByRole('button', { name: /^Revoke the session started/ }).count()) === 0, 10_000);
    expect((await api.get('/api/auth/me')).status).toBe(401);
    await ui.checkPage('profile-session-revoked');
    // The API client logs in again for the steps that set data up.
    expect((await api.post('/api/auth/login', { email, password: newPassword })).status).toBe(200);
  });

  let sessionUrl = '';
  it('creates a privacy policy, adds and deletes rules, and detects PII in a CSV of contacts', async () => {
    await openProjectTab(page, stack.baseUrl, projectId, 'privacy', 'Privacy policies');
    await ui.checkPage('project-privacy');
    await page.getByLabel('Policy name').fill('Contacts GDPR');
    await page.getByLabel('Compliance profile').selectOption('gdpr');
    await page.getByRole('button', { name: 'Create policy' }).click();
    await page.getByRole('heading', { name: 'Contacts GDPR', exact: true }).waitFor();

    await page.getByLabel('PII type').selectOption('email');
    await page.getByLabel('Rule action').selectOption('mask');
    await page.getByLabel('Config (JSON)').fill('{"char": "#", "visible": 4}');
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.getByRole('button', { name: 'Delete rule email mask' }).waitFor();
    await page.getByLabel('PII type').selectOption('phone');
    await page.getByLabel('Rule action').selectOption('redact');
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.getByRole('button', { name: 'Delete rule phone redact' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await eventually(async () => (await page.getByRole('button', { name: 'Delete rule phone redact' }).count()) === 0, 10_000);
    // The rules table has a name of its own, not the "Rules" of its section.
    const [rule, ...others] = await tableRows(page, 'Rules of this policy');
    expect(others).toEqual([]);
    expect(rule.slice(0, 2)).toEqual(['email', 'mask']);
    await ui.checkPage('privacy-policy');

    await page.getByRole('combobox', { name: /^Dataset/ }).selectOption({ label: 'contacts' });
    await page.getByRole('button', { name: 'Start session and detect' }).click();
    await page.getByRole('heading', { name: 'Privacy session on contacts', exact: true }).waitFor();
    const results = page.getByRole('region', { name: 'Detected PII by column', exact: true });
    await results.waitFor({ timeout: 60_000 });
    sessionUrl = page.url();
    const rows = await results.locator('tbody tr').allInnerTexts();
    const found = rows.map((r) => r.split('\t').slice(0, 2).join(':'));
    expect(found).toEqual(expect.arrayContaining(['email:email', 'phone:phone']));
    expect(rows.join('\n')).not.toContain('ada.lovelace0@example.com');
    await ui.checkPage('privacy-detected');

    await page.getByRole('button', { name: 'Anonymize' }).click();
    const download = page.getByRole('link', { name: 'Download anonymized CSV' });
    await download.waitFor({ timeout: 60_000 });
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    const csv = fs.readFileSync(await file.path(), 'utf8');
    const [head, ...body] = csv.trim().split('\n');
    expect(body).toHaveLength(60);
    // The policy's own rule masks emails with '#'; the profile's defaults transform the rest.
    const at = head.split(',').indexOf('email');
    expect(body.every((l) => l.split(',')[at].includes('#'))).toBe(true);
    expect(csv).not.toContain('ada.lovelace0@example.com');
    await page.getByRole('button', { name: 'Make the PDF report' }).click();
    await page.getByRole('link', { name: 'download the PDF' }).waitFor({ timeout: 60_000 });
    await ui.checkPage('privacy-completed');
  });

  let generationUrl = '';
  it('trains a gaussian_copula model, generates rows under a condition and shows their quality and privacy check', async () => {
    await trained;
    await openProjectTab(page, stack.baseUrl, projectId, 'synthgen', 'Train a synthetic data model');
    await page.getByRole('combobox', { name: /^Dataset/ }).selectOption({ label: 'synthetic' });
    await page.getByLabel('Model name').fill('copula');
    await page.getByLabel('Model type').selectOption('gaussian_copula');
    await page.getByRole('spinbutton', { name: /^Seed/ }).fill('3');
    await ui.checkPage('project-synthgen');
    await page.getByRole('button', { name: 'Train model' }).click();
    await page.getByRole('heading', { name: 'copula', exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Generate rows', exact: true }).waitFor({ timeout: 90_000 });
    await ui.checkPage('synthgen-model');

    await page.getByLabel('Rows', { exact: true }).fill('200');
    await page.getByLabel('Generation seed').fill('7');
    await page.getByRole('button', { name: 'Add a condition' }).click();
    await page.getByLabel('Condition 1 column').selectOption('color');
    await page.getByLabel('Condition 1 value').fill('red');
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    await page.getByRole('heading', { name: 'Generation with copula', exact: true }).waitFor();
    await page.getByTestId('quality-overall').waitFor({ timeout: 90_000 });
    generationUrl = page.url();
    expect(await page.getByTestId('quality-overall').textContent()).toMatch(/^\d+(\.\d+)?%$/);
    await page.getByRole('region', { name: 'Column shapes', exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Privacy check', exact: true }).waitFor();
    await ui.checkPage('synthgen-generation');

    const csvHref = (await page.getByRole('link', { name: 'CSV', exact: true }).getAttribute('href'))!;
    const res = await context.request.get(stack.baseUrl + csvHref);
    expect(res.status()).toBe(200);
    const [header, ...lines] = (await res.text()).trim().split('\n');
    expect(lines).toHaveLength(200);
    const color = header.split(',').indexOf('color');
    expect(new Set(lines.map((l) => l.split(',')[color]))).toEqual(new Set(['red']));
    expect(await page.getByRole('link', { name: 'Parquet', exact: true }).getAttribute('href')).toBe(`${csvHref}?format=parquet`);

    await page.getByRole('button', { name: 'Synthgen report' }).click();
    // The report's options first (report.tsx): HTML, every section.
    await page.getByRole('button', { name: 'Generate report' }).click();
    await page.frameLocator('iframe[title="The synthgen report"]').locator('h1').first().waitFor({ timeout: 90_000 });
    await ui.checkPage('synthgen-report');
  });

  let studioUrl = '';
  it('starts a studio session on a deployment, moves a slider for a scenario and compares it with the baseline', async () => {
    const { models } = await trained;
    const dep = await api.post(`/api/mlops/projects/${projectId}/deployments`, { model_id: models.GLM, name: 'glm-staging', stage: 'staging' });
    expect(dep.status).toBe(201);
    await openProjectTab(page, stack.baseUrl, projectId, 'studio', 'New what-if session');
    await eventually(async () => (await page.getByLabel('x1 (float64)').inputValue()) !== '', 10_000);
    await ui.checkPage('project-studio');
    await page.getByRole('button', { name: 'Start session' }).click();
    await page.getByRole('heading', { name: 'Studio session', exact: true }).waitFor();
    expect(await page.getByTestId('baseline-prediction').textContent()).toMatch(/^(pos|neg) \(P\(pos\) = [\d.]+\)$/);
    studioUrl = page.url();

    // The sliders' ranges and the suggested levels come from a sample of the training data.
    await page.getByLabel('x1 slider').fill('2');
    expect(await page.locator('datalist option').evaluateAll((os) => os.map((o) => o.getAttribute('value')).sort())).toEqual(['blue', 'green', 'red']);
    await page.getByText(/Changes from the baseline: x1 = /).waitFor();
    await page.getByLabel('Scenario name').fill('higher x1');
    await ui.checkPage('studio-session');
    await page.getByRole('button', { name: 'Add and run scenario' }).click();
    const compare = page.getByRole('region', { name: 'Scenarios against the baseline', exact: true });
    await compare.waitFor();
    expect(await compare.innerText()).toContain('higher x1');
    await page.locator('.status-succeeded').first().waitFor();
    await ui.checkPage('studio-compare');
  });

  it('cancels a running experiment from its page', async () => {
    await page.goto(`${stack.baseUrl}/app/experiments/new?project=${projectId}`);
    await page.getByRole('heading', { name: 'New experiment', exact: true }).waitFor();
    await page.getByRole('combobox', { name: /^Dataset/ }).selectOption({ label: 'synthetic (v0)' });
    await page.getByLabel('Target column').selectOption('y');
    await page.getByLabel('Max models').fill('20');
    await page.getByLabel('Max runtime (seconds)').fill('300');
    await page.getByLabel('Cross-validation folds').fill('2');
    await page.getByRole('button', { name: 'Start training' }).click();
    await page.getByRole('heading', { name: 'Progress', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Cancel', exact: true }).click({ timeout: 30_000 });
    await page.locator('.status-canceled').first().waitFor({ timeout: 60_000 });
    await ui.checkPage('experiment-canceled');
  });

  it('fits the new pages on a 390 px wide screen', async () => {
    await checkPagesAtPhoneWidth(ui, [
      { url: sessionUrl, name: 'narrow-privacy-session', heading: 'Detected PII' },
      { url: generationUrl, name: 'narrow-synthgen-generation', heading: 'Quality' },
      { url: studioUrl, name: 'narrow-studio', heading: 'Compare' },
    ]);
  });
});
