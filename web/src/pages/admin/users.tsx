import { useState } from 'preact/hooks';
import { del, get, post, put, qs, type GetBody, type ListItem, type Page } from '../../api';
import { ConfirmButton } from '../../confirm';
import { useUser } from '../../session';
import { ErrorBox, Field, fmtDate, Loading, Section, Select, Table, useAction, useAsync, usePaged, useTitle } from '../../ui';

type AdminUser = ListItem<'/api/admin/users'>;
type UserDetail = GetBody<'/api/admin/users/{user_id}'>['user'];

/** The admin's users: search, filters, suspension, the superuser flag, deletion, and one user's holdings. */
export function AdminUsersPage() {
  useTitle('Admin · Users');
  const { user: me } = useUser();
  const [q, setQ] = useState('');
  const [status, setStatus] = useState('');
  const [role, setRole] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const list = usePaged(
    ({ limit, offset }) =>
      get<Page<AdminUser>>(
        `/api/admin/users${qs({ q: q || undefined, suspended: status === '' ? undefined : status === 'suspended', superuser: role === '' ? undefined : role === 'superuser', limit, offset })}`,
      ),
    [q, status, role],
  );
  const { busy, error, run } = useAction();
  const act = (fn: () => Promise<unknown>) =>
    run(async () => {
      await fn();
      list.reload();
    });
  return (
    <>
      <h1>Users</h1>
      <Section title="Every account">
        <form class="row filters" role="search" onSubmit={(e) => e.preventDefault()}>
          <Field label="Search email or name" type="search" value={q} onInput={(e) => setQ(e.currentTarget.value)} />
          <Select label="Status" value={status} options={[['', 'any'], 'active', 'suspended']} onChange={(e) => setStatus(e.currentTarget.value)} />
          <Select label="Role" value={role} options={[['', 'any'], 'superuser', ['user', 'not superuser']]} onChange={(e) => setRole(e.currentTarget.value)} />
        </form>
        <ErrorBox error={list.error ?? error} />
        {list.data ? (
          <Table
            caption="Users"
            rows={list.data.items}
            empty="No user matches."
            columns={[
              { head: 'Email', cell: (u) => u.email },
              { head: 'Name', cell: (u) => u.name },
              { head: 'Role', cell: (u) => (u.is_superuser ? 'superuser' : 'user') },
              { head: 'Status', cell: (u) => <span class={`status status-${u.suspended_at ? 'failed' : 'succeeded'}`}>{u.suspended_at ? 'suspended' : 'active'}</span> },
              { head: 'Last login', cell: (u) => fmtDate(u.last_login_at) },
              { head: 'Registered', cell: (u) => fmtDate(u.created_at) },
              {
                head: 'Actions',
                cell: (u) => (
                  <span class="row">
                    <button type="button" class="secondary small" aria-expanded={open === u.id} onClick={() => setOpen(open === u.id ? null : u.id)} aria-label={`Details of ${u.email}`}>
                      Details
                    </button>
                    {u.id !== me.id &&
                      (u.suspended_at ? (
                        <button type="button" class="secondary small" disabled={busy} onClick={() => act(() => post(`/api/admin/users/${u.id}/reactivate`))} aria-label={`Reactivate ${u.email}`}>
                          Reactivate
                        </button>
                      ) : (
                        <ConfirmButton
                          class="danger small"
                          disabled={busy}
                          confirm={{
                            question: `Suspend ${u.email}?`,
                            consequence: 'Their sessions and API keys stop working at once and they cannot log in, until reactivated.',
                            confirmLabel: 'Suspend',
                          }}
                          onConfirm={() => act(() => post(`/api/admin/users/${u.id}/suspend`))}
                          aria-label={`Suspend ${u.email}`}
                        >
                          Suspend
                        </ConfirmButton>
                      ))}
                    <button
                      type="button"
                      class="secondary small"
                      disabled={busy}
                      onClick={() => act(() => put(`/api/admin/users/${u.id}`, { is_superuser: !u.is_superuser }))}
                      aria-label={`${u.is_superuser ? 'Remove superuser from' : 'Make superuser'} ${u.email}`}
                    >
                      {u.is_superuser ? 'Remove superuser' : 'Make superuser'}
                    </button>
                    {u.id !== me.id && (
                      <ConfirmButton
                        class="danger small"
                        disabled={busy}
                        confirm={{
                          question: `Delete the account ${u.email}?`,
                          consequence: 'Projects they alone own are deleted with all their data; projects they own with others pass to another owner. This cannot be undone.',
                          confirmLabel: 'Delete',
                        }}
                        onConfirm={() => act(() => del(`/api/admin/users/${u.id}`))}
                        aria-label={`Delete ${u.email}`}
                      >
                        Delete
                      </ConfirmButton>
                    )}
                  </span>
                ),
              },
            ]}
          />
        ) : (
          <Loading />
        )}
        {list.pager}
      </Section>
      {open && <UserDetails id={open} />}
    </>
  );
}

/** What one user owns and holds. */
function UserDetails({ id }: { id: string }) {
  const d = useAsync(() => get<{ user: UserDetail }>(`/api/admin/users/${id}`), [id]);
  if (d.error) return <ErrorBox error={d.error} />;
  if (!d.data) return <Loading />;
  const u = d.data.user;
  return (
    <Section title={`Details of ${u.email}`}>
      <dl class="facts">
        <dt>Email verified</dt>
        <dd>{fmtDate(u.email_verified_at)}</dd>
        <dt>Suspended since</dt>
        <dd>{fmtDate(u.suspended_at)}</dd>
        <dt>Project memberships</dt>
        <dd>{u.memberships}</dd>
        <dt>API keys</dt>
        <dd>
          {u.api_keys.live} live of {u.api_keys.total}
        </dd>
        <dt>Live sessions</dt>
        <dd>{u.live_sessions}</dd>
        <dt>Plan</dt>
        <dd>
          {u.plan.display_name} ({u.plan.source.replace('_', '-')})
        </dd>
      </dl>
      <Table
        caption={`Projects ${u.email} owns`}
        rows={u.projects_owned}
        empty="Owns no project."
        columns={[
          { head: 'Project', cell: (p) => p.name },
          { head: 'Created', cell: (p) => fmtDate(p.created_at) },
        ]}
      />
    </Section>
  );
}
