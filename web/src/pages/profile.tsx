import { useState } from 'preact/hooks';
import { get, post, put, qs, type Page } from '../api';
import { navigate } from '../router';
import { useUser } from '../session';
import { ErrorBox, Field, fmtDate, Loading, Section, Table, useAction, useAsync, usePaged, useTitle } from '../ui';

interface SessionRow {
  id: string;
  created_at: string;
  expires_at: string;
  last_seen_at: string | null;
  user_agent: string | null;
  ip: string | null;
  remember: boolean;
  current: boolean;
}
interface KeyRow {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  last_used_at: string | null;
  created_at: string;
}

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
      <Sessions />
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
                  <button
                    type="button"
                    class="secondary small"
                    aria-label={`Revoke the session started ${fmtDate(s.created_at)}`}
                    onClick={() => void run(() => post(`/api/auth/sessions/${s.id}/revoke`).then(list.reload))}
                  >
                    Revoke
                  </button>
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

function ApiKeys() {
  const list = useAsync(() => get<KeyRow[]>('/api/auth/api-keys'), []);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>(['read']);
  const [created, setCreated] = useState<{ api_key: string; prefix: string } | null>(null);
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
            setCreated(await post<{ api_key: string; prefix: string }>('/api/auth/api-keys', { name, scopes }));
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
                <button type="button" class="secondary small" aria-label={`Revoke key ${k.name}`} onClick={() => void run(() => post(`/api/auth/api-keys/${k.id}/revoke`).then(list.reload))}>
                  Revoke
                </button>
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
