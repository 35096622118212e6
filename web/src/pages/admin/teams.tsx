import { useState } from 'preact/hooks';
import { del, get, post, put, qs, type GetBody, type ListItem, type Page } from '../../api';
import { ConfirmButton } from '../../confirm';
import { Link, navigate, useLocation } from '../../router';
import { ErrorBox, Field, fmtDate, Loading, Section, Select, Table, useAction, useAsync, usePaged, useTitle } from '../../ui';

type Team = ListItem<'/api/admin/teams'>;
type TeamMember = ListItem<'/api/admin/teams/{team_id}/members'>;

const BASE = '/app/admin/teams';

/**
 * The admin area's teams (issue 34): every team with its counts, a form to make one, and, for the team named by
 * `?team=<id>`, its members (add by email with a team role, remove), its projects, renaming and deletion. A team's
 * project roles are given on each project's Members tab, by the project's owners and admins.
 */
export function AdminTeams() {
  useTitle('Admin: teams');
  const { query } = useLocation();
  const selected = query.get('team');
  return selected ? <TeamDetail teamId={selected} /> : <TeamList />;
}

function TeamList() {
  const [search, setSearch] = useState('');
  const list = usePaged(({ limit, offset }) => get<Page<Team>>(`/api/admin/teams${qs({ search, limit, offset })}`), [search]);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const { busy, error, run } = useAction();
  return (
    <>
      <h1>Teams</h1>
      <Section title="New team">
        <form
          class="row wrap"
          onSubmit={(e) => {
            e.preventDefault();
            void run(async () => {
              const r = await post<{ id: string }>('/api/admin/teams', { name, description });
              navigate(`${BASE}?team=${r.id}`);
            });
          }}
        >
          <Field label="Team name" required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
          <Field label="Description" maxLength={2000} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
          <button type="submit" disabled={busy}>
            Create team
          </button>
        </form>
        <ErrorBox error={error} />
      </Section>
      <Section title="All teams">
        <div class="row filters">
          <Field label="Search teams" type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
        </div>
        <ErrorBox error={list.error} />
        {list.data ? (
          <Table<Team>
            caption="Teams"
            rows={list.data.items}
            empty="No teams yet."
            columns={[
              { head: 'Name', cell: (t) => <Link href={`${BASE}?team=${t.id}`}>{t.name}</Link> },
              { head: 'Description', cell: (t) => t.description || '–' },
              { head: 'Members', cell: (t) => t.member_count, num: true },
              { head: 'Projects', cell: (t) => t.project_count, num: true },
              { head: 'Created', cell: (t) => fmtDate(t.created_at) },
            ]}
          />
        ) : (
          !list.error && <Loading />
        )}
        {list.pager}
      </Section>
    </>
  );
}

function TeamDetail({ teamId }: { teamId: string }) {
  const team = useAsync(() => get<GetBody<'/api/admin/teams/{team_id}'>>(`/api/admin/teams/${teamId}`), [teamId]);
  const members = usePaged(({ limit, offset }) => get<Page<TeamMember>>(`/api/admin/teams/${teamId}/members${qs({ limit, offset })}`), [teamId]);
  const { busy, error, run } = useAction();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('member');
  const [note, setNote] = useState('');
  const reload = () => {
    team.reload();
    members.reload();
  };
  if (team.error) return <ErrorBox error={team.error} />;
  if (!team.data) return <Loading />;
  const t = team.data.team;
  return (
    <>
      <p class="crumbs">
        <Link href={BASE}>Teams</Link> /
      </p>
      <div class="title-row">
        <h1>{t.name}</h1>
        <ConfirmButton
          class="secondary"
          aria-label={`Delete team ${t.name}`}
          confirm={{ question: `Delete the team ${t.name}?`, consequence: 'Its members lose the project roles the team gave them at once; their own memberships stay.', confirmLabel: 'Delete' }}
          onConfirm={() => void run(() => del(`/api/admin/teams/${teamId}`).then(() => navigate(BASE)))}
        >
          Delete team
        </ConfirmButton>
      </div>
      <ErrorBox error={error} />
      <RenameTeam key={t.id} teamId={teamId} name={t.name} description={t.description} onSaved={reload} />
      <Section title="Members">
        <ErrorBox error={members.error} />
        {members.data ? (
          <Table<TeamMember>
            caption={`Members of ${t.name}`}
            rows={members.data.items}
            empty="No members yet."
            columns={[
              { head: 'Name', cell: (m) => m.name },
              { head: 'Email', cell: (m) => m.email },
              { head: 'Team role', cell: (m) => m.role },
              { head: 'Since', cell: (m) => fmtDate(m.created_at) },
              {
                head: 'Action',
                cell: (m) => (
                  <ConfirmButton
                    class="secondary small"
                    aria-label={`Remove ${m.email} from the team`}
                    confirm={{ question: `Remove ${m.email} from ${t.name}?`, consequence: 'They lose the project roles the team gave them at once.', confirmLabel: 'Remove' }}
                    onConfirm={() => void run(() => del(`/api/admin/teams/${teamId}/members/${m.user_id}`).then(reload))}
                  >
                    Remove
                  </ConfirmButton>
                ),
              },
            ]}
          />
        ) : (
          !members.error && <Loading />
        )}
        {members.pager}
        <form
          class="row wrap"
          onSubmit={(e) => {
            e.preventDefault();
            setNote('');
            void run(async () => {
              await post(`/api/admin/teams/${teamId}/members`, { email, role });
              setNote(`${email} is now a ${role} of ${t.name}.`);
              setEmail('');
              reload();
            });
          }}
        >
          <Field label="Member email" type="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
          <Select label="Team role" value={role} options={['member', 'maintainer']} onChange={(e) => setRole(e.currentTarget.value)} />
          <button type="submit" disabled={busy}>
            Add member
          </button>
        </form>
        {note && <p role="status">{note}</p>}
        <p class="muted">Maintainers manage the team's members too. Project owners and admins give the team a role on their project's Members tab.</p>
      </Section>
      <Section title="Projects">
        <Table
          caption={`Projects ${t.name} has a role in`}
          rows={team.data.projects}
          empty="No project has given this team a role."
          columns={[
            { head: 'Project', cell: (p) => p.project_name },
            { head: 'Role', cell: (p) => p.role },
            { head: 'Since', cell: (p) => fmtDate(p.created_at) },
          ]}
        />
      </Section>
    </>
  );
}

function RenameTeam({ teamId, name: current, description: currentDescription, onSaved }: { teamId: string; name: string; description: string; onSaved: () => void }) {
  const [name, setName] = useState(current);
  const [description, setDescription] = useState(currentDescription);
  const { busy, error, run } = useAction();
  return (
    <Section title="Name and description">
      <form
        class="row wrap"
        onSubmit={(e) => {
          e.preventDefault();
          void run(() => put(`/api/admin/teams/${teamId}`, { name, description }).then(onSaved));
        }}
      >
        <Field label="Team name" required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <Field label="Description" maxLength={2000} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        <button type="submit" disabled={busy}>
          Save
        </button>
      </form>
      <ErrorBox error={error} />
    </Section>
  );
}
