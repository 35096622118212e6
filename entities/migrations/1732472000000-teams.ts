import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Teams (issue 34): named groups of users, granted a role in projects like members. A user's effective role in a
 * project is the highest of their own membership and their teams' grants; `project_access` is that union, one row per
 * (project, user, source), so every access check and every "my projects" filter reads one relation. Its branches are
 * each served by an index: project_members (project_id, user_id) and (user_id); project_teams (project_id, team_id)
 * and (team_id); team_members (team_id, user_id) and (user_id).
 */
export class Teams1732472000000 implements MigrationInterface {
  name = 'Teams1732472000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE teams (
      id uuid PRIMARY KEY,
      name text NOT NULL,
      description text NOT NULL DEFAULT '',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now())`);
    await q.query('CREATE UNIQUE INDEX idx_teams_name_lower ON teams (lower(name))');
    await q.query(`CREATE TABLE team_members (
      team_id uuid NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      role text NOT NULL CHECK (role IN ('member','maintainer')),
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (team_id, user_id))`);
    await q.query('CREATE INDEX idx_team_members_user ON team_members (user_id)');
    // A team never owns a project: ownership (deletion, members, the last-owner rule) stays with people.
    await q.query(`CREATE TABLE project_teams (
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      team_id uuid NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
      role text NOT NULL CHECK (role IN ('viewer','editor','admin')),
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (project_id, team_id))`);
    await q.query('CREATE INDEX idx_project_teams_team ON project_teams (team_id)');
    await q.query(`CREATE VIEW project_access AS
      SELECT pm.project_id, pm.user_id, pm.role, NULL::uuid AS team_id FROM project_members pm
      UNION ALL
      SELECT pt.project_id, tm.user_id, pt.role, pt.team_id FROM project_teams pt JOIN team_members tm ON tm.team_id = pt.team_id`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP VIEW project_access');
    await q.query('DROP TABLE project_teams');
    await q.query('DROP TABLE team_members');
    await q.query('DROP TABLE teams');
  }
}
