import { type Page } from 'playwright-core';
import { openBrowser, type BrowserSession, tableRows } from './support/browser';
import { createProject, eventually, signUp } from './support/client';
import { startStack, TestStack } from './support/stack';
import { makeSuperuser } from './support/superuser';

/**
 * The audit log in Chromium (issue 34), with the checks every browser test gets (console errors, failed requests,
 * axe, the page at 1280 and 390 px wide): a superuser reads and filters the admin log, a rename shown as
 * before → after; a project owner reads the project's log on its members tab, which an editor does not see.
 */

let stack: TestStack;
let ui: BrowserSession;
let page: Page;
let admin: Awaited<ReturnType<typeof signUp>>;
let owner: Awaited<ReturnType<typeof signUp>>;
let editor: Awaited<ReturnType<typeof signUp>>;
let projectId = '';

beforeAll(async () => {
  ui = await openBrowser('web-ui-admin-audit');
  ({ page } = ui);
  stack = await startStack({ workers: [] });
  admin = await signUp(stack.baseUrl, stack.mail, { name: 'Ada Auditor' });
  await makeSuperuser(stack.ds, admin.user.id);
  owner = await signUp(stack.baseUrl, stack.mail, { name: 'Olive Owner' });
  editor = await signUp(stack.baseUrl, stack.mail, { name: 'Eddie Editor' });
  projectId = await createProject(owner.client, 'Ledger');
  const renamed = await owner.client.put(`/api/projects/${projectId}`, { name: 'Ledger renamed' });
  if (renamed.status !== 200) throw new Error(`rename failed ${renamed.status}`);
  const added = await owner.client.post(`/api/projects/${projectId}/members`, { email: editor.email, role: 'editor' });
  if (added.status !== 201) throw new Error(`add member failed ${added.status}`);
}, 120_000);

afterEach(async () => {
  await ui?.screenshotAfterStep();
});

afterAll(async () => {
  await ui?.close();
  await stack?.stop();
});

async function checkPage(name: string): Promise<void> {
  await ui.checkPage(name);
  await ui.expectNoHorizontalScroll();
}

async function logIn(who: { email: string; password: string }): Promise<void> {
  await page.context().clearCookies();
  await page.goto(`${stack.baseUrl}/login`);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { name: 'Projects', exact: true }).waitFor();
}

const rowsOf = (region: string): Promise<string[][]> => tableRows(page, region);

describe('audit log in Chromium', () => {
  it('a superuser reads the whole log and filters it; a rename shows before → after', async () => {
    await logIn(admin);
    await page.goto(`${stack.baseUrl}/app/admin/audit`);
    await page.getByRole('heading', { name: 'Audit log', exact: true }).waitFor();
    await eventually(async () => (await rowsOf('Audit log entries')).length > 0, 10_000);
    await checkPage('audit-all');

    await page.getByLabel('Action').fill('project.update');
    await eventually(async () => {
      const rows = await rowsOf('Audit log entries');
      return rows.length === 1 && rows[0][1] === 'project.update';
    }, 10_000);
    const [row] = await rowsOf('Audit log entries');
    expect(row[2]).toBe(`project ${projectId}`);
    expect(row[5]).toContain('name: Ledger → Ledger renamed');
    expect(row[4]).toBe(owner.user.id);
    await checkPage('audit-filtered');

    await page.getByLabel('Action').fill('nothing.like.this');
    await page.getByText('No entry matches.').waitFor();
  });

  it("a project's owner reads its log on the members tab; an editor does not see it", async () => {
    await logIn(owner);
    await page.goto(`${stack.baseUrl}/app/projects/${projectId}?tab=members`);
    await page.getByRole('heading', { name: 'Audit log', exact: true }).waitFor();
    await eventually(async () => (await rowsOf('Audit log of the project')).length >= 4, 10_000);
    const actions = (await rowsOf('Audit log of the project')).map((r) => r[1]);
    expect(actions).toEqual(expect.arrayContaining(['project.create', 'project.update', 'project_member.create']));
    await checkPage('project-audit');

    await page.getByLabel('Resource type').fill('project_member');
    await eventually(async () => (await rowsOf('Audit log of the project')).every((r) => r[2].startsWith('project_member')), 10_000);

    await logIn(editor);
    await page.goto(`${stack.baseUrl}/app/projects/${projectId}?tab=members`);
    await page.getByRole('heading', { name: 'Members', exact: true }).waitFor();
    expect(await page.getByRole('heading', { name: 'Audit log', exact: true }).count()).toBe(0);
  });
});
