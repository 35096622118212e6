import { type Page } from 'playwright-core';
import Stripe from 'stripe';
import { startStripeMock, type StripeMockServer } from '../platform/stripe-mock';
import { recordUsage } from '../services/billing/usage';
import { useBrowser, logInThroughForm } from './support/browser';
import { ApiClient, signUp } from './support/client';
import { startStack, TestStack } from './support/stack';

/**
 * The billing page in Chromium against the real stack with billing on (the Stripe SDK against stripe-mock), with the
 * checks every browser test gets: reached from the profile, it shows the plan and this period's metered usage; a paid
 * plan sends the browser to the provider's checkout page (its host answered here, the outside world), back with
 * `?checkout=success`; a signed webhook moves the plan; the portal button opens the provider's portal; a free plan
 * applies at once.
 */

const WEBHOOK_SECRET = 'whsec_web_ui_billing';
let stack: TestStack;
let mock: StripeMockServer;
const ui = useBrowser('web-ui-billing');
let page: Page;
let owner: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  page = ui.page;
  mock = await startStripeMock();
  stack = await startStack({
    workers: [],
    env: {
      BILLING_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_ui',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: mock.url,
      STRIPE_PRICE_IDS: 'pro=price_pro',
      BILLING_FREE_PLAN: 'free',
    },
  });
  await stack.ds.query(`INSERT INTO plans (id, name, display_name, limits) VALUES (gen_random_uuid(), 'free', 'Free', '{}'), (gen_random_uuid(), 'pro', 'Pro', '{}')`);
  owner = await signUp(stack.baseUrl, stack.mail, { name: 'Bill Payer' });
  await recordUsage(stack.ds, { userId: owner.user.id, projectId: null, kind: 'predictions', quantity: 1234, idempotencyKey: `ui:${owner.user.id}:p`, occurredAt: new Date() });
  await recordUsage(stack.ds, { userId: owner.user.id, projectId: null, kind: 'training_minutes', quantity: 12.5, idempotencyKey: `ui:${owner.user.id}:t`, occurredAt: new Date() });
  // The provider's hosted pages are the outside world: their host answers with a stand-in page.
  await ui.context.route(/^https:\/\/(checkout\.stripe\.com|[^/]*\.stripe\.me)\//, (r) =>
    r.fulfill({ contentType: 'text/html', body: '<!doctype html><html lang="en"><title>Provider</title><main><h1>Provider page</h1></main></html>' }),
  );
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await mock?.stop();
});

describe('the billing page in Chromium', () => {
  it('is reached from the profile and shows the plan and the metered usage', async () => {
    await logInThroughForm(page, stack.baseUrl, owner);
    await page.getByRole('link', { name: 'Profile', exact: true }).click();
    await page.getByRole('link', { name: /^Billing:/ }).click();
    await page.getByRole('heading', { name: 'Billing', exact: true }).waitFor();
    await page
      .getByTestId('usage-predictions')
      .filter({ hasText: /1.?234/ })
      .waitFor();
    expect(await page.getByTestId('usage-training').innerText()).toContain('12.5');
    expect(await page.getByRole('region', { name: 'Plan', exact: true }).innerText()).toContain('not yet');
    await ui.checkPage('billing');
  });

  it('sends a paid plan to the checkout page; the webhook then moves the plan, shown back on the page', async () => {
    await page.getByLabel('New plan').selectOption('pro');
    await page.getByRole('button', { name: 'Change plan' }).click();
    await page.waitForURL(/checkout\.stripe\.com/);
    await page.getByRole('heading', { name: 'Provider page' }).waitFor();

    // The provider confirms the subscription (a signed checkout.session.completed), then sends the browser back.
    const [account] = await stack.ds.query('SELECT customer_id FROM billing_accounts WHERE user_id = $1', [owner.user.id]);
    const payload = JSON.stringify({
      id: `evt_ui_${Date.now()}`,
      type: 'checkout.session.completed',
      data: { object: { object: 'checkout.session', client_reference_id: owner.user.id, customer: account.customer_id, subscription: 'sub_ui_1', metadata: { plan: 'pro' } } },
    });
    const signature = new Stripe('sk_test_signer').webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const hook = await new ApiClient(stack.baseUrl).post('/api/billing/webhooks/stripe', undefined, {
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      rawBody: payload,
    });
    expect(hook.body.outcome).toBe('plan_changed');

    await page.goto(`${stack.baseUrl}/app/billing?checkout=success`);
    await page.getByRole('status').filter({ hasText: 'Payment received' }).waitFor();
    await page.getByTestId('billing-plan').filter({ hasText: 'Pro (paid)' }).waitFor();
    expect(await page.getByRole('region', { name: 'Plan', exact: true }).innerText()).toContain('active');
    await ui.checkPage('billing-subscribed');
  });

  it("opens the provider's portal, and applies a free plan at once", async () => {
    await page.getByRole('button', { name: 'Manage payment and invoices' }).click();
    await page.waitForURL(/stripe\.me/);
    await page.goto(`${stack.baseUrl}/app/billing`);
    await page.getByLabel('New plan').selectOption('free');
    await page.getByRole('button', { name: 'Change plan' }).click();
    await page.getByRole('status').filter({ hasText: 'Your plan is now free.' }).waitFor();
    await page.getByTestId('billing-plan').filter({ hasText: 'Free (free)' }).waitFor();
    await ui.checkPage('billing-free');
  });
});
