import { useEffect, useState } from 'preact/hooks';
import { get, put, type GetBody } from '../../api';
import { ErrorBox, Field, Loading, Section, Select, useAction, useAsync, useTitle } from '../../ui';

type SettingsAnswer = GetBody<'/api/admin/settings'>;

/** The instance settings: registration, allowed email domains, default plan, session lifetime. */
export function AdminSettingsPage() {
  useTitle('Admin · Settings');
  const current = useAsync(() => get<SettingsAnswer>('/api/admin/settings'), []);
  if (current.error) return <ErrorBox error={current.error} />;
  if (!current.data) return <Loading />;
  return <SettingsForm answer={current.data} onSaved={current.reload} />;
}

function SettingsForm({ answer, onSaved }: { answer: SettingsAnswer; onSaved: () => void }) {
  const s = answer.settings;
  const [registration, setRegistration] = useState<string>(s.registration);
  const [domains, setDomains] = useState(s.allowed_email_domains.join(', '));
  const [plan, setPlan] = useState(s.default_plan ?? '');
  const [hours, setHours] = useState(String(s.session_lifetime_hours));
  const [saved, setSaved] = useState(false);
  const { busy, error, run } = useAction();
  useEffect(() => setSaved(false), [registration, domains, plan, hours]);
  const save = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      await put('/api/admin/settings', {
        registration,
        allowed_email_domains: domains
          .split(/[\s,]+/)
          .map((d) => d.trim())
          .filter(Boolean),
        default_plan: plan.trim() || null,
        session_lifetime_hours: Number(hours),
      });
      setSaved(true);
      onSaved();
    });
  };
  return (
    <>
      <h1>Settings</h1>
      <Section title="Instance settings">
        <form class="stack" onSubmit={save}>
          <Select
            label="Registration"
            value={registration}
            options={[
              ['open', 'Open: anyone may register'],
              ['invite_only', 'Invite only: with a project invitation'],
              ['closed', 'Closed: nobody may register'],
            ]}
            onChange={(e) => setRegistration(e.currentTarget.value)}
          />
          <Field label="Allowed email domains" hint="Comma-separated; subdomains are included. Empty: any domain." value={domains} onInput={(e) => setDomains(e.currentTarget.value)} />
          <Field
            label="Default plan"
            hint={`The plan of users without one. Empty: ${answer.defaults.default_plan ?? 'the built-in self_hosted plan'}.`}
            value={plan}
            onInput={(e) => setPlan(e.currentTarget.value)}
          />
          <Field
            label="Session lifetime (hours)"
            hint={`Of new sessions without "remember me". Configured default: ${answer.defaults.session_lifetime_hours}.`}
            type="number"
            min={1}
            max={8760}
            required
            value={hours}
            onInput={(e) => setHours(e.currentTarget.value)}
          />
          <ErrorBox error={error} />
          <div class="row">
            <button type="submit" disabled={busy}>
              Save settings
            </button>
            {saved && (
              <span role="status" class="muted">
                Saved.
              </span>
            )}
          </div>
        </form>
      </Section>
    </>
  );
}
