import { useState } from 'preact/hooks';
import { get, post, qs, type ListItem, type Page } from '../../api';
import { ConfirmButton } from '../../confirm';
import { ErrorBox, Field, fmtDate, Loading, Section, Select, Table, useAction, usePaged, useTitle } from '../../ui';

type AdminKey = ListItem<'/api/admin/api-keys'>;

/** Every user's API keys, and revocation of any of them. */
export function AdminApiKeysPage() {
  useTitle('Admin · API keys');
  const [q, setQ] = useState('');
  const [status, setStatus] = useState('live');
  const list = usePaged(({ limit, offset }) => get<Page<AdminKey>>(`/api/admin/api-keys${qs({ q: q || undefined, status, limit, offset })}`), [q, status]);
  const { busy, error, run } = useAction();
  return (
    <>
      <h1>API keys</h1>
      <Section title="Every user's keys">
        <form class="row filters" role="search" onSubmit={(e) => e.preventDefault()}>
          <Field label="Search name, prefix or owner" type="search" value={q} onInput={(e) => setQ(e.currentTarget.value)} />
          <Select label="Status" value={status} options={['live', 'revoked', 'all']} onChange={(e) => setStatus(e.currentTarget.value)} />
        </form>
        <ErrorBox error={list.error ?? error} />
        {list.data ? (
          <Table
            caption="API keys"
            rows={list.data.items}
            empty="No key matches."
            columns={[
              { head: 'Name', cell: (k) => k.name },
              { head: 'Prefix', cell: (k) => <code>{k.prefix}</code> },
              { head: 'Owner', cell: (k) => k.owner.email },
              { head: 'Scopes', cell: (k) => k.scopes.join(', ') },
              { head: 'Created', cell: (k) => fmtDate(k.created_at) },
              { head: 'Last used', cell: (k) => fmtDate(k.last_used_at) },
              {
                head: 'Revoked',
                cell: (k) =>
                  k.revoked_at ? (
                    fmtDate(k.revoked_at)
                  ) : (
                    <ConfirmButton
                      class="danger small"
                      disabled={busy}
                      confirm={{ question: `Revoke the key ${k.prefix} of ${k.owner.email}?`, consequence: 'Requests with it are refused from now on.', confirmLabel: 'Revoke' }}
                      onConfirm={() => run(() => post(`/api/admin/api-keys/${k.id}/revoke`).then(list.reload))}
                      aria-label={`Revoke the key ${k.prefix}`}
                    >
                      Revoke
                    </ConfirmButton>
                  ),
              },
            ]}
          />
        ) : (
          <Loading />
        )}
        {list.pager}
      </Section>
    </>
  );
}
