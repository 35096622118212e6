import { type Page } from 'playwright-core';
import { useBrowser, factOf, logInThroughForm, tableRows } from './support/browser';
import { ApiClient, createProject, eventually, signUp } from './support/client';
import { startStack, TestStack } from './support/stack';

/**
 * The data pages of issue 33 (items 7 and 8) in Debian's Chromium against the real stack, with the checks every
 * browser test gets (no console error, no failed request, no serious axe violation at 1280 and 390 px, no horizontal
 * scroll, screenshots under test-artifacts/web-ui-data/): the version picker switches the preview and keeps the
 * version in the URL; the quality view says which checks need a target and computes them for the target picked; a
 * privacy finding excluded and given another action from the session's findings table, with the counts of the
 * session and of its policy following.
 */

let stack: TestStack;
const ui = useBrowser('web-ui-data');
let page: Page;
let api: ApiClient;
let owner: Awaited<ReturnType<typeof signUp>>;
let datasetId = '';
let policyId = '';
let sessionId = '';

function passengers(n: number, offset = 0): string {
  const lines = ['name,email,phone,age,survived'];
  for (let i = offset; i < offset + n; i++) {
    lines.push(`Passenger ${i},p${i}@example.com,(212) 555-${String(1000 + ((i * 37) % 9000)).slice(-4)},${20 + (i % 50)},${i % 5 === 0 ? 1 : 0}`);
  }
  return lines.join('\n') + '\n';
}

beforeAll(async () => {
  page = ui.page;
  stack = await startStack();
  owner = await signUp(stack.baseUrl, stack.mail, { name: 'Dana Data' });
  api = owner.client;
  const projectId = await createProject(api, 'Data project');
  const up = await api.upload('/api/datasets/upload', { project_id: projectId, name: 'passengers' }, { name: 'passengers.csv', data: passengers(30) });
  datasetId = up.body.dataset_id;
  expect((await api.upload(`/api/datasets/${datasetId}/versions`, { description: 'later passengers' }, { name: 'later.csv', data: passengers(30, 500) })).status).toBe(201);
  policyId = (await api.post('/api/privacy/policies', { project_id: projectId, name: 'Contact data' })).body.id;
  for (const [pii_type, action] of [
    ['email', 'hash'],
    ['phone', 'mask'],
  ])
    expect((await api.post(`/api/privacy/policies/${policyId}/rules`, { pii_type, action })).status).toBe(201);
  sessionId = (await api.post('/api/privacy/sessions', { policy_id: policyId, dataset_id: datasetId })).body.id;
  await api.post(`/api/privacy/sessions/${sessionId}/detect`);
  await eventually(async () => (await api.get(`/api/privacy/sessions/${sessionId}`)).body.session.status === 'detected', 120_000);
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

const rowsOf = (region: string): Promise<string[][]> => tableRows(page, region);

describe('the data pages in Chromium', () => {
  it('switches the preview between versions with the version picker, the version in the URL', async () => {
    await logInThroughForm(page, stack.baseUrl, owner);
    await page.goto(`${stack.baseUrl}/app/datasets/${datasetId}`);
    await page.getByRole('heading', { name: 'First rows of the latest version (version 1)' }).waitFor();
    expect((await rowsOf('First rows of the latest version (version 1)'))[0][0]).toBe('Passenger 500');
    await ui.checkPage('preview-latest');

    await page.getByRole('combobox', { name: /^Version/ }).selectOption('0');
    await page.getByRole('heading', { name: 'First rows of version 0' }).waitFor();
    expect(page.url()).toContain('version=0');
    expect((await rowsOf('First rows of version 0'))[0][0]).toBe('Passenger 0');
    await ui.checkPage('preview-version-0');
  });

  it('lists class balance as needing a target, then checks it for the target picked', async () => {
    // The tab keeps the chosen version.
    await page.getByRole('link', { name: 'Quality', exact: true }).click();
    await page.getByRole('heading', { name: 'Quality of version 0' }).waitFor();
    await page.getByText('No target chosen').waitFor();
    const balance = async () => (await rowsOf('Quality checks')).find((r) => r[0] === 'class_imbalance')!;
    expect((await balance())[1]).toBe('needs a target');
    await ui.checkPage('quality-no-target');

    await page.getByRole('combobox', { name: /^Target column/ }).selectOption('survived');
    await page.getByText('Target survived.').waitFor();
    expect(page.url()).toContain('target=survived');
    expect(page.url()).toContain('version=0');
    const row = await balance();
    expect(row[1]).toBe('passed');
    expect(row[2]).toContain('Target survived has 2 classes; the rarest has 6 rows');
    // The score reads as a percentage with one decimal at most.
    expect(await page.getByText(/Overall score: \d+(\.\d)?%/).count()).toBe(1);
    await ui.checkPage('quality-target');
  });

  it('excludes a finding and changes the action of another from the findings table; the session and policy counts follow', async () => {
    await page.goto(`${stack.baseUrl}/app/privacy/sessions/${sessionId}`);
    await page.getByRole('heading', { name: 'Detected PII' }).waitFor();
    const total = ((await api.get(`/api/privacy/sessions/${sessionId}/results`)).body.results as unknown[]).length;
    expect(await factOf(page, 'Findings')).toBe(String(total));
    expect(await factOf(page, 'Pending')).toContain(String(total));
    expect(await factOf(page, 'Excluded for this session')).toBe('0');
    await ui.checkPage('session-before');

    await page.getByRole('button', { name: 'Exclude phone in phone' }).click();
    await page.getByRole('button', { name: 'Include phone in phone' }).waitFor();
    await eventually(async () => (await factOf(page, 'Excluded for this session')) === '1', 10_000);
    expect(await factOf(page, 'Pending')).toMatch(new RegExp(`^${total - 1}\\b`));
    // The email finding takes redact instead of the policy's hash, for this session only.
    const select = page.getByLabel('Action for email in email');
    expect(await select.inputValue()).toBe('');
    await select.selectOption('redact');
    await eventually(async () => {
      const results = (await api.get(`/api/privacy/sessions/${sessionId}/results`)).body.results as { column: string; pii_type: string; action_override: string | null }[];
      return results.find((r) => r.column === 'email' && r.pii_type === 'email')?.action_override === 'redact';
    }, 10_000);
    await eventually(async () => (await select.inputValue()) === 'redact', 10_000);
    const counts = (await api.get(`/api/privacy/sessions/${sessionId}`)).body.session.counts;
    expect(counts.excluded).toBe(1);
    await ui.checkPage('session-overridden');

    // The policy page shows the same counts: one source.
    await page.goto(`${stack.baseUrl}/app/privacy/policies/${policyId}`);
    await page.getByRole('heading', { name: 'Latest detection' }).waitFor();
    expect(await factOf(page, 'Findings')).toBe(String(counts.findings));
    expect(await factOf(page, 'Excluded for this session')).toBe('1');
    expect(await factOf(page, 'Pending')).toMatch(new RegExp(`^${counts.pending}\\b`));
    expect(await factOf(page, 'Compliance')).toBe(`${counts.compliance_score}%`);
    await ui.checkPage('policy-counts');
  });
});
