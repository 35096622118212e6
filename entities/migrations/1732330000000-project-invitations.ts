import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Project invitations: adding a member by email invites the address, and the account with
 * that email joins by accepting. The owner's answer is the same whether or not the address
 * belongs to an account.
 */
export class ProjectInvitations1732330000000 implements MigrationInterface {
  name = 'ProjectInvitations1732330000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE project_invitations (
      id uuid PRIMARY KEY,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      email text NOT NULL,
      role text NOT NULL CHECK (role IN ('viewer','editor','admin','owner')),
      invited_by uuid REFERENCES users(id) ON DELETE SET NULL,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (project_id, email))`);
    await q.query(`CREATE INDEX idx_project_invitations_email ON project_invitations(email)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE project_invitations');
  }
}
