import { type Page } from 'playwright-core';
import { useBrowser, logInThroughForm, tableRows, waitForTableRows } from './support/browser';
import { ApiClient, createProject, eventually, signUp, uniqueEmail } from './support/client';
import { linkIn } from './support/smtp-sink';
import { startStack, TestStack } from './support/stack';
import { makeSuperuser } from './support/superuser';

/**
 * The admin area's core pages in Chromium against the real stack, with the browser checks (no console error, no
 * failed request, no serious axe violation, also at 390 px, no horizontal scroll): the header links a superuser to
 * the area and not a plain user; users are searched, suspended and reactivated; a key is revoked; a setting saved;
 * security events and service logs are listed.
 */

let stack: TestStack;
const ui = useBrowser('web-ui-admin');
let page: Page;
let admin: Awaited<ReturnType<typeof signUp>>;
let member: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  page = ui.page;
  stack = await startStack({ workers: [] });
  admin = await signUp(stack.baseUrl, stack.mail, { name: 'Ada Admin' });
  await makeSuperuser(stack.ds, admin.user.id);
  member = await signUp(stack.baseUrl, stack.mail, { name: 'Mel Member' });
  expect((await member.client.post('/api/auth/api-keys', { name: 'ci key', scopes: ['read:projects'] })).status).toBe(201);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

const rowsOf = (region: string): Promise<string[][]> => tableRows(page, region);

describe('the admin area in Chromium', () => {
  it('is linked from the header for superusers only', async () => {
    await logInThroughForm(page, stack.baseUrl, member);
    await page.getByRole('link', { name: 'Projects', exact: true }).waitFor();
    expect(await page.getByRole('link', { name: 'Admin', exact: true }).count()).toBe(0);
    await logInThroughForm(page, stack.baseUrl, admin);
    await page.getByRole('link', { name: 'Admin', exact: true }).click();
    await page.getByRole('heading', { name: 'Users', exact: true }).waitFor();
    await waitForTableRows(page, 'Users', 2);
    await ui.checkPage('users');
  });

  it('searches users, suspends one and reactivates them', async () => {
    await page.getByLabel('Search email or name').fill('Mel');
    await waitForTableRows(page, 'Users', 1);
    await page.getByRole('button', { name: `Suspend ${member.email}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Suspend', exact: true }).click();
    await page.getByRole('button', { name: `Reactivate ${member.email}` }).waitFor();
    expect((await member.client.get('/api/projects')).status).toBe(401);
    expect((await rowsOf('Users'))[0]).toContain('suspended');
    await ui.checkPage('user-suspended');
    await page.getByRole('button', { name: `Reactivate ${member.email}` }).click();
    await page.getByRole('button', { name: `Suspend ${member.email}` }).waitFor();
    expect((await member.client.get('/api/projects')).status).toBe(200);
    await page.getByRole('button', { name: `Details of ${member.email}` }).click();
    await page.getByRole('region', { name: `Details of ${member.email}` }).waitFor();
    await ui.checkPage('user-details');
  });

  it('revokes a key of another user', async () => {
    await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys', exact: true }).waitFor();
    expect((await waitForTableRows(page, 'API keys', 1))[0].slice(0, 1)).toEqual(['ci key']);
    await ui.checkPage('api-keys');
    await page.getByRole('button', { name: /^Revoke the key/ }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke', exact: true }).click();
    await page.getByText('No key matches.').waitFor();
  });

  it('saves the settings', async () => {
    await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByLabel('Registration').selectOption('invite_only');
    await page.getByLabel('Allowed email domains').fill('example.test, corp.example');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').getByText('Saved.').waitFor();
    const saved = await admin.client.get('/api/admin/settings');
    expect(saved.body.settings).toMatchObject({ registration: 'invite_only', allowed_email_domains: ['example.test', 'corp.example'] });
    await ui.checkPage('settings');
    const refused = await new ApiClient(stack.baseUrl).post('/api/auth/register', { email: 'new@corp.example', name: 'N', password: 'a long password' });
    expect(refused.status).toBe(403);
  });

  it('lets an invited address register from its invitation link while registration is invite-only', async () => {
    const projectId = await createProject(admin.client, 'Invites');
    const email = uniqueEmail('invitee');
    expect((await admin.client.post('/api/auth/invite', { project_id: projectId, email, role: 'viewer' })).status).toBe(201);
    const mail = await stack.mail.waitFor(email, /invitations\/accept\?token=/, 15_000);
    const link = new URL(linkIn(mail, '/app/invitations/accept?token='));
    await page.context().clearCookies();
    await page.goto(`${stack.baseUrl}${link.pathname}${link.search}`);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('Name').fill('Ivy Invitee');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('a long password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('status').getByText('We sent an activation link').waitFor();
    await ui.checkPage('invited-registration');
    await logInThroughForm(page, stack.baseUrl, admin);
    await page.goto(`${stack.baseUrl}/app/admin/security`);
  });

  it('lists security events and service logs', async () => {
    await page.getByRole('heading', { name: 'Security events', exact: true }).waitFor();
    await eventually(async () => (await rowsOf('Security events').catch(() => [])).some((r) => r.includes('suspended')), 10_000);
    await page.getByRole('combobox', { name: /^Event/ }).selectOption('api_key_revoked');
    await eventually(async () => {
      const rows = await rowsOf('Security events').catch(() => []);
      return rows.length === 1 && rows[0].includes('api key revoked');
    }, 10_000);
    await ui.checkPage('security-events');
    await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Service logs' }).click();
    await page.getByRole('heading', { name: 'Service logs', exact: true }).waitFor();
    await page.getByRole('region', { name: 'Warnings and errors' }).waitFor();
    await ui.checkPage('service-logs');
  });
});
