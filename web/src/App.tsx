import type { ComponentChildren } from 'preact';
import { useEffect, useErrorBoundary, useState } from 'preact/hooks';
import { ApiError, get, hasSession, type GetBody } from './api';
import { AbTestPage, AbTestsPage } from './pages/ab-tests';
import { AdminArea } from './pages/admin';
import { AlertsPage } from './pages/alerts';
import { BillingPage } from './pages/billing';
import { BuilderSessionPage } from './pages/builder';
import { ComparePage } from './pages/compare';
import { ForgotPasswordPage, LoginPage, LogoutPage, RegisterPage } from './pages/auth';
import { DatasetPage } from './pages/dataset';
import { DeploymentPage } from './pages/deployment';
import { AcceptInvitationPage } from './pages/invitation';
import { ExperimentPage, NewExperimentPage } from './pages/experiment';
import { JobsPage } from './pages/jobs';
import { ModelPage } from './pages/model';
import { PolicyPage, PrivacySessionPage } from './pages/privacy';
import { ProfilePage } from './pages/profile';
import { ProjectPage, ProjectsPage } from './pages/projects';
import { RegisteredModelPage, RegistryPage } from './pages/registry';
import { RolloutPage } from './pages/rollouts';
import { ReportPage } from './pages/report';
import { RetrainingPage } from './pages/retraining';
import { StudioSessionPage } from './pages/studio';
import { SynthJobPage, SynthModelPage } from './pages/synthgen';
import { Link, match, navigate, useLocation } from './router';
import { SessionContext, type User } from './session';
import { ErrorBox, Loading, useTitle } from './ui';

/** Pages of the logged-in application, by path pattern. */
const APP_ROUTES: [string, (p: Record<string, string>) => preact.JSX.Element][] = [
  ['/app/projects', () => <ProjectsPage />],
  ['/app/projects/:id', (p) => <ProjectPage id={p.id} />],
  ['/app/projects/:id/alerts', (p) => <AlertsPage projectId={p.id} />],
  ['/app/projects/:id/compare', (p) => <ComparePage projectId={p.id} />],
  ['/app/projects/:id/registry', (p) => <RegistryPage projectId={p.id} />],
  ['/app/registry/:id', (p) => <RegisteredModelPage id={p.id} />],
  ['/app/projects/:id/ab-tests', (p) => <AbTestsPage projectId={p.id} />],
  ['/app/ab-tests/:id', (p) => <AbTestPage id={p.id} />],
  ['/app/projects/:id/retraining', (p) => <RetrainingPage projectId={p.id} />],
  ['/app/projects/:id/builder/:sessionId', (p) => <BuilderSessionPage projectId={p.id} sessionId={p.sessionId} />],
  ['/app/datasets/:id', (p) => <DatasetPage id={p.id} />],
  ['/app/experiments/new', () => <NewExperimentPage />],
  ['/app/experiments/:id', (p) => <ExperimentPage id={p.id} />],
  ['/app/models/:id', (p) => <ModelPage id={p.id} />],
  ['/app/deployments/:id', (p) => <DeploymentPage id={p.id} />],
  ['/app/rollouts/:id', (p) => <RolloutPage id={p.id} />],
  ['/app/reports/:id', (p) => <ReportPage id={p.id} />],
  ['/app/privacy/policies/:id', (p) => <PolicyPage id={p.id} />],
  ['/app/privacy/sessions/:id', (p) => <PrivacySessionPage id={p.id} />],
  ['/app/synthgen/models/:id', (p) => <SynthModelPage id={p.id} />],
  ['/app/synthgen/jobs/:id', (p) => <SynthJobPage id={p.id} />],
  ['/app/studio/:id', (p) => <StudioSessionPage id={p.id} />],
  ['/app/jobs', () => <JobsPage />],
  ['/app/invitations/accept', () => <AcceptInvitationPage />],
  ['/auth/profile', () => <ProfilePage />],
  ['/app/billing', () => <BillingPage />],
  ['/app/admin', () => <AdminArea />],
  ['/app/admin/:section', (p) => <AdminArea section={p.section} />],
];

export function App() {
  const { path } = useLocation();
  if (path === '/login' || path === '/auth/login') return <LoginPage />;
  if (path === '/register' || path === '/auth/register') return <RegisterPage />;
  if (path === '/auth/forgot-password') return <ForgotPasswordPage />;
  if (path === '/logout') return <LogoutPage />;
  return <Shell path={path} />;
}

/** The logged-in frame: loads the user (or sends to the login page), navigation, then the page. */
function Shell({ path }: { path: string }) {
  const [user, setUser] = useState<User | null>(null);
  const [error, setError] = useState<string>();
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const login = () => navigate(`/login?next=${encodeURIComponent(location.pathname + location.search)}`, true);
    // Without the readable session cookie there is no session to ask about: no 401 in the console.
    if (!hasSession()) return login();
    get<GetBody<'/api/auth/me'>>('/api/auth/me').then(
      (r) => setUser(r.user),
      (err: unknown) => (err instanceof ApiError && err.status === 401 ? login() : setError((err as Error).message)),
    );
  }, [tick]);
  useEffect(() => {
    if (path === '/' || path === '/app' || path === '/app/') navigate('/app/projects', true);
  }, [path]);
  if (error) return <ErrorBox error={error} />;
  if (!user) return <Loading />;
  let page: preact.JSX.Element = <NotFound />;
  for (const [pattern, render] of APP_ROUTES) {
    const params = match(pattern, path);
    if (params) {
      page = render(params);
      break;
    }
  }
  const nav: [string, string][] = [
    ['/app/projects', 'Projects'],
    ['/app/jobs', 'Jobs'],
    ['/auth/profile', 'Profile'],
    // The admin area is shown to superusers only (its routes refuse everyone else).
    ...(user.is_superuser ? ([['/app/admin', 'Admin']] as [string, string][]) : []),
  ];
  return (
    <SessionContext.Provider value={{ user, refresh: () => setTick((t) => t + 1) }}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <Link href="/app/projects" class="brand">
          ML lifecycle
        </Link>
        <nav aria-label="Main">
          {nav.map(([href, label]) => (
            <Link key={href} href={href} aria-current={path.startsWith(href) ? 'page' : undefined}>
              {label}
            </Link>
          ))}
          <a href="/logout">Log out</a>
        </nav>
        <span class="who" title={user.email}>
          {user.name}
        </span>
      </header>
      <main id="main" class="content" key={path}>
        <PageBoundary>{page}</PageBoundary>
      </main>
    </SessionContext.Provider>
  );
}

/** A page that fails to render says so (and the console has the error) instead of leaving a blank frame. */
function PageBoundary({ children }: { children: ComponentChildren }) {
  const [error] = useErrorBoundary((err: unknown) => console.error(err));
  if (error) return <ErrorBox error={`This page failed to show: ${(error as Error).message ?? String(error)}`} />;
  return <>{children}</>;
}

function NotFound() {
  useTitle('Not found');
  return (
    <>
      <h1>Not found</h1>
      <p>
        No page here. <Link href="/app/projects">Go to the projects</Link>.
      </p>
    </>
  );
}
