import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Billing (issue 34): metered usage (`usage_events`, one row per idempotency key), the provider's customer and
 * subscription per user (`billing_accounts`) and the webhook events already applied (`billing_events`, replay guard).
 */
export class Billing1732476000000 implements MigrationInterface {
  name = 'Billing1732476000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE usage_events (
      id uuid PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      project_id uuid REFERENCES projects(id) ON DELETE SET NULL,
      kind text NOT NULL CHECK (kind IN ('training_minutes', 'predictions', 'storage_gb_hours')),
      quantity double precision NOT NULL CHECK (quantity >= 0),
      idempotency_key text NOT NULL UNIQUE,
      occurred_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query('CREATE INDEX usage_events_user_time ON usage_events (user_id, occurred_at)');
    await q.query(`CREATE TABLE billing_accounts (
      user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
      provider text NOT NULL,
      customer_id text NOT NULL UNIQUE,
      subscription_id text,
      subscription_status text,
      subscribed_plan text,
      current_period_start timestamptz,
      current_period_end timestamptz,
      cancel_at_period_end boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query('CREATE INDEX billing_accounts_subscription ON billing_accounts (subscription_id)');
    await q.query(`CREATE TABLE billing_events (
      id text PRIMARY KEY,
      type text NOT NULL,
      user_id uuid REFERENCES users(id) ON DELETE SET NULL,
      outcome text NOT NULL,
      received_at timestamptz NOT NULL DEFAULT now()
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE billing_events');
    await q.query('DROP TABLE billing_accounts');
    await q.query('DROP TABLE usage_events');
  }
}
