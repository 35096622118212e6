import { z } from 'zod';
import { dateTimestamp } from '../presenters/common.schema';

/** The request and response schemas of the billing routes (api/routes/billing.ts). */

/** A plan's name as plans are named (lower-case letters, digits, `_` and `-`). */
const planName = z
  .string()
  .regex(/^[a-z0-9_-]{1,64}$/, 'A plan name is 1-64 lower-case letters, digits, _ or -')
  .meta({ description: 'The plan to move to (`GET /api/billing/status` lists the paid ones)' });

export const planBody = z.object({ plan: planName }).strict();

const usageTotalsSchema = z.object({
  training_minutes: z.number().meta({ description: 'Minutes of AutoML and synthgen training jobs started by the user, from start to finish' }),
  predictions: z.number().meta({ description: 'Rows scored by deployments for the user (counted per minute, written every 10 s)' }),
  storage_gb_hours: z.number().meta({ description: 'GB held by the projects the user owns, sampled daily (a sample counts 24 hours)' }),
});

export const billingStatusSchema = z.object({
  enabled: z.literal(true),
  provider: z.string().meta({ description: 'The billing provider (`stripe`)' }),
  plan: z.object({ name: z.string(), display_name: z.string(), paid: z.boolean().meta({ description: 'Whether the plan has a price (STRIPE_PRICE_IDS)' }) }),
  subscription: z
    .object({
      status: z.string().meta({ description: "The provider's subscription status: active, trialing, past_due, canceled, unpaid, incomplete…" }),
      plan: z.string().nullable(),
      current_period_start: dateTimestamp.nullable(),
      current_period_end: dateTimestamp.nullable(),
      cancel_at_period_end: z.boolean(),
    })
    .nullable()
    .meta({ description: 'Null before the first subscription' }),
  customer: z.string().nullable().meta({ description: "The provider's customer id, masked (`cus_…wxyz`); null before the first checkout" }),
  usage: z.object({
    period_start: dateTimestamp,
    period_end: dateTimestamp,
    totals: usageTotalsSchema,
  }),
  paid_plans: z.array(z.string()),
  free_plan: z.string().nullable().meta({ description: 'The plan an ended subscription falls back to (BILLING_FREE_PLAN); null: the instance default plan' }),
});

export const planChangeSchema = z.object({
  action: z.enum(['unchanged', 'changed', 'subscription_updated', 'checkout']).meta({
    description:
      '`changed`: a free plan, applied now (a running subscription is canceled); `checkout`: open `url` to pay, the plan moves when the provider confirms; `subscription_updated`: the running subscription moves to the new price, the plan follows the webhook; `unchanged`: already on it',
  }),
  plan: z.string(),
  checkout_session_id: z.string().optional(),
  url: z.url().optional(),
});

export const sessionSchema = z.object({ id: z.string(), url: z.url().meta({ description: "The provider's hosted page to send the browser to" }) });

export const webhookOutcomeSchema = z.object({
  received: z.literal(true),
  event_id: z.string(),
  type: z.string(),
  duplicate: z.boolean().meta({ description: 'The event id was applied before: nothing changed this time' }),
  outcome: z.string().meta({ description: 'plan_changed, status_changed, payment_failed, unknown_customer, unknown_plan or ignored' }),
});
