import { useState } from 'preact/hooks';
import { ApiError, get, post, type Answer, type GetBody } from '../api';
import { Link, useLocation } from '../router';
import { ErrorBox, fmtDate, fmtNum, Loading, Section, Select, Status, useAction, useAsync, useTitle } from '../ui';

type BillingStatus = GetBody<'/api/billing/status'>;
type PlanChange = Answer<'/api/billing/plan', 'post'>;
type ProviderSession = Answer<'/api/billing/portal-session', 'post'>;

/** `BILLING_OFF` of services/billing: the API's answer to every billing route while billing is not configured. */
const OFF_STATUS = 404;

/**
 * The caller's billing (linked from the profile): plan and subscription, this period's metered usage, a plan change
 * (a paid plan through the provider's checkout page, a free plan at once) and the provider's customer portal. The
 * provider sends the browser back here with `?checkout=success` or `?checkout=canceled`.
 */
export function BillingPage() {
  useTitle('Billing');
  const { query } = useLocation();
  const status = useAsync(
    () =>
      get<BillingStatus>('/api/billing/status').catch((err: unknown) => {
        if (err instanceof ApiError && err.status === OFF_STATUS) return null;
        throw err;
      }),
    [],
  );
  const checkout = query.get('checkout');
  return (
    <>
      <h1>Billing</h1>
      <p>
        <Link href="/auth/profile">Back to your profile</Link>
      </p>
      {checkout === 'success' && (
        <p class="notice" role="status">
          Payment received. Your plan changes as soon as the payment provider confirms the subscription.
        </p>
      )}
      {checkout === 'canceled' && <p role="status">Checkout canceled: nothing was charged and your plan is unchanged.</p>}
      <ErrorBox error={status.error} />
      {status.loading && !status.data ? <Loading /> : status.data === null ? <p>Billing is not enabled on this instance.</p> : status.data && <Billing status={status.data} reload={status.reload} />}
    </>
  );
}

function Billing({ status, reload }: { status: BillingStatus; reload: () => void }) {
  const s = status.subscription;
  const t = status.usage.totals;
  return (
    <>
      <div class="grid2">
        <Section title="Plan">
          <dl class="facts">
            <dt>Plan</dt>
            <dd data-testid="billing-plan">
              {status.plan.display_name} {status.plan.paid ? '(paid)' : '(free)'}
            </dd>
            <dt>Subscription</dt>
            <dd>{s ? <Status value={s.status} /> : 'none'}</dd>
            {s?.current_period_end && (
              <>
                <dt>{s.cancel_at_period_end ? 'Ends' : 'Renews'}</dt>
                <dd>{fmtDate(s.current_period_end)}</dd>
              </>
            )}
            <dt>Customer at {status.provider}</dt>
            <dd>{status.customer ?? 'not yet'}</dd>
          </dl>
          {status.customer && <PortalButton />}
        </Section>
        <Section title="Usage this period">
          <p class="muted">
            {fmtDate(status.usage.period_start)} to {fmtDate(status.usage.period_end)}
          </p>
          <dl class="facts">
            <dt>Training</dt>
            <dd data-testid="usage-training">{fmtNum(t.training_minutes, 4)} minutes</dd>
            <dt>Predictions</dt>
            <dd data-testid="usage-predictions">{fmtNum(t.predictions)}</dd>
            <dt>Storage</dt>
            <dd>{fmtNum(t.storage_gb_hours)} GB-hours</dd>
          </dl>
        </Section>
      </div>
      <ChangePlan status={status} onChanged={reload} />
    </>
  );
}

/** Sends the browser to the provider's hosted page (its checkout or its customer portal). */
function goTo(url: string): void {
  window.location.assign(url);
}

function PortalButton() {
  const { busy, error, run } = useAction();
  return (
    <>
      <ErrorBox error={error} />
      <button type="button" disabled={busy} onClick={() => void run(async () => goTo((await post<ProviderSession>('/api/billing/portal-session')).url))}>
        Manage payment and invoices
      </button>
    </>
  );
}

function ChangePlan({ status, onChanged }: { status: BillingStatus; onChanged: () => void }) {
  const choices = [...status.paid_plans, ...(status.free_plan && !status.paid_plans.includes(status.free_plan) ? [status.free_plan] : [])];
  const [plan, setPlan] = useState(choices.find((c) => c !== status.plan.name) ?? choices[0] ?? '');
  const [done, setDone] = useState<string>();
  const { busy, error, run } = useAction();
  if (!choices.length) return null;
  return (
    <Section title="Change plan">
      <form
        class="row wrap"
        onSubmit={(e) => {
          e.preventDefault();
          setDone(undefined);
          void run(async () => {
            const r = await post<PlanChange>('/api/billing/plan', { plan });
            if (r.action === 'checkout' && r.url) return goTo(r.url);
            setDone(
              r.action === 'changed'
                ? `Your plan is now ${r.plan}.`
                : r.action === 'subscription_updated'
                  ? `Your subscription moves to ${r.plan}; the plan changes once the provider confirms.`
                  : `You are already on ${r.plan}.`,
            );
            onChanged();
          });
        }}
      >
        <Select
          label="New plan"
          name="plan"
          value={plan}
          options={choices.map((c) => [c, status.paid_plans.includes(c) ? `${c} (paid)` : `${c} (free)`])}
          onChange={(e) => setPlan(e.currentTarget.value)}
        />
        <button type="submit" disabled={busy || !plan}>
          Change plan
        </button>
      </form>
      <p class="muted">A paid plan opens the payment provider's checkout page; a free plan applies at once and ends a running subscription.</p>
      <ErrorBox error={error} />
      {done && <p role="status">{done}</p>}
    </Section>
  );
}
