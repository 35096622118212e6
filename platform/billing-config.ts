import { z } from 'zod';

/**
 * Billing's variables, spread into the environment schema of `platform/config.ts`. Billing is off unless
 * `BILLING_PROVIDER=stripe`, which then needs the secret key and the webhook signing secret (startup stops without them).
 */
export const BILLING_ENV = {
  /** `none` (default: every /api/billing route answers 404 `Billing is not enabled`) or `stripe`. */
  BILLING_PROVIDER: z.enum(['none', 'stripe']).default('none'),
  /** The Stripe API secret key (`sk_…`). */
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  /** The signing secret of the webhook endpoint (`whsec_…`) that `Stripe-Signature` is verified with. */
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** Another Stripe-compatible API (stripe-mock in tests), e.g. http://127.0.0.1:12111; unset: api.stripe.com. */
  STRIPE_API_BASE: z.string().url().optional(),
  /** The paid plans: `plan=price_id` pairs, comma-separated (`pro=price_123,team=price_456`); a plan not listed is free. */
  STRIPE_PRICE_IDS: z
    .string()
    .regex(/^\s*([a-z0-9_-]+\s*=\s*[A-Za-z0-9_-]+\s*(,\s*|$))*$/, 'expected plan=price_id pairs, comma-separated')
    .default(''),
  /** The plan a user falls back to when their subscription ends; unset: the instance's default plan. */
  BILLING_FREE_PLAN: z.string().optional(),
};

type BillingEnv = z.infer<z.ZodObject<typeof BILLING_ENV>>;

/** Billing's configuration; null when billing is off. */
export interface BillingConfig {
  provider: 'stripe';
  secretKey: string;
  webhookSecret: string;
  /** Where the Stripe SDK sends its calls; null: Stripe itself. */
  apiBase: string | null;
  /** Price id of each paid plan, by plan name. */
  priceIds: Record<string, string>;
  /** The plan an ended subscription falls back to; null: the default plan. */
  freePlan: string | null;
}

/** Billing's part of the typed config (the caller turns a thrown message into its ConfigError). */
export function billingConfig(e: BillingEnv): BillingConfig | null {
  if (e.BILLING_PROVIDER === 'none') return null;
  const missing = (['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const).filter((k) => !e[k]);
  if (missing.length) throw new Error(`Invalid configuration:\n  ${missing.map((k) => `${k}: required when BILLING_PROVIDER is stripe`).join('\n  ')}`);
  const priceIds: Record<string, string> = {};
  for (const pair of e.STRIPE_PRICE_IDS.split(',').filter((p) => p.trim())) {
    const [plan, price] = pair.split('=').map((s) => s.trim());
    priceIds[plan] = price;
  }
  return {
    provider: 'stripe',
    secretKey: e.STRIPE_SECRET_KEY as string,
    webhookSecret: e.STRIPE_WEBHOOK_SECRET as string,
    apiBase: e.STRIPE_API_BASE?.replace(/\/+$/, '') ?? null,
    priceIds,
    freePlan: e.BILLING_FREE_PLAN ?? null,
  };
}
