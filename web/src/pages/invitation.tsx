import { useState } from 'preact/hooks';
import { post, type Answer } from '../api';
import { Link, navigate, useLocation } from '../router';
import { useUser } from '../session';
import { ErrorBox, Section, useAction, useTitle } from '../ui';

/**
 * The page an invitation mail links to (`/app/invitations/accept?token=…`): the logged-in user accepts with a
 * click (never on load, so a mail scanner opening the link joins nobody) and lands in the project.
 */
export function AcceptInvitationPage() {
  useTitle('Accept invitation');
  const { user } = useUser();
  const { query } = useLocation();
  const token = query.get('token') ?? '';
  const [done, setDone] = useState(false);
  const { busy, error, run } = useAction();
  return (
    <>
      <h1>Project invitation</h1>
      <Section title="Join the project">
        {token ? (
          <>
            <p>You are logged in as {user.email}. Accepting adds this account to the project with the role the owner chose.</p>
            <ErrorBox error={error} />
            <button
              type="button"
              disabled={busy || done}
              onClick={() =>
                void run(async () => {
                  const r = await post<Answer<'/api/auth/invite/accept', 'post'>>('/api/auth/invite/accept', { token });
                  setDone(true);
                  navigate(`/app/projects/${r.project_id}`, true);
                })
              }
            >
              Accept invitation
            </button>
          </>
        ) : (
          <p>
            This link has no invitation token. Open the link from the invitation mail, or see your <Link href="/app/projects">projects</Link>.
          </p>
        )}
      </Section>
    </>
  );
}
