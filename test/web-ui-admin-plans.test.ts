import { type Page } from 'playwright-core';
import { useBrowser, logInThroughForm, tableRows, waitForTableRows } from './support/browser';
import { eventually, signUp } from './support/client';
import { startStack, TestStack } from './support/stack';
import { makeSuperuser } from './support/superuser';

/**
 * Plans in Chromium (issue 34), with the checks every browser test gets (console errors, failed requests, axe, the
 * page at 1280 and 390 px wide): a superuser defines a plan in the admin area, changes it, assigns it to a user by
 * email and to a team; the user sees the plan and its limits on their profile page.
 */

let stack: TestStack;
const ui = useBrowser('web-ui-admin-plans');
let page: Page;
let admin: Awaited<ReturnType<typeof signUp>>;
let member: Awaited<ReturnType<typeof signUp>>;
let teamName = '';

beforeAll(async () => {
  ({ page } = ui);
  stack = await startStack({ workers: [] });
  admin = await signUp(stack.baseUrl, stack.mail, { name: 'Ada Admin' });
  await makeSuperuser(stack.ds, admin.user.id);
  member = await signUp(stack.baseUrl, stack.mail, { name: 'Pat Planholder' });
  teamName = `Analysts ${Date.now().toString(36)}`;
  const team = await admin.client.post('/api/admin/teams', { name: teamName });
  if (team.status !== 201) throw new Error(`team creation failed ${team.status}`);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

const rowsOf = (region: string): Promise<string[][]> => tableRows(page, region);

describe('plans in Chromium', () => {
  it('a superuser defines a plan, edits it, and assigns it to a user and a team', async () => {
    await logInThroughForm(page, stack.baseUrl, admin);
    await page.goto(`${stack.baseUrl}/app/admin/plans`);
    await page.getByRole('heading', { name: 'Plans', exact: true }).waitFor();
    await page.getByText('No plans yet').waitFor();
    await ui.checkPage('plans-empty');

    await page.getByLabel('Plan name').fill('starter');
    await page.getByLabel('Display name').fill('Starter');
    await page.getByLabel('Projects owned').fill('2');
    await page.getByLabel('Predictions per minute').fill('60');
    await page.getByLabel('Storage (bytes)').fill('none');
    await page.getByRole('button', { name: 'Create plan' }).click();
    const [row] = await waitForTableRows(page, 'Plans', 1);
    expect([row[0], row[1]]).toEqual(['starter', 'Starter']);
    expect(row[2]).toContain('Projects owned: 2');
    expect(row[2]).toContain('Storage (bytes): no limit');
    await ui.checkPage('plans-one');

    // A bad limit is said in the form, nothing is sent.
    await page.getByRole('button', { name: 'Edit plan starter' }).click();
    await page.getByRole('heading', { name: 'Edit plan starter' }).waitFor();
    await page.getByLabel('Projects owned').fill('two');
    await page.getByRole('button', { name: 'Save plan' }).click();
    await page.getByRole('alert').filter({ hasText: 'Projects owned: a whole number' }).waitFor();
    await page.getByLabel('Projects owned').fill('5');
    await page.getByRole('button', { name: 'Save plan' }).click();
    await eventually(async () => (await rowsOf('Plans'))[0]?.[2].includes('Projects owned: 5'), 10_000);

    await page.getByLabel('Plan to assign').selectOption({ label: 'Starter (starter)' });
    await page.getByLabel('User email').fill(member.email);
    await page.getByRole('button', { name: 'Assign to user' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `${member.email} now works under Starter.` })
      .waitFor();
    await page.getByLabel('Team').selectOption({ label: teamName });
    await page.getByRole('button', { name: 'Assign to team' }).click();
    await page.getByRole('status').filter({ hasText: "The team's plan is set." }).waitFor();
    await eventually(async () => {
      const [r] = await rowsOf('Plans');
      return r?.[3] === '1' && r?.[4] === '1';
    }, 10_000);
    await ui.checkPage('plans-assigned');

    const plans = (await admin.client.get('/api/admin/plans')).body;
    expect(plans.items[0]).toMatchObject({ name: 'starter', limits: { max_projects: 5, predictions_per_minute: 60, max_storage_bytes: null }, users_count: 1, teams_count: 1 });
  });

  it('the user sees their plan and its limits on the profile page', async () => {
    await logInThroughForm(page, stack.baseUrl, member);
    await page.getByRole('link', { name: 'Profile', exact: true }).click();
    await page.getByTestId('plan-name').filter({ hasText: 'Starter' }).waitFor();
    const facts = await page.getByRole('region', { name: 'Plan and usage' }).innerText();
    expect(facts).toContain('Projects you own');
    expect(facts).toMatch(/Projects you own\s+0 of 5/);
    expect(facts).toMatch(/Predictions this minute\s+0 of 60/);
    await ui.checkPage('profile-plan');
  });
});
