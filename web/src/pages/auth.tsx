import { useEffect, useState } from 'preact/hooks';
import { ApiError, get, hasSession, post, type GetBody } from '../api';
import { Link, navigate } from '../router';
import { ErrorBox, Field, useAction, useAsync, useTitle } from '../ui';

/** Where to go after logging in: a `next` path of this application only (no open redirect). */
function nextPath(): string {
  const n = new URLSearchParams(location.search).get('next') ?? '';
  return /^\/(app|auth)\/[A-Za-z0-9/_?=&.-]*$/.test(n) || n === '/app' ? n : '/app/projects';
}

function AuthFrame({ title, children }: { title: string; children: preact.ComponentChildren }) {
  useTitle(title);
  return (
    <main class="auth" id="main">
      <p class="brand">ML lifecycle service</p>
      <h1>{title}</h1>
      {children}
    </main>
  );
}

export function LoginPage() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [unverified, setUnverified] = useState(false);
  const [resent, setResent] = useState(false);
  const { busy, error, run } = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    setUnverified(false);
    void run(async () => {
      try {
        await post('/api/auth/login', { email, password, remember });
      } catch (err) {
        if (err instanceof ApiError && err.status === 403) setUnverified(true);
        throw err;
      }
      navigate(nextPath(), true);
    });
  };
  return (
    <AuthFrame title="Log in">
      <SsoSignIn next={nextPath()} />
      <form onSubmit={submit} class="stack">
        <Field label="Email" type="email" name="email" autocomplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        <Field label="Password" type="password" name="password" autocomplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        <label class="check">
          <input type="checkbox" name="remember" checked={remember} onChange={(e) => setRemember(e.currentTarget.checked)} /> Keep me logged in for 30 days
        </label>
        <ErrorBox error={error} />
        {unverified && (
          <p>
            <button type="button" class="link" onClick={() => void post('/api/auth/resend-verification', { email }).then(() => setResent(true))}>
              Send the activation link again
            </button>
            {resent && <span role="status"> Sent, if the account is waiting for activation.</span>}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Logging in…' : 'Log in'}
        </button>
      </form>
      <p>
        <Link href="/auth/forgot-password">Forgot your password?</Link> ·{' '}
        <Link href={location.search.includes('next=') ? `/register?next=${encodeURIComponent(nextPath())}` : '/register'}>Create an account</Link>
      </p>
    </AuthFrame>
  );
}

/**
 * Single sign-on on the login page: why the last sign-in through a provider failed (the API sends the browser back
 * with `sso_error`), and a button per enabled provider. The buttons are plain links: the sign-in is a full-page
 * round trip through the provider.
 */
function SsoSignIn({ next }: { next: string }) {
  const providers = useAsync(() => get<GetBody<'/api/auth/sso/providers'>>('/api/auth/sso/providers'), []);
  const failed = new URLSearchParams(location.search).get('sso_error') ?? undefined;
  const items = providers.data?.items ?? [];
  return (
    <>
      <ErrorBox error={failed} />
      {items.length > 0 && (
        <div class="stack sso-buttons">
          {items.map((p) => (
            <a key={p.slug} class="button secondary" href={`${p.login_url}?next=${encodeURIComponent(next)}`}>
              Sign in with {p.display_name}
            </a>
          ))}
          <p class="muted">or with your email and password:</p>
        </div>
      )}
    </>
  );
}

/**
 * The token of the invitation link that led here (`next` is `/app/invitations/accept?token=…`): an invite-only
 * instance lets its invited address register with it.
 */
function invitationToken(): string | undefined {
  const next = new URL(nextPath(), location.origin);
  return next.pathname === '/app/invitations/accept' ? (next.searchParams.get('token') ?? undefined) : undefined;
}

export function RegisterPage() {
  const [form, setForm] = useState({ name: '', email: '', password: '' });
  const [done, setDone] = useState(false);
  const { busy, error, run } = useAction();
  const set = (k: keyof typeof form) => (e: { currentTarget: HTMLInputElement }) => setForm({ ...form, [k]: e.currentTarget.value });
  const submit = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      await post('/api/auth/register', { ...form, invitation_token: invitationToken() });
      setDone(true);
    });
  };
  if (done) {
    return (
      <AuthFrame title="Check your inbox">
        <p role="status">
          We sent an activation link to <strong>{form.email}</strong>. Open it, then <Link href="/login">log in</Link>.
        </p>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title="Create an account">
      <form onSubmit={submit} class="stack">
        <Field label="Name" name="name" autocomplete="name" required value={form.name} onInput={set('name')} />
        <Field label="Email" type="email" name="email" autocomplete="email" required value={form.email} onInput={set('email')} />
        <Field label="Password" type="password" name="password" autocomplete="new-password" required minLength={8} hint="At least 8 characters." value={form.password} onInput={set('password')} />
        <ErrorBox error={error} />
        <button type="submit" disabled={busy}>
          {busy ? 'Creating…' : 'Create account'}
        </button>
      </form>
      <p>
        Already registered? <Link href="/login">Log in</Link>
      </p>
    </AuthFrame>
  );
}

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const { busy, error, run } = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      await post('/api/auth/forgot-password', { email });
      setSent(true);
    });
  };
  return (
    <AuthFrame title="Reset your password">
      {sent ? (
        <p role="status">If an account uses {email}, a link to choose a new password is on its way. It works once and expires soon.</p>
      ) : (
        <form onSubmit={submit} class="stack">
          <Field label="Email" type="email" name="email" autocomplete="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
          <ErrorBox error={error} />
          <button type="submit" disabled={busy}>
            Send the reset link
          </button>
        </form>
      )}
      <p>
        <Link href="/login">Back to the login page</Link>
      </p>
    </AuthFrame>
  );
}

/** `/logout`: ends the session with a POST (a GET must not change state), then offers the login page. */
export function LogoutPage() {
  const [state, setState] = useState<'working' | 'done' | string>('working');
  useEffect(() => {
    if (!hasSession()) {
      setState('done');
      return;
    }
    post('/api/auth/logout').then(
      () => setState('done'),
      (err: unknown) => setState(err instanceof ApiError && err.status === 401 ? 'done' : String((err as Error).message)),
    );
  }, []);
  return (
    <AuthFrame title={state === 'working' ? 'Logging out' : 'Logged out'}>
      {state === 'working' ? <p aria-live="polite">Ending your session…</p> : state === 'done' ? <p role="status">Your session is ended.</p> : <ErrorBox error={state} />}
      <p>
        <Link href="/login">Log in again</Link>
      </p>
    </AuthFrame>
  );
}
