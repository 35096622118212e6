import { type Page } from 'playwright-core';
import { useBrowser, logInThroughForm, openProjectTab, tableRows } from './support/browser';
import { createProject, eventually, signUp } from './support/client';
import { startStack, TestStack } from './support/stack';
import { makeSuperuser } from './support/superuser';

/**
 * The audit log in Chromium (issue 34), with the checks every browser test gets (console errors, failed requests,
 * axe, the page at 1280 and 390 px wide): a superuser reads and filters the admin log, a rename shown as
 * before → after; a project owner reads the project's log on its members tab, which an editor does not see.
 */

let stack: TestStack;
const ui = useBrowser('web-ui-admin-audit');
let page: Page;
let admin: Awaited<ReturnType<typeof signUp>>;
let owner: Awaited<ReturnType<typeof signUp>>;
let editor: Awaited<ReturnType<typeof signUp>>;
let projectId = '';

beforeAll(async () => {
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

afterAll(async () => {
  await stack?.stop();
});

const rowsOf = (region: string): Promise<string[][]> => tableRows(page, region);

describe('audit log in Chromium', () => {
  it('a superuser reads the whole log and filters it; a rename shows before → after', async () => {
    await logInThroughForm(page, stack.baseUrl, admin);
    await page.goto(`${stack.baseUrl}/app/admin/audit`);
    await page.getByRole('heading', { name: 'Audit log', exact: true }).waitFor();
    await eventually(async () => (await rowsOf('Audit log entries')).length > 0, 10_000);
    await ui.checkPage('audit-all');

    await page.getByLabel('Action').fill('project.update');
    await eventually(async () => {
      const rows = await rowsOf('Audit log entries');
      return rows.length === 1 && rows[0][1] === 'project.update';
    }, 10_000);
    const [row] = await rowsOf('Audit log entries');
    expect(row[2]).toBe(`project ${projectId}`);
    expect(row[5]).toContain('name: Ledger → Ledger renamed');
    expect(row[4]).toBe(owner.user.id);
    await ui.checkPage('audit-filtered');

    await page.getByLabel('Action').fill('nothing.like.this');
    await page.getByText('No entry matches.').waitFor();
  });

  it("a project's owner reads its log on the members tab; an editor does not see it", async () => {
    await logInThroughForm(page, stack.baseUrl, owner);
    await openProjectTab(page, stack.baseUrl, projectId, 'members', 'Audit log');
    await eventually(async () => (await rowsOf('Audit log of the project')).length >= 4, 10_000);
    const actions = (await rowsOf('Audit log of the project')).map((r) => r[1]);
    expect(actions).toEqual(expect.arrayContaining(['project.create', 'project.update', 'project_member.create']));
    await ui.checkPage('project-audit');

    await page.getByLabel('Resource type').fill('project_member');
    // While the filtered page loads the table can hold one placeholder row of a single cell ("Loading…"), so a
    // row without a resource column counts as not yet filtered rather than throwing.
    await eventually(async () => {
      const rows = await rowsOf('Audit log of the project');
      return rows.length > 0 && rows.every((r) => r[2]?.startsWith('project_member'));
    }, 10_000);

    await logInThroughForm(page, stack.baseUrl, editor);
    await openProjectTab(page, stack.baseUrl, projectId, 'members', 'Members');
    expect(await page.getByRole('heading', { name: 'Audit log', exact: true }).count()).toBe(0);
  });
});
