import Stripe from 'stripe';
import type { BillingConfig } from '../../platform/billing-config';
import { UnavailableError } from '../errors';
import { type BillingProvider, type BillingProviderEvent, WEBHOOK_TOLERANCE_SECS, WebhookSignatureError } from './provider';

type StripeObject = Record<string, unknown>;

/** The Stripe implementation of {@link BillingProvider}: the official SDK, pointed at `STRIPE_API_BASE` when set (stripe-mock). */
export class StripeProvider implements BillingProvider {
  readonly name = 'stripe';
  private readonly stripe: Stripe;

  constructor(private readonly config: BillingConfig) {
    const base = config.apiBase ? new URL(config.apiBase) : null;
    this.stripe = new Stripe(config.secretKey, {
      maxNetworkRetries: 1,
      timeout: 15_000,
      ...(base ? { host: base.hostname, port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)), protocol: base.protocol === 'https:' ? 'https' : 'http' } : {}),
    });
  }

  createCustomer(user: { id: string; email: string; name: string }) {
    return this.call(async () => {
      const c = await this.stripe.customers.create({ email: user.email, name: user.name, metadata: { user_id: user.id } }, { idempotencyKey: `customer-${user.id}` });
      return { id: c.id };
    });
  }

  createCheckoutSession(a: { customerId: string; userId: string; plan: string; priceId: string; successUrl: string; cancelUrl: string }) {
    return this.call(async () => {
      const s = await this.stripe.checkout.sessions.create({
        mode: 'subscription',
        customer: a.customerId,
        // The webhook finds the user and the plan again from these (checkout.session.completed).
        client_reference_id: a.userId,
        metadata: { user_id: a.userId, plan: a.plan },
        subscription_data: { metadata: { user_id: a.userId, plan: a.plan } },
        line_items: [{ price: a.priceId, quantity: 1 }],
        success_url: a.successUrl,
        cancel_url: a.cancelUrl,
      });
      if (!s.url) throw new UnavailableError('The billing provider returned no checkout page');
      return { id: s.id, url: s.url };
    });
  }

  createPortalSession(a: { customerId: string; returnUrl: string }) {
    return this.call(async () => {
      const s = await this.stripe.billingPortal.sessions.create({ customer: a.customerId, return_url: a.returnUrl });
      return { id: s.id, url: s.url };
    });
  }

  changeSubscriptionPrice(subscriptionId: string, priceId: string, plan: string) {
    return this.call(async () => {
      const sub = await this.stripe.subscriptions.retrieve(subscriptionId);
      const item = sub.items.data[0];
      await this.stripe.subscriptions.update(subscriptionId, {
        items: [item ? { id: item.id, price: priceId } : { price: priceId }],
        proration_behavior: 'create_prorations',
        metadata: { plan },
      });
    });
  }

  cancelSubscription(subscriptionId: string) {
    return this.call(async () => {
      await this.stripe.subscriptions.cancel(subscriptionId);
    });
  }

  verifyWebhook(rawBody: string, signatureHeader: string): BillingProviderEvent {
    let event: { id: string; type: string; data: { object: StripeObject } };
    try {
      event = this.stripe.webhooks.constructEvent(rawBody, signatureHeader, this.config.webhookSecret, WEBHOOK_TOLERANCE_SECS) as unknown as typeof event;
    } catch (err) {
      // The SDK says "Timestamp outside the tolerance zone" for an old (or future) delivery; anything else is the signature.
      throw new WebhookSignatureError(/tolerance/i.test((err as Error).message) ? 'timestamp' : 'signature');
    }
    return normalize(event);
  }

  /** A provider call; its failures become a 503 whose text names no internals (the provider's message may echo ids). */
  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof UnavailableError) throw err;
      const kind = err instanceof Stripe.errors.StripeConnectionError ? 'could not be reached' : 'refused the request';
      throw new UnavailableError(`The billing provider ${kind}; try again later`);
    }
  }
}

/** The Stripe event as billing sees it (Stripe's documented payloads; both the older and the 2025 subscription shapes). */
function normalize(event: { id: string; type: string; data: { object: StripeObject } }): BillingProviderEvent {
  const o = event.data?.object ?? {};
  const head = { id: String(event.id), type: String(event.type) };
  switch (event.type) {
    case 'checkout.session.completed': {
      const meta = (o.metadata ?? {}) as Record<string, string>;
      return { ...head, kind: 'checkout_completed', userId: str(o.client_reference_id) ?? str(meta.user_id), customerId: idOf(o.customer), subscriptionId: idOf(o.subscription), plan: str(meta.plan) };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const item = ((o.items as { data?: StripeObject[] } | undefined)?.data ?? [])[0] ?? {};
      return {
        ...head,
        kind: 'subscription_changed',
        customerId: idOf(o.customer),
        subscriptionId: String(o.id),
        status: event.type === 'customer.subscription.deleted' ? 'canceled' : (str(o.status) ?? 'active'),
        priceId: idOf((item as StripeObject).price),
        // API versions from 2025-03 carry the period on the items; older ones on the subscription.
        periodStart: date(item.current_period_start ?? o.current_period_start),
        periodEnd: date(item.current_period_end ?? o.current_period_end),
        cancelAtPeriodEnd: o.cancel_at_period_end === true,
      };
    }
    case 'invoice.payment_failed': {
      const parent = (o.parent as { subscription_details?: { subscription?: unknown } } | undefined)?.subscription_details;
      return { ...head, kind: 'payment_failed', customerId: idOf(o.customer), subscriptionId: idOf(o.subscription ?? parent?.subscription) };
    }
    default:
      return { ...head, kind: 'other' };
  }
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}

/** An expandable field: the id string, or the expanded object's id. */
function idOf(v: unknown): string | null {
  if (typeof v === 'string') return v || null;
  if (v && typeof v === 'object' && typeof (v as { id?: unknown }).id === 'string') return (v as { id: string }).id;
  return null;
}

function date(v: unknown): Date | null {
  return typeof v === 'number' && Number.isFinite(v) ? new Date(v * 1000) : null;
}
