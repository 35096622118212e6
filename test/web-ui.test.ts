import { type BrowserContext, type Page } from 'playwright-core';
import { useBrowser, checkPagesAtPhoneWidth, submitLoginForm } from './support/browser';
import { linkIn } from './support/smtp-sink';
import { eventually, uniqueEmail } from './support/client';
import { datasetPath } from './support/datasets';
import { startStack, TestStack } from './support/stack';

/**
 * The web application end to end in Debian's Chromium (headless, driven by playwright-core), against the real
 * stack: sign-up to a deployed model and its report. Every page is checked for console errors, failed requests
 * and serious or critical axe-core violations, and saved as a screenshot under test-artifacts/web-ui/
 * (test/support/browser.ts).
 */

let stack: TestStack;
const ui = useBrowser('web-ui');
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  ({ context, page } = ui);
  stack = await startStack({ env: { RATE_LIMIT_TRAIN: '1000', RATE_LIMIT_PREDICT: '1000' } });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

const password = 'a long browser password';
const email = uniqueEmail('browser');
let modelUrl = '';

describe('the web UI in Chromium, from sign-up to a deployed model', () => {
  it('answers the page routes with the application shell under a content security policy that allows no inline script', async () => {
    for (const p of ['/login', '/register', '/auth/login', '/auth/register', '/auth/forgot-password', '/auth/profile', '/logout', '/app/projects']) {
      const r = await fetch(stack.baseUrl + p);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^text\/html/);
      const csp = r.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      const html = await r.text();
      expect(html).toMatch(/<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js"><\/script>/);
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    }
    const asset = (await (await fetch(`${stack.baseUrl}/login`)).text()).match(/\/assets\/index-[\w-]+\.js/)![0];
    const js = await fetch(stack.baseUrl + asset);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    expect(js.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${stack.baseUrl}/assets/..%2Fpackage.json`)).status).toBe(404);
    expect((await fetch(`${stack.baseUrl}/nowhere`)).status).toBe(404);
    expect((await fetch(`${stack.baseUrl}/login`, { method: 'POST' })).status).toBe(405);
  });

  it('registers, activates from the mailed link and logs in with remember', async () => {
    await page.goto(`${stack.baseUrl}/register`);
    await page.getByRole('heading', { name: 'Create an account', exact: true }).waitFor();
    await ui.checkPage('register');
    await page.getByLabel('Name').fill('Ada Browser');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Check your inbox', exact: true }).waitFor();
    await ui.checkPage('register-done');

    const mail = await stack.mail.waitFor(email, /verify-email\?token=/);
    const link = new URL(linkIn(mail, 'verify-email?token='));
    await page.goto(stack.baseUrl + link.pathname + link.search);
    await page.getByRole('heading', { name: 'Email verified', exact: true }).waitFor();
    await ui.checkPage('activation');

    await page.getByRole('link', { name: 'Go to the login page' }).click();
    await page.getByRole('heading', { name: 'Log in', exact: true }).waitFor();
    await ui.checkPage('login');
    await submitLoginForm(page, { email, password }, { remember: true });
    await page.getByRole('heading', { name: 'Projects', exact: true }).waitFor();
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'session_token')!;
    expect(session.httpOnly).toBe(true);
    // remember: a persistent cookie (about 30 days), not a browser-session one.
    expect(session.expires * 1000 - Date.now()).toBeGreaterThan(20 * 86_400_000);
    expect(await page.evaluate('({ local: localStorage.length, session: sessionStorage.length })')).toEqual({ local: 0, session: 0 });
    await ui.checkPage('projects-empty');
  });

  it('creates a project and uploads titanic.csv with a progress bar', async () => {
    await page.getByLabel('Project name').fill('Titanic in the browser');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('heading', { name: 'Titanic in the browser', exact: true }).waitFor();
    await ui.checkPage('project');
    await page.getByLabel('File (CSV or Parquet)').setInputFiles(datasetPath('titanic.csv'));
    await page.getByLabel('Dataset name').fill('titanic');
    // Every value the upload's progress bar shows, seen from inside the page (it is gone once the dataset opens).
    await page.evaluate(`window.progressSeen = [];
      new MutationObserver(() => {
        const bar = document.querySelector('progress[aria-label="Upload progress"]');
        if (bar) window.progressSeen.push(Number(bar.value));
      }).observe(document.body, { subtree: true, childList: true, attributes: true })`);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByRole('heading', { name: 'titanic', exact: true }).waitFor({ timeout: 60_000 });
    const seen = await page.evaluate<number[]>('window.progressSeen');
    expect(seen.length).toBeGreaterThan(0);
    expect(Math.max(...seen)).toBe(100);
    await page.getByRole('region', { name: 'First rows of the latest version' }).first().waitFor();
    await ui.checkPage('dataset-preview');
    for (const [tab, ready] of [
      ['Quality', 'Quality checks'],
      ['Analyze', 'Column statistics'],
      ['Versions', 'Versions'],
    ] as const) {
      await page.getByRole('link', { name: tab, exact: true }).click();
      await page.getByRole('region', { name: ready, exact: true }).first().waitFor({ timeout: 60_000 });
      if (tab === 'Analyze') expect(await page.locator('canvas').count()).toBeGreaterThan(3);
      await ui.checkPage(`dataset-${tab.toLowerCase()}`);
    }
  });

  it('starts an experiment with a tiny budget, follows it live and opens the best model', async () => {
    await page.getByRole('link', { name: 'New experiment' }).click();
    await page.getByRole('heading', { name: 'New experiment', exact: true }).waitFor();
    await page.getByLabel('Target column').selectOption('survived');
    await page.getByLabel('Problem type').selectOption('classification');
    await page.getByLabel('Max models').fill('2');
    await page.getByLabel('Max runtime (seconds)').fill('60');
    await page.getByLabel('Cross-validation folds').fill('0');
    for (const algo of ['DeepLearning', 'StackedEnsemble']) await page.getByLabel(algo, { exact: true }).check();
    await ui.checkPage('experiment-new');
    await page.getByRole('button', { name: 'Start training' }).click();
    await page.getByRole('heading', { name: 'Progress', exact: true }).waitFor();
    await page.getByRole('link', { name: 'Open the best model' }).waitFor({ timeout: 150_000 });
    await page.locator('.status-succeeded').first().waitFor({ timeout: 30_000 });
    await ui.checkPage('experiment');

    await page.getByRole('link', { name: 'Open the best model' }).click();
    await page.getByRole('heading', { name: 'Predict', exact: true }).waitFor();
    modelUrl = page.url();
    await page.getByRole('region', { name: 'Metrics', exact: true }).first().waitFor();
    await ui.checkPage('model');
  });

  it('predicts one row from the form built from the schema, with contributions', async () => {
    await page.getByRole('button', { name: 'Fill with a sample row' }).click();
    await eventually(async () => (await page.getByLabel(/^sex /).inputValue()) !== '', 10_000);
    await page.getByRole('button', { name: 'Predict', exact: true }).click();
    const prediction = await page.getByTestId('prediction').textContent();
    expect(['0', '1']).toContain(prediction);
    await ui.checkPage('model-predicted');
  });

  it('deploys the model to staging, opens the deployment and views its report inline', async () => {
    await page.getByLabel('Stage').selectOption('staging');
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    await page.getByRole('link', { name: 'Inference logs' }).waitFor();
    await ui.checkPage('deployment');
    const headings: Record<string, string> = { 'Inference logs': 'Inference logs', Drift: 'Drift', History: 'Stage history', Alerts: 'Alerts of this deployment' };
    for (const [tab, heading] of Object.entries(headings)) {
      await page.getByRole('link', { name: tab, exact: true }).click();
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
      await ui.checkPage(`deployment-${tab.split(' ')[0].toLowerCase()}`);
      if (tab !== 'Drift') continue;
      // A drift schedule: set, shown, stopped.
      await page.getByText('Drift runs when asked.').waitFor();
      await page.getByLabel('Run drift every (minutes)').fill('45');
      await page.getByRole('button', { name: 'Schedule', exact: true }).click();
      await page.getByText('Drift runs every 45 minutes.').waitFor();
      await ui.checkPage('deployment-drift-scheduled');
      await page.getByRole('button', { name: 'Stop the schedule' }).click();
      await page.getByText('Drift runs when asked.').waitFor();
    }
    await page.getByRole('link', { name: 'Overview', exact: true }).click();
    await page.getByRole('button', { name: 'Deployment report' }).click();
    // The report's options first (report.tsx): HTML, every section.
    await page.getByRole('button', { name: 'Generate report' }).click();
    const frame = page.frameLocator('iframe[title="The deployment report"]');
    await frame.locator('h1').first().waitFor({ timeout: 90_000 });
    await ui.checkPage('report');
  });

  it('lists jobs with their Temporal UI links, the project tabs, and manages the profile', async () => {
    await page.getByRole('link', { name: 'Jobs', exact: true }).click();
    await page.getByRole('region', { name: 'Jobs', exact: true }).first().waitFor();
    expect(await page.getByRole('link', { name: 'Temporal UI' }).count()).toBeGreaterThan(0);
    await ui.checkPage('jobs');

    await page.getByRole('link', { name: 'Projects', exact: true }).click();
    await page.getByRole('link', { name: 'Titanic in the browser' }).click();
    for (const [tab, heading] of [
      ['Experiments', 'Experiments'],
      ['Models', 'Models'],
      ['Deployments', 'Deployments'],
      ['Reports', 'Reports'],
      ['Members', 'Members'],
      ['Timeline', 'Timeline'],
    ]) {
      await page.getByRole('link', { name: tab, exact: true }).click();
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
      await ui.checkPage(`project-${tab.toLowerCase()}`);
    }

    await page.getByRole('link', { name: 'Profile', exact: true }).click();
    await page.getByRole('heading', { name: 'Profile', exact: true }).waitFor();
    await page.getByLabel('Key name').fill('ci key');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByTestId('new-api-key').textContent()) ?? '';
    expect(key).toMatch(/^\S+\.\S+$/);
    const me = await fetch(`${stack.baseUrl}/api/projects`, { headers: { authorization: `Bearer ${key}` } });
    expect(me.status).toBe(200);
    await page.getByRole('region', { name: 'Your API keys', exact: true }).first().waitFor();
    await ui.checkPage('profile');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    expect(await page.getByTestId('new-api-key').count()).toBe(0);
    await page.getByRole('button', { name: 'Revoke key ci key' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke', exact: true }).click();
    await eventually(async () => (await fetch(`${stack.baseUrl}/api/projects`, { headers: { authorization: `Bearer ${key}` } })).status === 401, 10_000);
    await page.getByLabel('Display name').fill('Ada Renamed');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.locator('header .who', { hasText: 'Ada Renamed' }).waitFor();
    await ui.checkPage('profile-renamed');
  });

  it('fits a 390 px wide screen', async () => {
    await checkPagesAtPhoneWidth(ui, [
      { url: `${stack.baseUrl}/app/projects`, name: 'narrow-projects', heading: 'Projects' },
      { url: modelUrl, name: 'narrow-model', heading: 'Predict' },
      { url: `${stack.baseUrl}/auth/profile`, name: 'narrow-profile', heading: 'Profile' },
    ]);
    await ui.atPhoneWidth(async () => {
      await page.goto(`${stack.baseUrl}/login`);
      await ui.expectNoHorizontalScroll();
    });
  });

  it('logs out with a POST from /logout; the application then sends to the login page', async () => {
    await page.goto(`${stack.baseUrl}/logout`);
    await page.getByRole('heading', { name: 'Logged out', exact: true }).waitFor();
    await ui.checkPage('logged-out');
    await page.goto(`${stack.baseUrl}/app/projects`);
    await page.getByRole('heading', { name: 'Log in', exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await ui.checkPage('login-again');
  });
});
