import { useState } from 'preact/hooks';
import { get, qs, type ListItem, type Page } from '../../api';
import { ErrorBox, Field, fmtDate, Loading, Section, Select, Table, usePaged, useTitle } from '../../ui';
import { isoOrUndefined } from './logs';

type SecurityEvent = ListItem<'/api/admin/security-events'>;

/** The event types offered as a filter (the API's default list covers all of them). */
const TYPES = [
  'login_failed',
  'lockout',
  'api_key_revoked',
  'password_reset_requested',
  'password_reset',
  'password_changed',
  'suspended',
  'reactivated',
  'superuser_granted',
  'superuser_revoked',
  'sso_login',
  'logout_all',
  'session_revoked',
];

/** Security events of every account: failed logins, key revocations, resets, suspensions, grants. */
export function AdminSecurityPage() {
  useTitle('Admin · Security events');
  const [type, setType] = useState('');
  const [q, setQ] = useState('');
  const [ip, setIp] = useState('');
  const [from, setFrom] = useState('');
  const list = usePaged(
    ({ limit, offset }) => get<Page<SecurityEvent>>(`/api/admin/security-events${qs({ type: type || undefined, q: q || undefined, ip: ip || undefined, from: isoOrUndefined(from), limit, offset })}`),
    [type, q, ip, from],
  );
  return (
    <>
      <h1>Security events</h1>
      <Section title="Account security events">
        <form class="row filters" role="search" onSubmit={(e) => e.preventDefault()}>
          <Select label="Event" value={type} options={[['', 'any security event'], ...TYPES]} onChange={(e) => setType(e.currentTarget.value)} />
          <Field label="User email" type="search" value={q} onInput={(e) => setQ(e.currentTarget.value)} />
          <Field label="IP address" value={ip} onInput={(e) => setIp(e.currentTarget.value)} />
          <Field label="Since" type="datetime-local" value={from} onInput={(e) => setFrom(e.currentTarget.value)} />
        </form>
        <ErrorBox error={list.error} />
        {list.data ? (
          <Table
            caption="Security events"
            rows={list.data.items}
            empty="No event matches."
            columns={[
              { head: 'Time', cell: (e) => fmtDate(e.created_at) },
              { head: 'Event', cell: (e) => e.type.replace(/_/g, ' ') },
              { head: 'User', cell: (e) => e.user.email },
              { head: 'IP', cell: (e) => e.ip ?? '–' },
              { head: 'User agent', cell: (e) => e.user_agent ?? '–' },
              { head: 'Details', cell: (e) => (Object.keys(e.details).length ? <code>{JSON.stringify(e.details)}</code> : '–') },
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
