/**
 * What billing needs of a payment provider, in the domain's words. The Stripe implementation is
 * `stripe-provider.ts`; the service (`billing.ts`) knows no provider's API, only these calls and the normalized events.
 */
export interface BillingProvider {
  /** The provider's name, the prefix of its event ids in `billing_events`. */
  readonly name: string;
  /** A customer for the user (their billing identity at the provider). */
  createCustomer(user: { id: string; email: string; name: string }): Promise<{ id: string }>;
  /** A hosted checkout page subscribing the customer to the plan's price. */
  createCheckoutSession(a: { customerId: string; userId: string; plan: string; priceId: string; successUrl: string; cancelUrl: string }): Promise<CheckoutSession>;
  /** A hosted page where the customer manages payment methods, invoices and cancellation. */
  createPortalSession(a: { customerId: string; returnUrl: string }): Promise<{ id: string; url: string }>;
  /** Moves an existing subscription to another price (prorated); the provider's webhook then reports the change. */
  changeSubscriptionPrice(subscriptionId: string, priceId: string, plan: string): Promise<void>;
  /** Ends a subscription now (a downgrade to a free plan). */
  cancelSubscription(subscriptionId: string): Promise<void>;
  /**
   * The event of a webhook delivery, once its signature (over the raw body, with its timestamp within the tolerance)
   * is verified; throws {@link WebhookSignatureError} otherwise.
   */
  verifyWebhook(rawBody: string, signatureHeader: string): BillingProviderEvent;
}

export interface CheckoutSession {
  id: string;
  url: string;
}

/** A provider event, normalized: only what billing acts on. */
export type BillingProviderEvent = { id: string; type: string } & (
  | { kind: 'checkout_completed'; userId: string | null; customerId: string | null; subscriptionId: string | null; plan: string | null }
  | {
      kind: 'subscription_changed';
      customerId: string | null;
      subscriptionId: string;
      /** The provider's status; `canceled` for a deleted subscription. */
      status: string;
      priceId: string | null;
      periodStart: Date | null;
      periodEnd: Date | null;
      cancelAtPeriodEnd: boolean;
    }
  | { kind: 'payment_failed'; customerId: string | null; subscriptionId: string | null }
  | { kind: 'other' }
);

/** The 400 answers to a webhook delivery that is not verified. */
export const WEBHOOK_REFUSALS = {
  missing: 'Missing Stripe-Signature header',
  signature: 'Invalid webhook signature',
  timestamp: 'Webhook timestamp outside the tolerance (300 s)',
} as const;

/** A webhook whose signature does not verify, or whose timestamp is outside the tolerance (400, nothing applied). */
export class WebhookSignatureError extends Error {
  constructor(readonly reason: 'missing' | 'signature' | 'timestamp') {
    super(WEBHOOK_REFUSALS[reason]);
  }
}

/** Seconds a signed webhook's timestamp may differ from now (Stripe's default). */
export const WEBHOOK_TOLERANCE_SECS = 300;
