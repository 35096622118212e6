import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Page } from 'playwright-core';
import { useBrowser, logInThroughForm } from './support/browser';
import { ApiClient, signUp } from './support/client';
import { startOidcProvider, type TestIdp } from './support/oidc';
import { startStack, TestStack } from './support/stack';
import { makeSuperuser } from './support/superuser';

/**
 * Single sign-on in Debian's Chromium against the real stack and the real test OpenID Provider, with the checks every
 * browser test gets (no console error, no failed request, no serious axe violation at 1280 and 390 px, screenshots
 * under test-artifacts/web-ui-admin-sso/): a superuser configures a provider on the admin page, which lists it with
 * its secret masked; the login page shows its button; a person signs in through the provider's own login form and
 * lands in the application; a refused sign-in lands on the login page with the reason.
 *
 * The browser opens the application at APP_BASE_URL, the origin of the callback registered at the provider: a plain
 * reverse proxy on `localhost` started before the stack (whose port is only known once it runs), so cookies and
 * redirects are the browser's own. The provider is on 127.0.0.1, another host for cookies.
 */

let APP = '';
const SECRET = 'browser-test-client-secret';

let stack: TestStack;
let idp: TestIdp;
const ui = useBrowser('web-ui-admin-sso');
let page: Page;
let admin: Awaited<ReturnType<typeof signUp>>;

let proxy: http.Server;

/** A reverse proxy to the stack's API, listening before the stack exists: its address is the stack's APP_BASE_URL. */
async function startProxy(): Promise<{ url: string; to: (port: number) => void }> {
  let target = 0;
  proxy = http.createServer((req, res) => {
    const up = http.request({ host: '127.0.0.1', port: target, path: req.url, method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.writeHead(502).end());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return { url: `http://localhost:${(proxy.address() as AddressInfo).port}`, to: (port) => (target = port) };
}

beforeAll(async () => {
  const front = await startProxy();
  APP = front.url;
  stack = await startStack({ workers: [], env: { APP_BASE_URL: APP } });
  front.to(Number(new URL(stack.baseUrl).port));
  idp = await startOidcProvider({
    clients: [{ client_id: 'mlsvc-web', client_secret: SECRET, redirect_uris: [`${APP}/api/auth/sso/corp/callback`] }],
    accounts: {
      alice: { email: 'alice@corp.test', email_verified: true, name: 'Alice Browser', groups: [] },
      bob: { email: 'bob@elsewhere.test', email_verified: true, name: 'Bob Elsewhere', groups: [] },
    },
  });
  admin = await signUp(stack.baseUrl, stack.mail, { name: 'Ada Admin' });
  await makeSuperuser(stack.ds, admin.user.id);
  page = ui.page;
}, 120_000);

afterAll(async () => {
  await idp?.stop();
  await stack?.stop();
  proxy?.close();
});

describe('single sign-on in Chromium', () => {
  it('a superuser configures a provider; the admin page lists it with the secret masked', async () => {
    await logInThroughForm(page, APP, admin);
    await page.goto(`${APP}/app/admin/sso`);
    await page.getByRole('heading', { name: 'Single sign-on', level: 1 }).waitFor();
    await ui.checkPage('sso-empty');

    await page.getByRole('link', { name: 'New provider' }).click();
    await page.getByLabel('Display name').fill('Corp SSO');
    await page.getByLabel('Slug').fill('corp');
    await page.getByLabel('Issuer').fill(idp.issuer);
    await page.getByLabel('Client ID').fill('mlsvc-web');
    await page.getByLabel('Client secret').fill(SECRET);
    await page.getByLabel('Allowed email domains').fill('corp.test');
    await ui.checkPage('sso-new');
    await page.getByRole('button', { name: 'Create provider' }).click();

    const row = page.getByRole('region', { name: 'SSO providers' }).locator('tbody tr', { hasText: 'Corp SSO' });
    await row.waitFor();
    expect(await row.innerText()).toContain('***');
    expect(await page.content()).not.toContain(SECRET);
    await ui.checkPage('sso-list');

    // The provider's page shows the redirect URI to register and keeps the secret masked.
    await page.getByRole('link', { name: 'Corp SSO' }).click();
    await page.getByText(`${APP}/api/auth/sso/corp/callback`).waitFor();
    expect(await page.getByLabel('Client secret').inputValue()).toBe('***');
    await ui.checkPage('sso-detail');
  });

  it('the login page offers the provider, and a sign-in through it lands in the application', async () => {
    await ui.context.clearCookies();
    await page.goto(`${APP}/login`);
    const button = page.getByRole('link', { name: 'Sign in with Corp SSO' });
    await button.waitFor();
    await ui.checkPage('login-with-sso');
    await button.click();
    // The provider's own login form.
    await page.waitForURL(`${idp.issuer}/interaction/**`);
    await page.getByLabel('Account').fill('alice');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${APP}/app/projects`);
    await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
    await ui.checkPage('signed-in-with-sso');
    const cookies = await ui.context.cookies(APP);
    const browserSession = new ApiClient(stack.baseUrl);
    for (const c of cookies) browserSession.cookies.set(c.name, c.value);
    expect((await browserSession.get('/api/auth/me')).body.user).toMatchObject({ email: 'alice@corp.test', name: 'Alice Browser' });
  });

  it('a refused sign-in comes back to the login page with the reason', async () => {
    await ui.context.clearCookies();
    await page.goto(`${APP}/login`);
    await page.getByRole('link', { name: 'Sign in with Corp SSO' }).click();
    await page.waitForURL(`${idp.issuer}/interaction/**`);
    await page.getByLabel('Account').fill('bob');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/login\?sso_error=/);
    await page.getByRole('alert').filter({ hasText: 'Accounts of elsewhere.test may not sign in with Corp SSO' }).waitFor();
    await ui.checkPage('login-sso-refused');
  });
});
