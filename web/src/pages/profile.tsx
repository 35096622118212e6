import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { get, post, put, qs, type Answer, type GetBody, type ListItem, type Page } from '../api';
import { Link, navigate } from '../router';
import { useUser } from '../session';
import { ErrorBox, Field, fmtBytes, fmtDate, fmtNum, Loading, Section, Table, useAction, useAsync, usePaged, useTitle } from '../ui';
import { ConfirmButton } from '../confirm';

type SessionRow = ListItem<'/api/auth/sessions'>;
type ActivityRow = ListItem<'/api/auth/my-activity'>;
/** `GET /api/auth/tenant-info`: the plan section shows its rate limits (requests per window, by bucket). */
type TenantInfo = GetBody<'/api/auth/tenant-info'>;
type KeyRow = GetBody<'/api/auth/api-keys'>[number];

/** Scopes offered as checkboxes (the API accepts these and their `verb:resource` forms; README, Authentication). */
const RESOURCES = ['projects', 'datasets', 'experiments', 'models', 'deployments', 'reports', 'privacy', 'synthgen', 'studio'];
const SCOPE_CHOICES = ['read', 'write', 'predict', ...RESOURCES.flatMap((r) => [`read:${r}`, `write:${r}`]), 'predict:models', 'predict:deployments'];

export function ProfilePage() {
  useTitle('Profile');
  const { user } = useUser();
  return (
    <>
      <h1>Profile</h1>
      <p class="muted">
        {user.email}
        {user.email_verified_at ? ` · verified ${fmtDate(user.email_verified_at)}` : ''}
      </p>
      <div class="grid2">
        <NameForm />
        <PasswordForm />
      </div>
      <PlanSection />
      <p>
        <Link href="/app/billing">Billing: subscription, metered usage and plan changes</Link>
      </p>
      <Sessions />
      <Activity />
      <ApiKeys />
      <Section title="Your data">
        <p>
          <a href="/api/auth/export-my-data" download>
            Export my data (JSON)
          </a>
        </p>
        <DeleteAccount />
      </Section>
    </>
  );
}

function NameForm() {
  const { user, refresh } = useUser();
  const [name, setName] = useState(user.name);
  const [saved, setSaved] = useState(false);
  const { busy, error, run } = useAction();
  return (
    <Section title="Name">
      <form
        class="stack"
        onSubmit={(e) => {
          e.preventDefault();
          setSaved(false);
          void run(async () => {
            await put('/api/auth/profile', { name });
            setSaved(true);
            refresh();
          });
        }}
      >
        <Field label="Display name" name="name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <ErrorBox error={error} />
        {saved && <p role="status">Saved.</p>}
        <button type="submit" disabled={busy}>
          Save name
        </button>
      </form>
    </Section>
  );
}

function PasswordForm() {
  const [form, setForm] = useState({ current_password: '', new_password: '' });
  const [done, setDone] = useState(false);
  const { busy, error, run } = useAction();
  return (
    <Section title="Password">
      <form
        class="stack"
        onSubmit={(e) => {
          e.preventDefault();
          setDone(false);
          void run(async () => {
            await put('/api/auth/change-password', form);
            setForm({ current_password: '', new_password: '' });
            setDone(true);
          });
        }}
      >
        <Field
          label="Current password"
          type="password"
          autocomplete="current-password"
          required
          value={form.current_password}
          onInput={(e) => setForm({ ...form, current_password: e.currentTarget.value })}
        />
        <Field
          label="New password"
          type="password"
          autocomplete="new-password"
          minLength={8}
          required
          value={form.new_password}
          onInput={(e) => setForm({ ...form, new_password: e.currentTarget.value })}
        />
        <ErrorBox error={error} />
        {done && <p role="status">Password changed. Your other sessions were ended.</p>}
        <button type="submit" disabled={busy}>
          Change password
        </button>
      </form>
    </Section>
  );
}

function Sessions() {
  const list = usePaged(({ limit, offset }) => get<Page<SessionRow>>(`/api/auth/sessions${qs({ limit, offset })}`), []);
  const { error, run } = useAction();
  return (
    <Section
      title="Sessions"
      actions={
        <button type="button" class="secondary" onClick={() => void run(() => post('/api/auth/logout-all').then(() => navigate('/login', true)))}>
          Log out everywhere
        </button>
      }
    >
      <ErrorBox error={list.error ?? error} />
      {list.data ? (
        <Table
          caption="Live sessions"
          rows={list.data.items}
          columns={[
            { head: 'Started', cell: (s) => fmtDate(s.created_at) },
            { head: 'Last seen', cell: (s) => fmtDate(s.last_seen_at) },
            { head: 'Browser', cell: (s) => <span class="clip">{s.user_agent ?? '–'}</span> },
            { head: 'Address', cell: (s) => s.ip ?? '–' },
            { head: 'Expires', cell: (s) => fmtDate(s.expires_at) },
            {
              head: 'Action',
              cell: (s) =>
                s.current ? (
                  <span class="badge">this session</span>
                ) : (
                  <ConfirmButton
                    class="secondary small"
                    aria-label={`Revoke the session started ${fmtDate(s.created_at)}`}
                    confirm={{ question: `Revoke the session started ${fmtDate(s.created_at)}?`, consequence: 'That browser is logged out.', confirmLabel: 'Revoke' }}
                    onConfirm={() => void run(() => post(`/api/auth/sessions/${s.id}/revoke`).then(list.reload))}
                  >
                    Revoke
                  </ConfirmButton>
                ),
            },
          ]}
        />
      ) : (
        !list.error && <Loading />
      )}
      {list.pager}
    </Section>
  );
}

/** The activity log's event types in words. */
const EVENT_NAMES: Record<string, string> = {
  registered: 'Account created',
  email_verified: 'Email address verified',
  login: 'Logged in',
  login_failed: 'Failed login',
  logout: 'Logged out',
  logout_all: 'Logged out everywhere',
  session_revoked: 'Session revoked',
  api_key_created: 'API key created',
  api_key_revoked: 'API key revoked',
  password_changed: 'Password changed',
  password_reset_requested: 'Password reset requested',
  password_reset: 'Password reset',
  profile_updated: 'Profile updated',
};

/** A short name for a user agent ("Chrome 126 on Linux"); the whole string stays in the cell's title. */
function browserName(ua: string | null): string {
  if (!ua) return '–';
  const os = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad/.test(ua)
      ? 'iOS'
      : /Windows/.test(ua)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'macOS'
          : /CrOS/.test(ua)
            ? 'ChromeOS'
            : /Linux/.test(ua)
              ? 'Linux'
              : '';
  const known: [RegExp, string][] = [
    [/Edg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
    [/OPR\/(\d+)/, 'Opera'],
    [/Firefox\/(\d+)/, 'Firefox'],
    [/HeadlessChrome\/(\d+)/, 'Headless Chrome'],
    [/Chromium\/(\d+)/, 'Chromium'],
    [/Chrome\/(\d+)/, 'Chrome'],
    [/Version\/(\d+)[.\d]* (?:Mobile\/\S+ )?Safari/, 'Safari'],
    [/^curl\/([\d.]+)/, 'curl'],
    [/python-requests\/([\d.]+)/, 'Python requests'],
  ];
  for (const [re, name] of known) {
    const m = re.exec(ua);
    if (m) return `${name} ${m[1]}${os ? ` on ${os}` : ''}`;
  }
  if (ua === 'node' || /^undici/.test(ua)) return 'Node.js';
  return ua.length > 40 ? `${ua.slice(0, 39)}…` : ua;
}

/** What an event's details add, in words (never a secret: the API keeps none in them). */
function eventDetails(e: ActivityRow): string {
  const d = e.details ?? {};
  const n = (v: unknown, what: string) => (typeof v === 'number' && v > 0 ? `${v} ${what}${v === 1 ? '' : 's'} ended` : '');
  switch (e.type) {
    case 'login':
      return d.remember ? 'kept logged in for 30 days' : '';
    case 'login_failed':
      return d.reason === 'wrong_password' ? 'wrong password' : d.reason === 'email_not_verified' ? 'email not verified yet' : '';
    case 'api_key_created':
    case 'api_key_revoked':
      return typeof d.name === 'string' ? `${d.name}${typeof d.prefix === 'string' ? ` (${d.prefix}…)` : ''}` : '';
    case 'logout_all':
    case 'password_changed':
      return n(d.sessions_revoked, 'session');
    case 'password_reset':
      return [n(d.sessions_revoked, 'session'), typeof d.api_keys_revoked === 'number' && d.api_keys_revoked > 0 ? `${d.api_keys_revoked} API key${d.api_keys_revoked === 1 ? '' : 's'} revoked` : '']
        .filter(Boolean)
        .join(', ');
    case 'profile_updated': {
      const name = (d.changes as { name?: { from?: string; to?: string } } | undefined)?.name;
      return name ? `name ${name.from ?? ''} → ${name.to ?? ''}` : '';
    }
    default:
      return '';
  }
}

/** The account's own security events (`GET /api/auth/my-activity`), newest first, a page at a time. */
function Activity() {
  const list = usePaged(({ limit, offset }) => get<Page<ActivityRow>>(`/api/auth/my-activity${qs({ limit, offset })}`), [], 10);
  return (
    <Section title="Recent activity">
      <ErrorBox error={list.error} />
      {list.data ? (
        <Table
          caption="Account events, newest first"
          rows={list.data.items}
          empty="No activity recorded."
          columns={[
            { head: 'Event', cell: (e) => EVENT_NAMES[e.type] ?? e.type.replace(/_/g, ' ') },
            { head: 'Time', cell: (e) => <time dateTime={e.created_at}>{fmtDate(e.created_at)}</time> },
            { head: 'Address', cell: (e) => e.ip ?? '–' },
            {
              head: 'Browser',
              cell: (e) => (
                <span class="clip" title={e.user_agent ?? undefined}>
                  {browserName(e.user_agent)}
                </span>
              ),
            },
            { head: 'Details', cell: (e) => eventDetails(e) || '–' },
          ]}
        />
      ) : (
        !list.error && <Loading />
      )}
      {list.pager}
    </Section>
  );
}

/** "3 of 1,000", or "3 (no limit)" for a quota of null. */
function ofQuota(used: number, max: number | null): string {
  return max === null ? `${fmtNum(used)} (no limit)` : `${fmtNum(used)} of ${fmtNum(max)}`;
}

/** Words for the rate-limit buckets of `tenant-info`. */
const RATE_BUCKETS: Record<string, string> = {
  general: 'All requests',
  auth: 'Logins and other sign-in requests',
  predict: 'Predictions',
  train: 'Training runs',
  report: 'Reports',
  ai: 'AI assistance',
  members: 'Member changes and invitations',
};

/** The account's plan, its quotas and what the account uses of them, and the rate limits. */
function PlanSection() {
  const plan = useAsync(() => get<GetBody<'/api/auth/plan'>>('/api/auth/plan'), []);
  const tenant = useAsync(() => get<TenantInfo>('/api/auth/tenant-info'), []);
  const p = plan.data?.plan;
  const rates = tenant.data?.limits.rate_limits;
  return (
    <Section title="Plan and usage">
      <ErrorBox error={plan.error ?? tenant.error} />
      {p ? (
        <>
          <p>
            Plan: <strong data-testid="plan-name">{p.display_name}</strong>
            {p.source === 'team' ? " (your teams' plan)" : p.source === 'default' ? ' (the default plan)' : ''}
          </p>
          <div class="grid2">
            <div>
              <h3>Usage</h3>
              <dl class="facts">
                <dt>Projects you own</dt>
                <dd>{ofQuota(p.usage.projects_owned, p.quotas.max_projects)}</dd>
                <dt>Open jobs (queued or running)</dt>
                <dd>{ofQuota(p.usage.open_jobs, p.quotas.max_concurrent_jobs)}</dd>
                <dt>Predictions this minute</dt>
                <dd>{ofQuota(p.usage.predictions_this_minute, p.quotas.predictions_per_minute)}</dd>
                <dt>Projects you belong to</dt>
                <dd>{fmtNum(p.usage.projects_member)}</dd>
                <dt>Datasets in your projects</dt>
                <dd>{fmtNum(p.usage.datasets)}</dd>
                <dt>Experiments in your projects</dt>
                <dd>{fmtNum(p.usage.experiments)}</dd>
                <dt>Models in your projects</dt>
                <dd>{fmtNum(p.usage.models)}</dd>
                <dt>Storage of your projects</dt>
                <dd>{p.quotas.max_storage_bytes === null ? fmtBytes(p.usage.storage_bytes) : `${fmtBytes(p.usage.storage_bytes)} of ${fmtBytes(p.quotas.max_storage_bytes)}`}</dd>
              </dl>
            </div>
            <div>
              <h3>Limits</h3>
              <dl class="facts">
                <dt>Models per experiment</dt>
                <dd>at most {fmtNum(p.quotas.max_models)}</dd>
                <dt>Training time per experiment</dt>
                <dd>at most {fmtNum(p.quotas.max_runtime_secs / 3600)} h</dd>
                <dt>Dataset upload</dt>
                <dd>at most {fmtBytes(p.quotas.max_upload_bytes)}</dd>
                <dt>Dataset columns</dt>
                <dd>at most {fmtNum(p.quotas.max_dataset_columns)}</dd>
                <dt>Jobs running at once</dt>
                <dd>{p.quotas.max_running_jobs === null ? 'no limit' : `${fmtNum(p.quotas.max_running_jobs)} (profiling, drift, privacy and synthetic data; the rest wait their turn)`}</dd>
                <dt>Open jobs per project</dt>
                <dd>{p.quotas.max_open_jobs_per_project === null ? 'no limit' : `at most ${fmtNum(p.quotas.max_open_jobs_per_project)}`}</dd>
                <dt>Storage per project</dt>
                <dd>{p.quotas.max_storage_bytes_per_project === null ? 'no limit' : `at most ${fmtBytes(p.quotas.max_storage_bytes_per_project)}`}</dd>
                <dt>Synthetic rows per generation</dt>
                <dd>at most {fmtNum(p.quotas.max_synthgen_rows)}</dd>
              </dl>
              {rates && (
                <>
                  <h3>Rate limits</h3>
                  <dl class="facts">
                    {Object.entries(rates)
                      .filter(([k]) => k !== 'window_secs')
                      .map(([k, v]) => (
                        <Fragment key={k}>
                          <dt>{RATE_BUCKETS[k] ?? k.replace(/_/g, ' ')}</dt>
                          <dd>
                            {fmtNum(v)} per {rates.window_secs === 60 ? 'minute' : `${fmtNum(rates.window_secs)} seconds`}
                          </dd>
                        </Fragment>
                      ))}
                  </dl>
                </>
              )}
            </div>
          </div>
        </>
      ) : (
        !plan.error && <Loading />
      )}
    </Section>
  );
}

function ApiKeys() {
  const list = useAsync(() => get<KeyRow[]>('/api/auth/api-keys'), []);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>(['read']);
  const [created, setCreated] = useState<Answer<'/api/auth/api-keys', 'post'> | null>(null);
  const [copied, setCopied] = useState(false);
  const { busy, error, run } = useAction();
  const toggle = (s: string) => setScopes(scopes.includes(s) ? scopes.filter((x) => x !== s) : [...scopes, s]);
  return (
    <Section title="API keys">
      <ErrorBox error={list.error} />
      {created && (
        <div class="notice" role="status">
          <p>
            <strong>Copy this key now:</strong> it is shown once.
          </p>
          <code class="secret" data-testid="new-api-key">
            {created.api_key}
          </code>
          <p>
            <button
              type="button"
              class="secondary small"
              onClick={() =>
                void navigator.clipboard?.writeText(created.api_key).then(
                  () => setCopied(true),
                  () => setCopied(false),
                )
              }
            >
              Copy
            </button>{' '}
            {copied && <span>Copied.</span>}{' '}
            <button type="button" class="link" onClick={() => setCreated(null)}>
              I have stored it
            </button>
          </p>
        </div>
      )}
      <form
        class="stack"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            setCreated(await post<Answer<'/api/auth/api-keys', 'post'>>('/api/auth/api-keys', { name, scopes }));
            setCopied(false);
            setName('');
            list.reload();
          });
        }}
      >
        <Field label="Key name" name="key-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <fieldset class="scopes">
          <legend>Scopes</legend>
          {SCOPE_CHOICES.map((s) => (
            <label key={s} class="check">
              <input type="checkbox" checked={scopes.includes(s)} onChange={() => toggle(s)} /> {s}
            </label>
          ))}
        </fieldset>
        <ErrorBox error={error} />
        <button type="submit" disabled={busy}>
          Create key
        </button>
      </form>
      {list.data && (
        <Table
          caption="Your API keys"
          rows={list.data}
          empty="No keys."
          columns={[
            { head: 'Name', cell: (k) => k.name },
            { head: 'Prefix', cell: (k) => <code>{k.prefix}</code> },
            { head: 'Scopes', cell: (k) => k.scopes.join(', ') },
            { head: 'Last used', cell: (k) => fmtDate(k.last_used_at) },
            {
              head: 'Action',
              cell: (k) => (
                <ConfirmButton
                  class="secondary small"
                  aria-label={`Revoke key ${k.name}`}
                  confirm={{ question: `Revoke API key '${k.name}'?`, consequence: 'Every request made with it is refused from now on; this cannot be undone.', confirmLabel: 'Revoke' }}
                  onConfirm={() => void run(() => post(`/api/auth/api-keys/${k.id}/revoke`).then(list.reload))}
                >
                  Revoke
                </ConfirmButton>
              ),
            },
          ]}
        />
      )}
    </Section>
  );
}

function DeleteAccount() {
  const [password, setPassword] = useState('');
  const [open, setOpen] = useState(false);
  const { busy, error, run } = useAction();
  if (!open) {
    return (
      <button type="button" class="danger" onClick={() => setOpen(true)}>
        Delete my account…
      </button>
    );
  }
  return (
    <form
      class="stack danger-zone"
      onSubmit={(e) => {
        e.preventDefault();
        void run(async () => {
          await post('/api/auth/delete-account', { password });
          navigate('/login', true);
        });
      }}
    >
      <p>Projects that only you own are deleted with the account. This cannot be undone.</p>
      <Field label="Your password" type="password" autocomplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
      <ErrorBox error={error} />
      <div class="row">
        <button type="submit" class="danger" disabled={busy}>
          Delete the account
        </button>
        <button type="button" class="secondary" onClick={() => setOpen(false)}>
          Keep it
        </button>
      </div>
    </form>
  );
}
