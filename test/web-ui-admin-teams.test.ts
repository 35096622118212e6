import { type Page } from 'playwright-core';
import { useBrowser, logInThroughForm, openProjectTab, tableRows, waitForTableRows } from './support/browser';
import { createProject, eventually, signUp } from './support/client';
import { startStack, TestStack } from './support/stack';
import { makeSuperuser } from './support/superuser';

/**
 * Teams in Chromium (issue 34), with the checks every browser test gets (console errors, failed requests, axe, the
 * page at 1280 and 390 px wide): a superuser makes a team in the admin area and adds members; then, as the owner of a
 * project, gives the team a role on the project's Members tab, sees the team-derived access in the members table,
 * and takes the team away again, which ends that access at once.
 */

let stack: TestStack;
const ui = useBrowser('web-ui-admin-teams');
let page: Page;
let admin: Awaited<ReturnType<typeof signUp>>;
let dev: Awaited<ReturnType<typeof signUp>>;
let projectId = '';
const TEAM = `Data science ${Date.now().toString(36)}`;

beforeAll(async () => {
  ({ page } = ui);
  stack = await startStack({ workers: [] });
  admin = await signUp(stack.baseUrl, stack.mail, { name: 'Ada Admin' });
  await makeSuperuser(stack.ds, admin.user.id);
  dev = await signUp(stack.baseUrl, stack.mail, { name: 'Dev Teammate' });
  projectId = await createProject(admin.client, 'Team work');
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

const rowsOf = (region: string): Promise<string[][]> => tableRows(page, region);

describe('teams in Chromium', () => {
  it('a superuser makes a team and adds its members in the admin area', async () => {
    await logInThroughForm(page, stack.baseUrl, admin);
    await page.goto(`${stack.baseUrl}/app/admin/teams`);
    await page.getByRole('heading', { name: 'Teams', exact: true }).waitFor();
    await page.getByText('No teams yet.').waitFor();
    await ui.checkPage('teams-empty');

    await page.getByLabel('Team name').fill(TEAM);
    await page.getByLabel('Description').fill('Analysts and modellers');
    await page.getByRole('button', { name: 'Create team' }).click();
    await page.getByRole('heading', { name: TEAM, exact: true }).waitFor();

    for (const [email, role] of [
      [admin.email, 'maintainer'],
      [dev.email, 'member'],
    ]) {
      await page.getByLabel('Member email').fill(email);
      await page.getByLabel('Team role').selectOption(role);
      await page.getByRole('button', { name: 'Add member' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: `${email} is now a ${role} of ${TEAM}.` })
        .waitFor();
    }
    expect((await waitForTableRows(page, `Members of ${TEAM}`, 2)).map((r) => [r[0], r[1], r[2]])).toEqual([
      ['Ada Admin', admin.email, 'maintainer'],
      ['Dev Teammate', dev.email, 'member'],
    ]);
    await ui.checkPage('team-members');

    await page.getByRole('link', { name: 'Teams', exact: true }).first().click();
    await eventually(async () => (await rowsOf('Teams')).some((r) => r[0] === TEAM), 10_000);
    expect((await rowsOf('Teams')).find((r) => r[0] === TEAM)?.slice(0, 4)).toEqual([TEAM, 'Analysts and modellers', '2', '0']);
  });

  it("gives the team a role on the project's Members tab, shows what it gives, and takes it away", async () => {
    await openProjectTab(page, stack.baseUrl, projectId, 'members', 'Teams');
    await page.getByLabel('Team to add').selectOption({ label: TEAM });
    await page.getByLabel('Team access').selectOption('editor');
    await page.getByRole('button', { name: 'Add team' }).click();
    expect((await waitForTableRows(page, 'Teams with a role in this project', 1))[0].slice(0, 3)).toEqual([TEAM, 'editor', '2']);
    expect(await waitForTableRows(page, 'Project members', 2)).toEqual([
      ['Ada Admin', admin.email, 'owner', 'Leave'],
      ['Dev Teammate', dev.email, `editor (via ${TEAM})`, 'Through a team'],
    ]);
    expect((await dev.client.get(`/api/projects/${projectId}`)).body.project.role).toBe('editor');
    await ui.checkPage('project-teams');

    await page.getByRole('button', { name: `Remove the team ${TEAM}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove', exact: true }).click();
    await waitForTableRows(page, 'Project members', 1);
    expect(await page.getByText('No team has a role in this project.').count()).toBe(1);
    expect((await dev.client.get(`/api/projects/${projectId}`)).status).toBe(404);
    await ui.checkPage('project-teams-removed');
  });
});
