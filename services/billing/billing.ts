import type { DataSource, EntityManager } from 'typeorm';
import { BillingAccount, User } from '../../entities';
import type { BillingConfig } from '../../platform/billing-config';
import type { Logger } from '../../platform/logger';
import { ConflictError, NotFoundError } from '../errors';
import { assignPlan, planOfUser } from '../plans';
import { type BillingProvider, type BillingProviderEvent, WebhookSignatureError } from './provider';
import { PredictionMeter } from './prediction-meter';
import { sampleStorage, usageTotals, type UsageTotals } from './usage';
import { applyWebhookEvent, type WebhookOutcome } from './webhook';

/** The answer of every /api/billing route while billing is not configured (404: the feature does not exist here). */
export const BILLING_OFF = 'Billing is not enabled on this instance';

/** What `GET /api/billing/status` answers. */
export interface BillingStatus {
  enabled: true;
  provider: string;
  plan: { name: string; display_name: string; paid: boolean };
  subscription: { status: string; plan: string | null; current_period_start: Date | null; current_period_end: Date | null; cancel_at_period_end: boolean } | null;
  /** The provider's customer id, masked (`cus_…wxyz`); null before the first checkout. */
  customer: string | null;
  usage: { period_start: Date; period_end: Date; totals: UsageTotals };
  /** The paid plans one can subscribe to (those with a price configured). */
  paid_plans: string[];
  /** The plan an ended subscription falls back to (BILLING_FREE_PLAN); null: the instance's default plan. */
  free_plan: string | null;
}

export type PlanChange = { action: 'unchanged' | 'changed' | 'subscription_updated'; plan: string } | { action: 'checkout'; plan: string; checkout_session_id: string; url: string };

/**
 * Billing: the user's plan and subscription at the provider, usage totals, plan changes through the provider's checkout,
 * the customer portal, and the provider's webhooks (applied in `webhook.ts`). Every call but metering answers 404
 * {@link BILLING_OFF} while `BILLING_PROVIDER` is unset; metering runs regardless, so usage is there once billing starts.
 */
export class BillingService {
  readonly predictions: PredictionMeter;

  constructor(
    private readonly ds: DataSource,
    private readonly config: BillingConfig | null,
    private readonly provider: BillingProvider | null,
    private readonly appBaseUrl: string,
    log: Logger,
  ) {
    this.predictions = new PredictionMeter(ds, log);
  }

  /** The user's plan, subscription and this period's usage. */
  async status(userId: string): Promise<BillingStatus> {
    const { config, provider } = this.enabled();
    // This process's counted predictions are written first, so a user reads their own latest requests.
    await this.predictions.flush();
    const plan = await planOfUser(this.ds.manager, userId);
    const account = await this.ds.getRepository(BillingAccount).findOneBy({ userId });
    const period = currentPeriod(account);
    return {
      enabled: true,
      provider: provider.name,
      plan: { name: plan.name, display_name: plan.display_name, paid: plan.name in config.priceIds },
      subscription: account?.subscriptionStatus
        ? {
            status: account.subscriptionStatus,
            plan: account.subscribedPlan,
            current_period_start: account.currentPeriodStart,
            current_period_end: account.currentPeriodEnd,
            cancel_at_period_end: account.cancelAtPeriodEnd,
          }
        : null,
      customer: account ? maskId(account.customerId) : null,
      usage: { period_start: period.start, period_end: period.end, totals: await usageTotals(this.ds, userId, period.start, period.end) },
      paid_plans: Object.keys(config.priceIds).sort(),
      free_plan: config.freePlan,
    };
  }

  /**
   * Changes the user's plan: a paid plan through the provider (a checkout session, or the running subscription moved to
   * the new price, the plan then following its webhook); a free plan at once, ending a running subscription.
   */
  async changePlan(userId: string, planName: string): Promise<PlanChange> {
    const { config, provider } = this.enabled();
    await this.assertPlanExists(planName);
    const current = await planOfUser(this.ds.manager, userId);
    const account = await this.ds.getRepository(BillingAccount).findOneBy({ userId });
    const live = account?.subscriptionId && isLive(account.subscriptionStatus) ? account : null;
    const priceId = config.priceIds[planName];
    if (priceId) {
      if (live?.subscribedPlan === planName) return { action: 'unchanged', plan: planName };
      if (live?.subscriptionId) {
        await provider.changeSubscriptionPrice(live.subscriptionId, priceId, planName);
        return { action: 'subscription_updated', plan: planName };
      }
      const session = await this.checkoutSession(userId, planName);
      return { action: 'checkout', plan: planName, checkout_session_id: session.id, url: session.url };
    }
    if (live?.subscriptionId) await provider.cancelSubscription(live.subscriptionId);
    if (current.name === planName && current.source === 'user' && !live) return { action: 'unchanged', plan: planName };
    await this.ds.transaction(async (em) => {
      await assignPlan(em, userId, planName);
      if (live) await em.getRepository(BillingAccount).update({ userId }, { subscriptionStatus: 'canceled', cancelAtPeriodEnd: false });
    });
    return { action: 'changed', plan: planName };
  }

  /** A checkout session for a paid plan (409 for a plan without a price: it needs none). */
  async checkoutSession(userId: string, planName: string): Promise<{ id: string; url: string }> {
    const { config, provider } = this.enabled();
    await this.assertPlanExists(planName);
    const priceId = config.priceIds[planName];
    if (!priceId) throw new ConflictError(`Plan ${planName} is free: change to it with POST /api/billing/plan`);
    const customerId = await this.customerOf(userId, provider);
    return provider.createCheckoutSession({
      customerId,
      userId,
      plan: planName,
      priceId,
      successUrl: `${this.appBaseUrl}/app/billing?checkout=success`,
      cancelUrl: `${this.appBaseUrl}/app/billing?checkout=canceled`,
    });
  }

  /** The provider's customer portal (409 before the user has a customer there: nothing to manage yet). */
  async portalSession(userId: string): Promise<{ id: string; url: string }> {
    const { provider } = this.enabled();
    const account = await this.ds.getRepository(BillingAccount).findOneBy({ userId });
    if (!account) throw new ConflictError('No billing account yet: subscribe to a paid plan first');
    return provider.createPortalSession({ customerId: account.customerId, returnUrl: `${this.appBaseUrl}/app/billing` });
  }

  /**
   * A provider webhook: verified (signature and timestamp, else `WebhookSignatureError` and nothing changes), then
   * applied once: the event's id and its effect commit together, so a replay finds the id and changes nothing.
   */
  async webhook(rawBody: string, signature: string): Promise<WebhookOutcome> {
    const { config, provider } = this.enabled();
    if (!signature) throw new WebhookSignatureError('missing');
    const event: BillingProviderEvent = provider.verifyWebhook(rawBody, signature);
    return this.ds.transaction((em) => applyWebhookEvent(em, provider.name, config, event));
  }

  /** Today's storage sample of every project owner (services/billing/usage.ts); the API takes it hourly. */
  sampleStorage(now = new Date()): Promise<number> {
    return sampleStorage(this.ds, now);
  }

  /** Billing's configuration and provider, or 404 while billing is off. */
  private enabled(): { config: BillingConfig; provider: BillingProvider } {
    if (!this.config || !this.provider) throw new NotFoundError(BILLING_OFF);
    return { config: this.config, provider: this.provider };
  }

  private async assertPlanExists(name: string): Promise<void> {
    const [row] = await this.ds.query('SELECT 1 FROM plans WHERE name = $1', [name]);
    if (!row) throw new NotFoundError('Plan not found');
  }

  /** The user's customer at the provider, created (once: the row's primary key settles a race) on first need. */
  private async customerOf(userId: string, provider: BillingProvider): Promise<string> {
    const repo = this.ds.getRepository(BillingAccount);
    const existing = await repo.findOneBy({ userId });
    if (existing) return existing.customerId;
    const user = await this.ds.getRepository(User).findOneByOrFail({ id: userId });
    const customer = await provider.createCustomer({ id: userId, email: user.email, name: user.name });
    await this.ds.transaction(async (em: EntityManager) => {
      await em.createQueryBuilder().insert().into(BillingAccount).values({ userId, provider: provider.name, customerId: customer.id }).orIgnore().execute();
    });
    return (await repo.findOneByOrFail({ userId })).customerId;
  }
}

/** Statuses in which a subscription still bills (a change moves it; a free plan cancels it). */
function isLive(status: string | null): boolean {
  return status === 'active' || status === 'trialing' || status === 'past_due' || status === 'incomplete';
}

/** The subscription's current period when the provider reported one that holds now, else the calendar month (UTC). */
function currentPeriod(account: BillingAccount | null, now = new Date()): { start: Date; end: Date } {
  if (account?.currentPeriodStart && account.currentPeriodEnd && account.currentPeriodStart <= now && now < account.currentPeriodEnd) {
    return { start: account.currentPeriodStart, end: account.currentPeriodEnd };
  }
  return { start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)), end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)) };
}

/** `cus_…wxyz`: enough to match it with the provider's dashboard, not the id itself. */
export function maskId(id: string): string {
  const prefix = /^[a-z]+_/.exec(id)?.[0] ?? '';
  return `${prefix}…${id.slice(-4)}`;
}
