import { randomUUID } from 'node:crypto';
import { type Page } from 'playwright-core';
import { useBrowser, logInThroughForm, tableRows, waitForTableRows } from './support/browser';
import { ApiClient, createProject, eventually, signUp } from './support/client';
import { startStack, TestStack } from './support/stack';

/**
 * The alerts pages in Debian's Chromium against the real stack, with the checks every browser test gets (no console
 * error, no failed request, no serious axe violation, a screenshot under test-artifacts/web-ui-alerts/): a channel
 * made and tested from its form (the test mail reaches the SMTP sink), a rule made from its form, the inbox's
 * acknowledge and resolve on an alert, a silence, and the history those left.
 */

let stack: TestStack;
const ui = useBrowser('web-ui-alerts');
let page: Page;
let api: ApiClient;
let owner: Awaited<ReturnType<typeof signUp>>;
let projectId = '';
const recipient = 'oncall@example.com';

beforeAll(async () => {
  page = ui.page;
  stack = await startStack();
  owner = await signUp(stack.baseUrl, stack.mail, { name: 'Alma Alerts' });
  api = owner.client;
  projectId = await createProject(api, 'Watched project');
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

const rowsOf = (region: string): Promise<string[][]> => tableRows(page, region);

describe('the alerts pages in Chromium', () => {
  it('opens the alerts of a project from its page: an empty inbox', async () => {
    await logInThroughForm(page, stack.baseUrl, owner);
    await page.getByRole('link', { name: 'Watched project' }).click();
    await page.getByRole('link', { name: 'Alerts', exact: true }).click();
    await page.getByRole('heading', { name: 'Alert inbox', exact: true }).waitFor();
    await page.getByText('Nothing is firing.').waitFor();
    await ui.checkPage('inbox-empty');
  });

  it('adds an email channel and sends it a test message that reaches the mailbox', async () => {
    await page.getByRole('link', { name: 'Channels', exact: true }).click();
    await page.getByRole('heading', { name: 'New channel', exact: true }).waitFor();
    await ui.checkPage('channels-empty');
    await page.getByLabel('Name').fill('On-call mail');
    await page.getByLabel('Type').selectOption('email');
    await page.getByLabel('Recipients').fill(recipient);
    await page.getByRole('button', { name: 'Add channel' }).click();
    await page.getByRole('button', { name: 'Send test to On-call mail' }).click();
    await page.getByRole('status').filter({ hasText: 'Test message delivered' }).waitFor();
    const mail = await stack.mail.waitFor(recipient, /On-call mail|test/i);
    expect(mail).toBeTruthy();
    await page.getByRole('button', { name: 'Deliveries of On-call mail' }).click();
    expect((await waitForTableRows(page, 'Delivery attempts', 1))[0][1]).toBe('delivered');
    await ui.checkPage('channel-tested');
  });

  it('creates a rule from the form, with the channel', async () => {
    await page.getByRole('link', { name: 'Rules', exact: true }).click();
    await page.getByRole('heading', { name: 'New rule', exact: true }).waitFor();
    await page.getByLabel('Name').fill('Failing jobs');
    await page.getByLabel('Metric').selectOption('job_failures');
    await page.getByLabel('Operator').selectOption('gt');
    await page.getByLabel('Threshold').fill('0');
    await page.getByLabel('On-call mail (email)').check();
    await page.getByRole('button', { name: 'Create rule' }).click();
    const [row] = await waitForTableRows(page, 'Alert rules', 1);
    expect(row[0]).toBe('Failing jobs');
    expect(row[1]).toBe('job_failures > 0 over 60 min');
    expect(row[3]).toBe('On-call mail');
    await ui.checkPage('rules');
  });

  it('acknowledges and resolves a firing alert from the inbox; the history shows both', async () => {
    const rules = await api.get(`/api/mlops/projects/${projectId}/alert-rules`);
    const rule = rules.body.items[0];
    // The evaluator would resolve the alert planted below (nothing of this project fails, and its fingerprint is no
    // measurement's) whenever its schedule comes round: the rule is disabled first, so the inbox alone moves it.
    expect((await api.patch(`/api/mlops/alerts/rules/${rule.id}`, { is_enabled: false })).status).toBe(200);
    const now = new Date();
    await stack.ds.query(
      `INSERT INTO alerts (project_id, rule_id, fingerprint, labels, metric, operator, threshold, state, severity, value, samples, first_seen_at, last_seen_at)
       VALUES ($1, $2, $3, '{}', 'job_failures', 'gt', 0, 'firing', 'warning', 3, 3, $4, $4)`,
      [projectId, rule.id, randomUUID(), now],
    );
    await page.getByRole('link', { name: 'Inbox', exact: true }).click();
    await page.getByRole('button', { name: 'Acknowledge Failing jobs' }).waitFor();
    expect((await rowsOf('Alerts'))[0].slice(0, 4)).toEqual(['Failing jobs', 'firing', 'warning', 'job_failures 3 > 0']);
    await ui.checkPage('inbox-firing');
    await page.getByRole('button', { name: 'Acknowledge Failing jobs' }).click();
    // The inbox shows firing alerts by default: an acknowledged one leaves it.
    await page.getByText('Nothing is firing.').waitFor();
    await page.getByLabel('State').selectOption('acknowledged');
    await page.getByRole('button', { name: 'Resolve Failing jobs' }).click();
    await page.getByText('No alert.').waitFor();
    await page.getByLabel('State').selectOption('');
    await eventually(async () => (await rowsOf('Alerts'))[0]?.[1] === 'resolved', 10_000);
    await ui.checkPage('inbox-resolved');

    await page.getByRole('link', { name: 'History', exact: true }).click();
    await eventually(async () => (await rowsOf('Alert history').catch(() => [])).length >= 2, 10_000);
    const events = (await rowsOf('Alert history')).map((r) => r[1]);
    expect(events.slice(0, 2)).toEqual(['resolved', 'acknowledged']);
    await ui.checkPage('history');
  });

  it('silences the rule for two hours', async () => {
    await page.getByRole('link', { name: 'Silences', exact: true }).click();
    await page.getByRole('heading', { name: 'New silence', exact: true }).waitFor();
    await page.getByLabel('Rule').selectOption({ label: 'Failing jobs' });
    await page.getByLabel('Comment').fill('maintenance window');
    await page.getByRole('button', { name: 'Silence', exact: true }).click();
    const [row] = await waitForTableRows(page, 'Silences', 1);
    expect(row[0]).toBe('active');
    expect(row[1]).toBe('rule_id=Failing jobs');
    expect(row[4]).toBe('maintenance window');
    await ui.checkPage('silences');
  });
});
