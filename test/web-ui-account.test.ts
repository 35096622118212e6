import path from 'node:path';
import type { Page } from 'playwright-core';
import { useBrowser, logInThroughForm, submitLoginForm, tableRows, waitForTableRows } from './support/browser';
import { ApiClient, createProject, eventually, signUp, uniqueEmail } from './support/client';
import { linkIn } from './support/smtp-sink';
import { startStack, TestStack } from './support/stack';

/**
 * The web UI's members panel (adding a registered user at once, inviting an address without an account, withdrawing
 * an invitation), the invitation link a new user accepts in the browser, and the profile's plan with its usage and the
 * account's recent activity, in Debian's Chromium against the real stack, with the checks of test/support/browser.ts
 * on every page: no console error, no failed request, no serious or critical axe violation, a screenshot under
 * test-artifacts/web-ui-account/. No training: well under a minute.
 */

let stack: TestStack;
const ui = useBrowser('web-ui-account');
let page: Page;
let owner: { client: ApiClient; email: string; password: string };
let registered: { client: ApiClient; email: string; password: string };
let projectId = '';
/** Addresses without an account when they are invited: the first accepts, the second is withdrawn. */
const invitee = { email: uniqueEmail('invitee'), password: 'an invited password', name: 'Ivy Invitee' };
const withdrawn = uniqueEmail('withdrawn');
/** The owner's project quota as the API reports it (null: no limit). */
let maxProjects: number | null = null;

beforeAll(async () => {
  ({ page } = ui);
  // The invitee logs in several times to fill more than one page of activity.
  stack = await startStack({ env: { RATE_LIMIT_AUTH: '1000' } });
  owner = await signUp(stack.baseUrl, stack.mail, { name: 'Olive Owner' });
  registered = await signUp(stack.baseUrl, stack.mail, { name: 'Rex Registered' });
  projectId = await createProject(owner.client, 'Shared work');
  maxProjects = (await owner.client.get('/api/auth/plan')).body.plan.quotas.max_projects;
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

const rowsOf = (region: string): Promise<string[][]> => tableRows(page, region);

/** A region's text with thousands separators taken out ("1,000" and "1 000" read "1000"). */
async function textOf(region: string): Promise<string> {
  const text = await page.getByRole('region', { name: region, exact: true }).innerText();
  return text.replace(/(\d)[,\u00a0\u202f ](?=\d{3}\b)/g, '$1');
}

describe('the web UI in Chromium: members, invitations, plan and account activity', () => {
  it("adds a registered user from the project's members panel, at once and with the chosen role", async () => {
    await logInThroughForm(page, stack.baseUrl, owner);
    await page.getByRole('link', { name: 'Shared work' }).click();
    await page.getByRole('link', { name: 'Members', exact: true }).click();
    await page.getByRole('heading', { name: 'Add, change or invite a member', exact: true }).waitFor();
    // The table fills once its request answers: wait for its row rather than read it at the heading.
    expect(await waitForTableRows(page, 'Project members', 1)).toEqual([['Olive Owner', owner.email, 'owner', 'Leave']]);
    await ui.checkPage('members');

    await page.getByLabel('Email').fill(registered.email);
    await page.getByLabel('Role').selectOption('editor');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `${registered.email} is now editor.` })
      .waitFor();
    await eventually(async () => (await rowsOf('Project members')).some((r) => r[1] === registered.email), 10_000);
    expect((await rowsOf('Project members')).find((r) => r[1] === registered.email)).toEqual(['Rex Registered', registered.email, 'editor', 'Remove']);
    // No invitation for a registered user: the owner has nothing pending.
    expect(await page.getByRole('heading', { name: 'Pending invitations', exact: true }).count()).toBe(0);
    await ui.checkPage('member-added');
    // The user has access at once.
    expect((await registered.client.get(`/api/projects/${projectId}`)).body.project.role).toBe('editor');
  });

  it('invites an address without an account, lists the pending invitation, and withdraws another', async () => {
    // The panel asks to add the address first; its 404 (no account) is the cue to invite it instead.
    const expected = [/^HTTP 404: POST .*\/api\/projects\/[^/]+\/members$/, /^console error on \S+: Failed to load resource: the server responded with a status of 404/];
    const seen = await ui.checkPageAllowing('member-invited', expected, async () => {
      for (const [address, role] of [
        [invitee.email, 'viewer'],
        [withdrawn, 'editor'],
      ]) {
        await page.getByLabel('Email').fill(address);
        await page.getByLabel('Role').selectOption(role);
        await page.getByRole('button', { name: 'Add', exact: true }).click();
        await page
          .getByRole('status')
          .filter({ hasText: `No account has ${address} yet: an invitation link was mailed to it.` })
          .waitFor();
      }
      const pending = page.getByRole('region', { name: 'Invitations waiting to be accepted', exact: true });
      await pending.waitFor();
      await waitForTableRows(page, 'Invitations waiting to be accepted', 2);
    });
    expect(seen.filter((s) => s.startsWith('HTTP 404'))).toHaveLength(2);
    const rows = await rowsOf('Invitations waiting to be accepted');
    expect(rows.map((r) => [r[0], r[1], r[3]])).toEqual([
      [invitee.email, 'viewer', 'Withdraw'],
      [withdrawn, 'editor', 'Withdraw'],
    ]);
    // Nobody became a member.
    expect((await waitForTableRows(page, 'Project members', 2)).map((r) => r[1])).toEqual([owner.email, registered.email]);

    await page.getByRole('button', { name: `Withdraw the invitation of ${withdrawn}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Withdraw', exact: true }).click();
    expect((await waitForTableRows(page, 'Invitations waiting to be accepted', 1)).map((r) => r[0])).toEqual([invitee.email]);
    await ui.checkPage('invitation-withdrawn');
    const list = await owner.client.get(`/api/projects/${projectId}/invitations`);
    expect(list.body.items.map((i: { email: string }) => i.email)).toEqual([invitee.email]);
  });

  it("shows the owner's plan with its usage and the login in the recent activity", async () => {
    await page.getByRole('link', { name: 'Profile', exact: true }).click();
    const planRegion = page.getByRole('region', { name: 'Plan and usage', exact: true });
    await planRegion.getByText('Projects you own').waitFor();
    expect(await page.getByTestId('plan-name').textContent()).toBe('Self-hosted');
    const plan = await textOf('Plan and usage');
    expect(plan).toMatch(new RegExp(`Projects you own\\s+${maxProjects === null ? '1 \\(no limit\\)' : `1 of ${maxProjects}`}`));
    expect(plan).toMatch(/Projects you belong to\s+1\b/);
    expect(plan).toMatch(/Datasets in your projects\s+0\b/);
    expect(plan).toMatch(/Models per experiment\s+at most \d+/);
    expect(plan).toMatch(/All requests\s+\d+ per (minute|\d+ seconds)/);

    await page.getByRole('region', { name: 'Account events, newest first', exact: true }).waitFor();
    const events = await rowsOf('Account events, newest first');
    // Newest first: the browser's login, the API client's login, the activation, the registration.
    expect(events.map((r) => r[0])).toEqual(['Logged in', 'Logged in', 'Email address verified', 'Account created']);
    const [browserLogin] = events;
    expect(browserLogin[1]).not.toBe('–');
    expect(browserLogin[2]).toMatch(/127\.0\.0\.1|::1/);
    expect(browserLogin[3]).toMatch(/Chrom(e|ium) \d+ on Linux/);
    await ui.checkPage('profile-owner');
  });

  let invitedUrl = '';
  it('lets the invited person register, open the mailed link, log in, accept and see the project', async () => {
    const mail = await stack.mail.waitFor(invitee.email, /invitations\/accept\?token=/);
    expect(mail.text).toContain('Shared work');
    const link = new URL(linkIn(mail, 'invitations/accept?token='));
    // Registered through the API (activation included), after the invitation went out.
    await signUp(stack.baseUrl, stack.mail, invitee);

    await page.goto(`${stack.baseUrl}/logout`);
    await page.getByRole('heading', { name: 'Logged out', exact: true }).waitFor();
    await ui.checkPage('owner-logged-out');

    // The link sends a logged-out visitor to the login page, and back to the invitation after it.
    await page.goto(stack.baseUrl + link.pathname + link.search);
    await page.getByRole('heading', { name: 'Log in', exact: true }).waitFor();
    await ui.checkPage('invitation-login');
    await submitLoginForm(page, invitee);
    await page.getByRole('heading', { name: 'Project invitation', exact: true }).waitFor();
    await page.getByText(`You are logged in as ${invitee.email}`).waitFor();
    expect(new URL(page.url()).pathname).toBe('/app/invitations/accept');
    await ui.checkPage('invitation');

    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await page.getByRole('heading', { name: 'Shared work', exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/app/projects/${projectId}`);
    await page.getByText('Your role: viewer').waitFor();
    await ui.checkPage('invitation-accepted');

    await page.getByRole('link', { name: 'Members', exact: true }).click();
    await page.getByRole('region', { name: 'Project members', exact: true }).waitFor();
    invitedUrl = page.url();
    const members = await waitForTableRows(page, 'Project members', 3);
    expect(members.map((r) => [r[1], r[2]])).toEqual([
      [owner.email, 'owner'],
      [registered.email, 'editor'],
      [invitee.email, 'viewer'],
    ]);
    // A viewer manages nobody: no form, no Remove, only Leave on their own row.
    expect(members.map((r) => r[3])).toEqual(['–', '–', 'Leave']);
    expect(await page.getByRole('button', { name: 'Add', exact: true }).count()).toBe(0);
    await page.getByText("Only the project's owners add members and invite people.").waitFor();
    await ui.checkPage('members-as-viewer');

    // The link worked once, and the owner has nothing pending any more.
    expect((await owner.client.get(`/api/projects/${projectId}/invitations`)).body.total).toBe(0);
  });

  it("pages through the invited person's recent activity and shows their plan", async () => {
    // Nine more logins from the API client: 13 events, two pages of ten.
    const client = new ApiClient(stack.baseUrl);
    for (let i = 0; i < 9; i++) expect((await client.post('/api/auth/login', { email: invitee.email, password: invitee.password })).status).toBe(200);
    await page.getByRole('link', { name: 'Profile', exact: true }).click();
    await page.getByRole('region', { name: 'Account events, newest first', exact: true }).waitFor();
    const first = await rowsOf('Account events, newest first');
    expect(first).toHaveLength(10);
    expect(first.every((r) => r[0] === 'Logged in')).toBe(true);
    // The API client's logins name Node.js; the browser's login comes before them.
    expect(first.slice(0, 9).map((r) => r[3])).toEqual(Array(9).fill('Node.js'));
    expect(first[9][3]).toMatch(/Chrom(e|ium) \d+ on Linux/);
    const pager = page.getByRole('navigation', { name: 'Pages' });
    expect(await pager.innerText()).toMatch(/1–10 of 13/);
    await ui.checkPage('profile-activity');

    await pager.getByRole('button', { name: 'Next' }).click();
    await pager.getByText(/11–13 of 13/).waitFor();
    // The pager moves at once; the rows follow when the page arrives.
    const second = await waitForTableRows(page, 'Account events, newest first', 3);
    expect(second.map((r) => r[0])).toEqual(['Logged in', 'Email address verified', 'Account created']);
    expect(second[0][3]).toBe('Node.js');
    await ui.checkPage('profile-activity-page-2');
    await pager.getByRole('button', { name: 'Previous' }).click();
    await pager.getByText(/1–10 of 13/).waitFor();

    const plan = await textOf('Plan and usage');
    expect(plan).toMatch(new RegExp(`Projects you own\\s+${maxProjects === null ? '0 \\(no limit\\)' : `0 of ${maxProjects}`}`));
    expect(plan).toMatch(/Projects you belong to\s+1\b/);
  });

  it('fits the members panel and the new profile sections on a 390 px wide screen', async () => {
    await ui.atPhoneWidth(async () => {
      await page.goto(`${stack.baseUrl}/auth/profile`);
      await page.getByRole('region', { name: 'Account events, newest first', exact: true }).waitFor();
      await page.getByTestId('plan-name').waitFor();
      await ui.checkPage('narrow-profile');
      // The new sections on their own, as a phone shows them.
      for (const [region, file] of [
        ['Plan and usage', 'narrow-plan-and-usage.png'],
        ['Recent activity', 'narrow-recent-activity.png'],
      ]) {
        await page.getByRole('region', { name: region, exact: true }).screenshot({ path: path.join(ui.artifacts, file) });
      }

      await page.goto(invitedUrl);
      await page.getByRole('region', { name: 'Project members', exact: true }).waitFor();
      await ui.checkPage('narrow-members');
    });
  });
});
