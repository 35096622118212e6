import { useState } from 'preact/hooks';
import { del, get, post, qs, type GetBody, type ListItem, type Page } from '../api';
import { ConfirmButton } from '../confirm';
import { ErrorBox, Loading, Section, Select, Table, useAction, useAsync } from '../ui';

type ProjectTeam = ListItem<'/api/projects/{project_id}/teams'>;
type MyTeam = ListItem<'/api/auth/teams'>;
type Member = ListItem<'/api/projects/{project_id}/members'>;

/** The roles a team can hold: never `owner`; owners and admins, who manage teams, may give each of them. */
const TEAM_ROLES = ['viewer', 'editor', 'admin'] as const;

/**
 * A member's role as the members table shows it: their own role, and what teams add to it. Someone who reaches the
 * project only through teams reads "editor (via Data team)".
 */
export function memberRoleText(m: Member): string {
  const via = m.teams.length ? ` via ${m.teams.map((t) => t.name).join(', ')}` : '';
  if (m.via_team) return `${m.role} (${via.trim()})`;
  if (m.effective_role !== m.role) return `${m.role}; ${m.effective_role}${via}`;
  return m.role;
}

/**
 * The project's teams (issue 34): every member sees which teams have which role; owners and admins grant one of their
 * own teams a role and take a team's role away. Its members' access changes at once (the members table above follows).
 */
export function ProjectTeams({ projectId, myRole, onChange }: { projectId: string; myRole: string; onChange: () => void }) {
  const manager = myRole === 'owner' || myRole === 'admin';
  const teams = useAsync(() => get<GetBody<'/api/projects/{project_id}/teams'>>(`/api/projects/${projectId}/teams`), [projectId]);
  // Only a manager grants, and only teams they belong to: nobody else needs the list.
  const mine = useAsync(() => (manager ? get<Page<MyTeam>>(`/api/auth/teams${qs({ limit: 100 })}`) : Promise.resolve(undefined)), [manager]);
  const [teamId, setTeamId] = useState('');
  const [role, setRole] = useState('viewer');
  const { busy, error, run } = useAction();
  const reload = () => {
    teams.reload();
    onChange();
  };
  const choices = mine.data?.items ?? [];
  const chosen = teamId || choices[0]?.id || '';
  return (
    <Section title="Teams">
      <ErrorBox error={teams.error ?? mine.error ?? error} />
      {teams.data ? (
        <Table<ProjectTeam>
          caption="Teams with a role in this project"
          rows={teams.data.items}
          empty="No team has a role in this project."
          columns={[
            { head: 'Team', cell: (t) => t.name },
            { head: 'Role', cell: (t) => t.role },
            { head: 'Members', cell: (t) => t.member_count, num: true },
            {
              head: 'Action',
              cell: (t) =>
                manager ? (
                  <ConfirmButton
                    class="secondary small"
                    aria-label={`Remove the team ${t.name}`}
                    confirm={{ question: `Remove the team ${t.name} from the project?`, consequence: 'Its members keep only the access they have of their own.', confirmLabel: 'Remove' }}
                    onConfirm={() => void run(() => del(`/api/projects/${projectId}/teams/${t.team_id}`).then(reload))}
                  >
                    Remove
                  </ConfirmButton>
                ) : (
                  '–'
                ),
            },
          ]}
        />
      ) : (
        !teams.error && <Loading />
      )}
      {manager &&
        (choices.length ? (
          <form
            class="row wrap"
            onSubmit={(e) => {
              e.preventDefault();
              void run(() => post(`/api/projects/${projectId}/teams`, { team_id: chosen, role }).then(reload));
            }}
          >
            <Select label="Team to add" value={chosen} options={choices.map((t): [string, string] => [t.id, t.name])} onChange={(e) => setTeamId(e.currentTarget.value)} />
            <Select label="Team access" value={role} options={[...TEAM_ROLES]} onChange={(e) => setRole(e.currentTarget.value)} />
            <button type="submit" disabled={busy || !chosen}>
              Add team
            </button>
          </form>
        ) : (
          mine.data && <p class="muted">You belong to no team: an administrator of this instance makes teams.</p>
        ))}
    </Section>
  );
}
