import { useState } from 'preact/hooks';
import { del, get, post, put, type GetBody, type ListItem } from '../../api';
import { ConfirmButton } from '../../confirm';
import { Link, navigate, useLocation } from '../../router';
import { ErrorBox, Field, Loading, Section, Select, Table, useAction, useAsync, useTitle } from '../../ui';

type Provider = ListItem<'/api/admin/sso-providers'>;
type Mapping = Provider['group_mappings'][number];

const BASE = '/app/admin/sso';
/** What answers show for the secret; sent back unchanged, it keeps the stored one. */
const MASK = '***';

/**
 * The admin area's single sign-on providers (issue 34): the list (the client secret is never shown, only `***`), and
 * the form for a new provider (`?provider=new`) or one provider (`?provider=<id>`): its protocol, endpoints, client
 * credentials, allowed domains and group mappings. The redirect URI to register at the provider is shown with it.
 */
export function AdminSso() {
  useTitle('Admin: single sign-on');
  const { query } = useLocation();
  const selected = query.get('provider');
  return selected ? <ProviderForm key={selected} providerId={selected === 'new' ? null : selected} /> : <ProviderList />;
}

function ProviderList() {
  const list = useAsync(() => get<GetBody<'/api/admin/sso-providers'>>('/api/admin/sso-providers'), []);
  return (
    <>
      <div class="title-row">
        <h1>Single sign-on</h1>
        <Link href={`${BASE}?provider=new`} class="button">
          New provider
        </Link>
      </div>
      <p class="muted">People sign in with these providers from the login page. OpenID Connect providers are found by their issuer; OAuth 2.0 providers (GitHub-style) by their URLs.</p>
      <ErrorBox error={list.error} />
      {list.data ? (
        <Table<Provider>
          caption="SSO providers"
          rows={list.data.items}
          empty="No providers yet."
          columns={[
            { head: 'Name', cell: (p) => <Link href={`${BASE}?provider=${p.id}`}>{p.display_name}</Link> },
            { head: 'Slug', cell: (p) => <code>{p.slug}</code> },
            { head: 'Protocol', cell: (p) => (p.kind === 'oidc' ? 'OpenID Connect' : 'OAuth 2.0') },
            { head: 'Status', cell: (p) => (p.enabled ? 'Enabled' : 'Disabled') },
            { head: 'Client ID', cell: (p) => <code>{p.client_id}</code> },
            { head: 'Client secret', cell: (p) => <code aria-label="Client secret (hidden)">{p.client_secret}</code> },
            { head: 'Allowed domains', cell: (p) => p.allowed_email_domains.join(', ') || 'Any' },
          ]}
        />
      ) : (
        !list.error && <Loading />
      )}
    </>
  );
}

/** The form's state: the provider's fields as the inputs hold them (lists as text). */
interface FormState {
  slug: string;
  display_name: string;
  kind: 'oidc' | 'oauth2';
  enabled: boolean;
  trusted: boolean;
  issuer: string;
  discovery_url: string;
  client_id: string;
  client_secret: string;
  scopes: string;
  allowed_email_domains: string;
  groups_claim: string;
  group_mappings: Mapping[];
  authorize_url: string;
  token_url: string;
  userinfo_url: string;
  emails_url: string;
  field_id: string;
  field_email: string;
  field_name: string;
  field_email_verified: string;
}

const EMPTY: FormState = {
  slug: '',
  display_name: '',
  kind: 'oidc',
  enabled: true,
  trusted: false,
  issuer: '',
  discovery_url: '',
  client_id: '',
  client_secret: '',
  scopes: 'openid email profile',
  allowed_email_domains: '',
  groups_claim: 'groups',
  group_mappings: [],
  authorize_url: '',
  token_url: '',
  userinfo_url: '',
  emails_url: '',
  field_id: 'id',
  field_email: 'email',
  field_name: 'name',
  field_email_verified: '',
};

function formOf(p: Provider): FormState {
  return {
    ...EMPTY,
    slug: p.slug,
    display_name: p.display_name,
    kind: p.kind,
    enabled: p.enabled,
    trusted: p.trusted,
    issuer: p.issuer ?? '',
    discovery_url: p.discovery_url ?? '',
    client_id: p.client_id,
    client_secret: MASK,
    scopes: p.scopes.join(' '),
    allowed_email_domains: p.allowed_email_domains.join(', '),
    groups_claim: p.groups_claim ?? '',
    group_mappings: p.group_mappings,
    authorize_url: p.authorize_url ?? '',
    token_url: p.token_url ?? '',
    userinfo_url: p.userinfo_url ?? '',
    emails_url: p.emails_url ?? '',
    field_id: p.userinfo_fields?.id ?? 'id',
    field_email: p.userinfo_fields?.email ?? 'email',
    field_name: p.userinfo_fields?.name ?? 'name',
    field_email_verified: p.userinfo_fields?.email_verified ?? '',
  };
}

/** The request body from the form: empty texts are nulls, lists are split. */
function bodyOf(f: FormState) {
  const orNull = (s: string) => s.trim() || null;
  const oauth = f.kind === 'oauth2';
  return {
    slug: f.slug.trim(),
    display_name: f.display_name,
    kind: f.kind,
    enabled: f.enabled,
    trusted: f.trusted,
    issuer: oauth ? null : orNull(f.issuer),
    discovery_url: oauth ? null : orNull(f.discovery_url),
    client_id: f.client_id,
    client_secret: f.client_secret,
    scopes: f.scopes.split(/\s+/).filter(Boolean),
    allowed_email_domains: f.allowed_email_domains.split(/[\s,]+/).filter(Boolean),
    groups_claim: orNull(f.groups_claim),
    group_mappings: f.group_mappings.map((m) => ({ ...m, team: m.team?.trim() || null })),
    authorize_url: oauth ? orNull(f.authorize_url) : null,
    token_url: oauth ? orNull(f.token_url) : null,
    userinfo_url: oauth ? orNull(f.userinfo_url) : null,
    emails_url: oauth ? orNull(f.emails_url) : null,
    userinfo_fields: oauth ? { id: f.field_id, email: f.field_email, name: f.field_name, email_verified: orNull(f.field_email_verified) } : null,
  };
}

function ProviderForm({ providerId }: { providerId: string | null }) {
  const loaded = useAsync(async () => (providerId ? (await get<GetBody<'/api/admin/sso-providers/{provider_id}'>>(`/api/admin/sso-providers/${providerId}`)).provider : null), [providerId]);
  if (loaded.error) return <ErrorBox error={loaded.error} />;
  if (loaded.loading && !loaded.data) return <Loading />;
  return <ProviderEditor provider={loaded.data ?? null} />;
}

function ProviderEditor({ provider }: { provider: Provider | null }) {
  const [f, setF] = useState<FormState>(provider ? formOf(provider) : EMPTY);
  const { busy, error, run } = useAction();
  const set = <K extends keyof FormState>(k: K, v: FormState[K]) => setF((s) => ({ ...s, [k]: v }));
  const text = (k: keyof FormState) => ({ value: f[k] as string, onInput: (e: { currentTarget: HTMLInputElement }) => set(k, e.currentTarget.value) });
  const setMapping = (i: number, m: Partial<Mapping>) =>
    set(
      'group_mappings',
      f.group_mappings.map((x, j) => (j === i ? { ...x, ...m } : x)),
    );
  const save = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      if (provider) await put(`/api/admin/sso-providers/${provider.id}`, bodyOf(f));
      else await post('/api/admin/sso-providers', bodyOf(f));
      navigate(BASE);
    });
  };
  const oauth = f.kind === 'oauth2';
  return (
    <>
      <p class="crumbs">
        <Link href={BASE}>Single sign-on</Link> /
      </p>
      <div class="title-row">
        <h1>{provider ? provider.display_name : 'New provider'}</h1>
        {provider && (
          <ConfirmButton
            class="secondary"
            aria-label={`Delete provider ${provider.display_name}`}
            confirm={{ question: `Delete ${provider.display_name}?`, consequence: 'Its users keep their accounts but can no longer sign in with it.', confirmLabel: 'Delete' }}
            onConfirm={() => void run(() => del(`/api/admin/sso-providers/${provider.id}`).then(() => navigate(BASE)))}
          >
            Delete provider
          </ConfirmButton>
        )}
      </div>
      {provider && (
        <p>
          Register this redirect URI at the provider: <code>{provider.redirect_uri}</code>
        </p>
      )}
      <form class="stack" onSubmit={save}>
        <Section title="Provider">
          <div class="row wrap">
            <Field label="Display name" required maxLength={100} {...text('display_name')} />
            <Field label="Slug" required maxLength={63} pattern="[a-z0-9][a-z0-9\-]*" hint="Lower-case letters, digits and dashes: part of the sign-in URL" {...text('slug')} />
            <Select
              label="Protocol"
              value={f.kind}
              options={[
                ['oidc', 'OpenID Connect'],
                ['oauth2', 'OAuth 2.0 (GitHub-style)'],
              ]}
              onChange={(e) => set('kind', e.currentTarget.value as FormState['kind'])}
            />
          </div>
          <label class="check">
            <input type="checkbox" checked={f.enabled} onChange={(e) => set('enabled', e.currentTarget.checked)} /> Enabled (shown on the login page)
          </label>
          <label class="check">
            <input type="checkbox" checked={f.trusted} onChange={(e) => set('trusted', e.currentTarget.checked)} /> Trusted: its emails count as verified and it creates accounts even when registration
            is closed
          </label>
        </Section>
        <Section title="Connection">
          {oauth ? (
            <div class="row wrap">
              <Field label="Authorization URL" type="url" required {...text('authorize_url')} />
              <Field label="Token URL" type="url" required {...text('token_url')} />
              <Field label="Userinfo URL" type="url" required {...text('userinfo_url')} />
              <Field label="Emails URL (optional)" type="url" hint="A GitHub-style list of the account's emails" {...text('emails_url')} />
              <Field label="Account id field" required {...text('field_id')} />
              <Field label="Email field" required {...text('field_email')} />
              <Field label="Name field" required {...text('field_name')} />
              <Field label="Email-verified field (optional)" {...text('field_email_verified')} />
            </div>
          ) : (
            <div class="row wrap">
              <Field label="Issuer" type="url" required hint="Its discovery document is read from <issuer>/.well-known/openid-configuration" {...text('issuer')} />
              <Field label="Discovery URL (optional)" type="url" {...text('discovery_url')} />
            </div>
          )}
          <div class="row wrap">
            <Field label="Client ID" required maxLength={500} {...text('client_id')} />
            <Field label="Client secret" type="password" required autocomplete="off" hint={provider ? 'Leave *** to keep the stored secret' : undefined} {...text('client_secret')} />
            <Field label="Scopes" hint="Separated by spaces" {...text('scopes')} />
          </div>
        </Section>
        <Section title="Who may sign in">
          <div class="row wrap">
            <Field label="Allowed email domains" hint="Separated by commas; empty: any domain" {...text('allowed_email_domains')} />
            <Field label="Groups claim" hint="The claim or field holding the user's groups" {...text('groups_claim')} />
          </div>
          <Table<Mapping & { i: number }>
            caption="Group mappings"
            rows={f.group_mappings.map((m, i) => ({ ...m, i }))}
            empty="No group mappings."
            columns={[
              { head: 'Group', cell: (m) => <input aria-label={`Group of mapping ${m.i + 1}`} value={m.group} required onInput={(e) => setMapping(m.i, { group: e.currentTarget.value })} /> },
              { head: 'Team', cell: (m) => <input aria-label={`Team of mapping ${m.i + 1}`} value={m.team ?? ''} onInput={(e) => setMapping(m.i, { team: e.currentTarget.value })} /> },
              {
                head: 'Team role',
                cell: (m) => (
                  <select aria-label={`Team role of mapping ${m.i + 1}`} value={m.team_role} onChange={(e) => setMapping(m.i, { team_role: e.currentTarget.value as Mapping['team_role'] })}>
                    <option value="member">member</option>
                    <option value="maintainer">maintainer</option>
                  </select>
                ),
              },
              {
                head: 'Superuser',
                cell: (m) => <input type="checkbox" aria-label={`Superuser for mapping ${m.i + 1}`} checked={m.superuser} onChange={(e) => setMapping(m.i, { superuser: e.currentTarget.checked })} />,
              },
              {
                head: 'Action',
                cell: (m) => (
                  <button
                    type="button"
                    class="secondary small"
                    onClick={() =>
                      set(
                        'group_mappings',
                        f.group_mappings.filter((_, j) => j !== m.i),
                      )
                    }
                  >
                    Remove
                  </button>
                ),
              },
            ]}
          />
          <button type="button" class="secondary small" onClick={() => set('group_mappings', [...f.group_mappings, { group: '', team: '', team_role: 'member', superuser: false }])}>
            Add a group mapping
          </button>
        </Section>
        <ErrorBox error={error} />
        <button type="submit" disabled={busy}>
          {provider ? 'Save provider' : 'Create provider'}
        </button>
      </form>
    </>
  );
}
