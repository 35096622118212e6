import { BILLING_OFF, WebhookSignatureError } from '../../services/billing';
import { callerId, type RouteDeps } from '../context';
import { HttpError } from '../errors';
import { route, RouteDef } from '../route';
import { billingStatusSchema, planBody, planChangeSchema, sessionSchema, webhookOutcomeSchema } from './billing.schema';

const off = { description: BILLING_OFF };

/**
 * Billing (`BILLING_PROVIDER=stripe`; otherwise every route answers 404 `Billing is not enabled on this instance`).
 * The account's own routes take a session login (changing what is paid for happens in the browser); the status also
 * takes an API key with the `admin` scope. The provider's webhook is public and authenticated by its signature.
 */
export function billingRoutes({ services }: RouteDeps): RouteDef[] {
  const { billing } = services;
  const tag = 'billing';
  return [
    route({
      method: 'get',
      path: '/api/billing/status',
      tag,
      auth: 'user',
      scope: 'admin',
      summary: "The caller's plan, subscription state and this period's usage totals (the subscription's period, else the calendar month)",
      responses: { 200: { description: 'Billing status', schema: billingStatusSchema }, 404: off },
      handler: async (ctx) => billing.status(callerId(ctx)),
    }),
    route({
      method: 'post',
      path: '/api/billing/plan',
      tag,
      auth: 'session',
      summary: 'Change plan: a paid plan through a checkout session (or the running subscription), a free plan at once',
      body: planBody,
      responses: {
        200: { description: 'What the change did (see `action`)', schema: planChangeSchema },
        404: { description: `Plan not found; ${BILLING_OFF}` },
        503: { description: 'The billing provider could not be reached or refused the request' },
      },
      handler: async (ctx, { body }) => billing.changePlan(callerId(ctx), body.plan),
    }),
    route({
      method: 'post',
      path: '/api/billing/checkout-session',
      tag,
      auth: 'session',
      summary: "A checkout session at the provider for a paid plan; send the browser to its url (the plan moves when the provider's webhook confirms)",
      body: planBody,
      responses: {
        201: { description: 'The session', schema: sessionSchema },
        404: { description: `Plan not found; ${BILLING_OFF}` },
        409: { description: 'The plan is free (no price): change to it with POST /api/billing/plan' },
        503: { description: 'The billing provider could not be reached or refused the request' },
      },
      handler: async (ctx, { body }) => {
        const session = await billing.checkoutSession(callerId(ctx), body.plan);
        ctx.status = 201;
        return session;
      },
    }),
    route({
      method: 'post',
      path: '/api/billing/portal-session',
      tag,
      auth: 'session',
      summary: "A session of the provider's customer portal (payment methods, invoices, cancellation); send the browser to its url",
      responses: {
        201: { description: 'The session', schema: sessionSchema },
        404: off,
        409: { description: 'No billing account yet: subscribe to a paid plan first' },
        503: { description: 'The billing provider could not be reached or refused the request' },
      },
      handler: async (ctx) => {
        const session = await billing.portalSession(callerId(ctx));
        ctx.status = 201;
        return session;
      },
    }),
    route({
      method: 'post',
      path: '/api/billing/webhooks/stripe',
      tag,
      auth: 'public',
      rawBody: true,
      summary:
        "Stripe's webhook: the `Stripe-Signature` header is verified over the raw body with STRIPE_WEBHOOK_SECRET (timestamp within 300 s); an event id already applied changes nothing. Applies checkout.session.completed, customer.subscription.updated/deleted and invoice.payment_failed",
      responses: {
        200: { description: 'Received (and applied unless `duplicate`)', schema: webhookOutcomeSchema },
        400: { description: 'Missing or invalid Stripe-Signature, or its timestamp outside the tolerance: nothing changed' },
        404: off,
      },
      handler: async (ctx) => {
        const signature = ctx.get('stripe-signature');
        const raw = (ctx.request as { rawBody?: string }).rawBody ?? '';
        try {
          return { received: true as const, ...(await billing.webhook(raw, signature)) };
        } catch (err) {
          if (err instanceof WebhookSignatureError) throw new HttpError(400, err.message);
          throw err;
        }
      },
    }),
  ];
}
