import type { EntityManager, Repository } from 'typeorm';
import { BillingAccount } from '../../entities';
import type { BillingConfig } from '../../platform/billing-config';
import { NotFoundError } from '../errors';
import { assignPlan } from '../plans';
import type { BillingProviderEvent } from './provider';

/** What a webhook delivery did: `duplicate` when its event id was applied before (nothing changed this time). */
export interface WebhookOutcome {
  event_id: string;
  type: string;
  duplicate: boolean;
  /** `plan_changed`, `status_changed`, `payment_failed`, `unknown_customer`, `unknown_plan` or `ignored`. */
  outcome: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Subscription statuses that end what was paid for: the user falls back to the free plan. */
const ENDED = new Set(['canceled', 'unpaid', 'incomplete_expired']);
/** Statuses in which the paid plan applies. */
const PAID = new Set(['active', 'trialing']);

/**
 * Applies one verified provider event inside the caller's transaction. Its id is written first (primary key): a replay
 * of an event already applied conflicts, and the event changes nothing a second time. Plans move through part plans'
 * `assignPlan` in the same transaction, so the record and the change commit together or not at all.
 */
export async function applyWebhookEvent(em: EntityManager, provider: string, config: BillingConfig, event: BillingProviderEvent): Promise<WebhookOutcome> {
  const id = `${provider}:${event.id}`;
  const inserted: unknown[] = await em.query(`INSERT INTO billing_events (id, type, outcome) VALUES ($1, $2, 'pending') ON CONFLICT (id) DO NOTHING RETURNING id`, [id, event.type]);
  if (!inserted.length) {
    const [prior] = await em.query('SELECT outcome FROM billing_events WHERE id = $1', [id]);
    return { event_id: event.id, type: event.type, duplicate: true, outcome: prior?.outcome ?? 'ignored' };
  }
  const { userId, outcome } = await apply(em, provider, config, event);
  await em.query('UPDATE billing_events SET user_id = $2, outcome = $3 WHERE id = $1', [id, userId, outcome]);
  return { event_id: event.id, type: event.type, duplicate: false, outcome };
}

async function apply(em: EntityManager, provider: string, config: BillingConfig, event: BillingProviderEvent): Promise<{ userId: string | null; outcome: string }> {
  const accounts = em.getRepository(BillingAccount);
  switch (event.kind) {
    case 'checkout_completed': {
      const userId = event.userId && UUID.test(event.userId) ? event.userId : null;
      const [user] = userId ? await em.query('SELECT id FROM users WHERE id = $1', [userId]) : [];
      if (!userId || !user || !event.customerId) return { userId: null, outcome: 'unknown_customer' };
      await accounts.upsert(
        { userId, provider, customerId: event.customerId, subscriptionId: event.subscriptionId, subscriptionStatus: 'active', subscribedPlan: event.plan, cancelAtPeriodEnd: false },
        ['userId'],
      );
      return { userId, outcome: event.plan ? await movePlan(em, userId, event.plan) : 'status_changed' };
    }
    case 'subscription_changed': {
      const account = await findAccount(accounts, event.subscriptionId, event.customerId);
      if (!account) return { userId: null, outcome: 'unknown_customer' };
      const plan = (event.priceId && planOfPrice(config, event.priceId)) || account.subscribedPlan;
      await accounts.update(
        { userId: account.userId },
        {
          subscriptionId: event.subscriptionId,
          subscriptionStatus: event.status,
          subscribedPlan: plan,
          currentPeriodStart: event.periodStart ?? account.currentPeriodStart,
          currentPeriodEnd: event.periodEnd ?? account.currentPeriodEnd,
          cancelAtPeriodEnd: event.cancelAtPeriodEnd,
        },
      );
      if (ENDED.has(event.status)) return { userId: account.userId, outcome: await movePlan(em, account.userId, config.freePlan) };
      if (PAID.has(event.status) && plan) return { userId: account.userId, outcome: await movePlan(em, account.userId, plan) };
      return { userId: account.userId, outcome: 'status_changed' };
    }
    case 'payment_failed': {
      const account = await findAccount(accounts, event.subscriptionId, event.customerId);
      if (!account) return { userId: null, outcome: 'unknown_customer' };
      // The plan stays while the provider retries the payment; the subscription's own update (unpaid, canceled) ends it.
      await accounts.update({ userId: account.userId }, { subscriptionStatus: 'past_due' });
      return { userId: account.userId, outcome: 'payment_failed' };
    }
    default:
      return { userId: null, outcome: 'ignored' };
  }
}

/** The plan change an event asks for; a plan since removed is recorded as such rather than failing the delivery forever. */
async function movePlan(em: EntityManager, userId: string, plan: string | null): Promise<string> {
  try {
    await assignPlan(em, userId, plan);
    return 'plan_changed';
  } catch (err) {
    if (err instanceof NotFoundError) return 'unknown_plan';
    throw err;
  }
}

function findAccount(accounts: Repository<BillingAccount>, subscriptionId: string | null, customerId: string | null): Promise<BillingAccount | null> {
  const where = [...(subscriptionId ? [{ subscriptionId }] : []), ...(customerId ? [{ customerId }] : [])];
  return where.length ? accounts.findOne({ where }) : Promise.resolve(null);
}

/** The plan a price id belongs to (STRIPE_PRICE_IDS). */
function planOfPrice(config: BillingConfig, priceId: string): string | null {
  return Object.entries(config.priceIds).find(([, p]) => p === priceId)?.[0] ?? null;
}
