import { useState } from 'preact/hooks';
import { del, get, post, put, qs, type GetBody, type ListItem, type Page } from '../../api';
import { ConfirmButton } from '../../confirm';
import { ErrorBox, Field, fmtBytes, Loading, Section, Select, Table, useAction, useAsync, useTitle } from '../../ui';

type PlansAnswer = GetBody<'/api/admin/plans'>;
type Plan = PlansAnswer['items'][number];
type Limits = Record<string, number | null>;

/** The limits a plan may set, in the order the form shows them, with how each is read and shown. */
const LIMITS: { key: string; label: string; bytes?: boolean; nullable: boolean }[] = [
  { key: 'max_projects', label: 'Projects owned', nullable: true },
  { key: 'max_models', label: 'Models per experiment (ensembles on top)', nullable: true },
  { key: 'max_runtime_secs', label: 'Experiment runtime (seconds)', nullable: true },
  { key: 'max_concurrent_jobs', label: 'Concurrent jobs', nullable: true },
  { key: 'max_open_jobs_per_project', label: 'Concurrent jobs per project', nullable: true },
  { key: 'max_running_jobs', label: 'Jobs holding a CPU slot', nullable: true },
  { key: 'max_upload_bytes', label: 'Upload size (bytes)', bytes: true, nullable: false },
  { key: 'predictions_per_minute', label: 'Predictions per minute', nullable: true },
  { key: 'max_storage_bytes', label: 'Storage (bytes)', bytes: true, nullable: true },
  { key: 'max_storage_bytes_per_project', label: 'Storage per project (bytes)', bytes: true, nullable: true },
];

/** A limit as a person reads it. */
function limitText(key: string, v: number | null | undefined): string {
  if (v === undefined) return 'configured';
  if (v === null) return 'no limit';
  return LIMITS.find((l) => l.key === key)?.bytes ? fmtBytes(v) : v.toLocaleString();
}

/** The form's text of a stored limit: empty (configured), `none` (no limit) or the number. */
const limitInput = (v: number | null | undefined) => (v === undefined ? '' : v === null ? 'none' : String(v));

/** The form's texts as a plan's limits: empty is left out, `none` is null; anything else must be a whole number. */
function parseLimits(texts: Record<string, string>): Limits {
  const out: Limits = {};
  for (const { key, label } of LIMITS) {
    const t = (texts[key] ?? '').trim();
    if (!t) continue;
    if (/^(none|unlimited)$/i.test(t)) out[key] = null;
    else if (/^\d+$/.test(t)) out[key] = Number(t);
    else throw new Error(`${label}: a whole number, "none" for no limit, or empty for the configured value`);
  }
  return out;
}

/**
 * The admin area's plans (issue 34): every plan with its limits and holders, a form to define or change one, and the
 * assignment of a plan to a user (by email) or a team. A user's plan is their own, else their teams' most generous,
 * else the default plan of the settings, else the built-in one.
 */
export function AdminPlans() {
  useTitle('Admin: plans');
  const plans = useAsync(() => get<PlansAnswer>('/api/admin/plans'), []);
  const [editing, setEditing] = useState<Plan | null>(null);
  if (plans.error) return <ErrorBox error={plans.error} />;
  if (!plans.data) return <Loading />;
  const data = plans.data;
  return (
    <>
      <h1>Plans</h1>
      <PlanList answer={data} onEdit={setEditing} onChanged={plans.reload} />
      <PlanForm key={editing?.id ?? 'new'} plan={editing} builtIn={data.built_in.limits} onDone={() => (setEditing(null), plans.reload())} />
      <AssignPlan plans={data.items} onAssigned={plans.reload} />
    </>
  );
}

function PlanList({ answer, onEdit, onChanged }: { answer: PlansAnswer; onEdit: (p: Plan) => void; onChanged: () => void }) {
  const { error, run } = useAction();
  return (
    <Section title="All plans">
      <p class="muted">
        Without a plan of their own or their teams', users get {answer.default_plan ? `the default plan ${answer.default_plan}` : `the built-in plan ${answer.built_in.name}`} (Settings).
      </p>
      <ErrorBox error={error} />
      <Table<Plan>
        caption="Plans"
        rows={answer.items}
        empty="No plans yet: everyone has the built-in plan."
        columns={[
          { head: 'Name', cell: (p) => <code>{p.name}</code> },
          { head: 'Display name', cell: (p) => p.display_name + (p.is_default ? ' (default)' : '') },
          {
            head: 'Limits',
            cell: (p) => (
              <ul class="plain">
                {Object.entries(p.limits as Limits).map(([k, v]) => (
                  <li key={k}>
                    {LIMITS.find((l) => l.key === k)?.label ?? k}: {limitText(k, v)}
                  </li>
                ))}
              </ul>
            ),
          },
          { head: 'Users', cell: (p) => p.users_count, num: true },
          { head: 'Teams', cell: (p) => p.teams_count, num: true },
          {
            head: 'Actions',
            cell: (p) => (
              <div class="row">
                <button type="button" class="secondary" aria-label={`Edit plan ${p.name}`} onClick={() => onEdit(p)}>
                  Edit
                </button>
                <ConfirmButton
                  aria-label={`Delete plan ${p.name}`}
                  confirm={{ question: `Delete plan ${p.name}?`, consequence: 'Only a plan no user or team holds can be deleted.', confirmLabel: 'Delete' }}
                  onConfirm={() => run(async () => (await del(`/api/admin/plans/${p.id}`), onChanged()))}
                >
                  Delete
                </ConfirmButton>
              </div>
            ),
          },
        ]}
      />
    </Section>
  );
}

function PlanForm({ plan, builtIn, onDone }: { plan: Plan | null; builtIn: Limits; onDone: () => void }) {
  const [name, setName] = useState(plan?.name ?? '');
  const [displayName, setDisplayName] = useState(plan?.display_name ?? '');
  const [texts, setTexts] = useState<Record<string, string>>(() => Object.fromEntries(LIMITS.map(({ key }) => [key, limitInput((plan?.limits as Limits | undefined)?.[key])])));
  const { busy, error, run } = useAction();
  const save = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const limits = parseLimits(texts);
      if (plan) await put(`/api/admin/plans/${plan.id}`, { display_name: displayName, limits });
      else await post('/api/admin/plans', { name, display_name: displayName, limits });
      onDone();
    });
  };
  return (
    <Section title={plan ? `Edit plan ${plan.name}` : 'New plan'}>
      <form class="stack" onSubmit={save}>
        <div class="row wrap">
          {!plan && <Field label="Plan name" hint="Lower-case letters, digits, _ and -" required maxLength={64} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
          <Field label="Display name" required maxLength={200} value={displayName} onInput={(e) => setDisplayName(e.currentTarget.value)} />
        </div>
        <p class="muted">Each limit: a whole number, "none" for no limit, or empty for the configured value (shown as the hint).</p>
        <div class="row wrap">
          {LIMITS.map(({ key, label, nullable }) => (
            <Field
              key={key}
              label={label}
              hint={`Configured: ${limitText(key, builtIn[key])}${nullable ? '' : ' (a number is required)'}`}
              inputMode="numeric"
              value={texts[key]}
              onInput={(e) => setTexts({ ...texts, [key]: e.currentTarget.value })}
            />
          ))}
        </div>
        <ErrorBox error={error} />
        <div class="row">
          <button type="submit" disabled={busy}>
            {plan ? 'Save plan' : 'Create plan'}
          </button>
          {plan && (
            <button type="button" class="secondary" onClick={onDone}>
              Cancel
            </button>
          )}
        </div>
      </form>
    </Section>
  );
}

type AdminUser = ListItem<'/api/admin/users'>;
type Team = ListItem<'/api/admin/teams'>;

/** Gives a plan (or none) to a user found by email, or to a team. */
function AssignPlan({ plans, onAssigned }: { plans: Plan[]; onAssigned: () => void }) {
  const teams = useAsync(() => get<Page<Team>>(`/api/admin/teams${qs({ limit: 200 })}`), []);
  const [email, setEmail] = useState('');
  const [teamId, setTeamId] = useState('');
  const [planId, setPlanId] = useState('');
  const [done, setDone] = useState('');
  const { busy, error, run } = useAction();
  const options: [string, string][] = [['', 'None of their own'], ...plans.map((p): [string, string] => [p.id, `${p.display_name} (${p.name})`])];
  const assign = (target: 'user' | 'team') =>
    run(async () => {
      setDone('');
      const plan_id = planId || null;
      if (target === 'user') {
        const found = await get<Page<AdminUser>>(`/api/admin/users${qs({ q: email.trim(), limit: 10 })}`);
        const user = found.items.find((u) => u.email.toLowerCase() === email.trim().toLowerCase());
        if (!user) throw new Error(`No user with the email ${email.trim()}`);
        const r = await put<{ plan: { display_name: string } }>(`/api/admin/users/${user.id}/plan`, { plan_id });
        setDone(`${user.email} now works under ${r.plan.display_name}.`);
      } else {
        await put(`/api/admin/teams/${teamId}/plan`, { plan_id });
        setDone(`The team's plan is set.`);
      }
      onAssigned();
    });
  return (
    <Section title="Assign a plan">
      <div class="stack">
        <Select label="Plan to assign" value={planId} options={options} onChange={(e) => setPlanId(e.currentTarget.value)} />
        <form class="row wrap" onSubmit={(e) => (e.preventDefault(), void assign('user'))}>
          <Field label="User email" type="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
          <button type="submit" disabled={busy}>
            Assign to user
          </button>
        </form>
        <form class="row wrap" onSubmit={(e) => (e.preventDefault(), void assign('team'))}>
          <Select
            label="Team"
            required
            value={teamId}
            options={[['', 'Choose a team'], ...(teams.data?.items ?? []).map((t): [string, string] => [t.id, t.name])]}
            onChange={(e) => setTeamId(e.currentTarget.value)}
          />
          <button type="submit" disabled={busy || !teamId}>
            Assign to team
          </button>
        </form>
        <ErrorBox error={error ?? teams.error} />
        {done && (
          <p role="status" class="muted">
            {done}
          </p>
        )}
      </div>
    </Section>
  );
}
