import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Plans (issue 34): named limits an admin assigns to users and teams. A user without a plan of their own takes the
 * most generous of their teams' plans, then the instance's default plan, then the built-in `self_hosted` plan of the
 * configuration (services/plans.ts `planOfUser`). A plan that users or teams hold cannot be deleted (RESTRICT).
 */
export class Plans1732475000000 implements MigrationInterface {
  name = 'Plans1732475000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE plans (
      id uuid PRIMARY KEY,
      name text NOT NULL UNIQUE,
      display_name text NOT NULL,
      limits jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now())`);
    await q.query('ALTER TABLE users ADD COLUMN plan_id uuid REFERENCES plans(id) ON DELETE RESTRICT');
    await q.query('CREATE INDEX idx_users_plan ON users (plan_id) WHERE plan_id IS NOT NULL');
    await q.query('ALTER TABLE teams ADD COLUMN plan_id uuid REFERENCES plans(id) ON DELETE RESTRICT');
    await q.query('CREATE INDEX idx_teams_plan ON teams (plan_id) WHERE plan_id IS NOT NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE teams DROP COLUMN plan_id');
    await q.query('ALTER TABLE users DROP COLUMN plan_id');
    await q.query('DROP TABLE plans');
  }
}
