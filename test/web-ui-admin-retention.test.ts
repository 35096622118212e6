import { type Page } from 'playwright-core';
import { useBrowser, logInThroughForm, tableRows, waitForTableRows } from './support/browser';
import { eventually, signUp } from './support/client';
import { startStack, TestStack } from './support/stack';
import { makeSuperuser } from './support/superuser';

/**
 * Retention in Chromium (issue 34), with the checks every browser test gets (console errors, failed requests, axe, the
 * page at 1280 and 390 px wide): a superuser sets policies, sees that reports cannot be anonymized, dry-runs them and
 * runs them now through the real io worker, and the run shows among the last runs.
 */

let stack: TestStack;
const ui = useBrowser('web-ui-admin-retention');
let page: Page;
let admin: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  ({ page } = ui);
  stack = await startStack({ workers: ['io'] });
  admin = await signUp(stack.baseUrl, stack.mail, { name: 'Ada Admin' });
  await makeSuperuser(stack.ds, admin.user.id);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

const rowsOf = (region: string): Promise<string[][]> => tableRows(page, region);

describe('retention in Chromium', () => {
  it('a superuser sets policies, dry-runs them and runs them now', async () => {
    await logInThroughForm(page, stack.baseUrl, admin);

    await page.goto(`${stack.baseUrl}/app/admin/retention`);
    await page.getByRole('heading', { name: 'Retention', exact: true }).waitFor();
    await page.getByText('No policies: every record is kept.').waitFor();
    await ui.checkPage('retention-empty');

    // Reports can only be deleted: the action offers nothing else.
    await page.getByLabel('Kind of record').selectOption('reports');
    await page.getByLabel('N', { exact: true }).fill('30');
    expect(await page.getByLabel('Action').isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Save policy' }).click();
    expect((await waitForTableRows(page, 'Retention policies', 1))[0].slice(0, 4)).toEqual(['Reports', 'Keep 30 days', 'delete', 'yes']);

    // Inference logs can be anonymized, keeping the newest N per deployment.
    await page.getByLabel('Kind of record').selectOption('inference_logs');
    await page.getByLabel('Rule').selectOption('keep_latest');
    await page.getByLabel('N', { exact: true }).fill('1000');
    await page.getByLabel('Action').selectOption('anonymize');
    await page.getByRole('button', { name: 'Save policy' }).click();
    expect((await waitForTableRows(page, 'Retention policies', 2))[0].slice(0, 4)).toEqual(['Inference logs', 'Keep newest 1,000', 'anonymize', 'yes']);
    await page.getByText(/next: /).waitFor();
    await ui.checkPage('retention-policies');

    await page.getByRole('button', { name: 'Dry run' }).click();
    await page.getByText(/nothing was changed/).waitFor();
    expect((await rowsOf('Dry run')).map((r) => r.slice(0, 3))).toEqual([
      ['Inference logs', 'anonymize', '0'],
      ['Reports', 'delete', '0'],
    ]);
    await ui.checkPage('retention-dry-run');

    await page.getByRole('button', { name: 'Run now' }).click();
    await eventually(async () => (await rowsOf('Last retention runs'))[0]?.[1] === 'succeeded', 60_000);
    expect((await rowsOf('Last retention runs'))[0][3]).toBe('Inference logs: 0 anonymized; Reports: 0 deleted');
    await ui.checkPage('retention-ran');

    await page.getByRole('button', { name: 'Remove the Reports policy' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove', exact: true }).click();
    await waitForTableRows(page, 'Retention policies', 1);
  });
});
