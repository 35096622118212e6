import { MigrationInterface, QueryRunner } from 'typeorm';

/** Monitoring that acts: channels and their deliveries, alert rules, alerts and their history, the notification outbox, suppressions, ground truth. */
export class Alerts1732440000000 implements MigrationInterface {
  name = 'Alerts1732440000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE alert_channels (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      name text NOT NULL,
      type text NOT NULL CHECK (type IN ('email','slack','webhook')),
      config jsonb NOT NULL,
      secret text,
      is_enabled boolean NOT NULL DEFAULT true,
      consecutive_failures integer NOT NULL DEFAULT 0,
      failing boolean NOT NULL DEFAULT false,
      last_delivery_at timestamptz,
      last_error text,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX idx_alert_channels_project ON alert_channels(project_id, created_at)`);

    await q.query(`CREATE TABLE alert_rules (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      deployment_id uuid REFERENCES deployments(id) ON DELETE CASCADE,
      name text NOT NULL,
      description text NOT NULL DEFAULT '',
      metric text NOT NULL,
      operator text NOT NULL CHECK (operator IN ('gt','lt','gte','lte','eq','neq')),
      threshold double precision NOT NULL,
      window_minutes integer NOT NULL CHECK (window_minutes BETWEEN 1 AND 10080),
      min_samples integer NOT NULL CHECK (min_samples >= 1),
      severity text NOT NULL CHECK (severity IN ('info','warning','critical')),
      channel_ids uuid[] NOT NULL DEFAULT '{}',
      cooldown_minutes integer NOT NULL CHECK (cooldown_minutes BETWEEN 1 AND 1440),
      escalation_minutes integer CHECK (escalation_minutes BETWEEN 1 AND 1440),
      escalation_severity text CHECK (escalation_severity IN ('warning','critical')),
      labels jsonb NOT NULL DEFAULT '{}',
      is_enabled boolean NOT NULL DEFAULT true,
      last_evaluated_at timestamptz,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX idx_alert_rules_project ON alert_rules(project_id, created_at)`);

    await q.query(`CREATE TABLE alerts (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      rule_id uuid NOT NULL REFERENCES alert_rules(id) ON DELETE CASCADE,
      deployment_id uuid REFERENCES deployments(id) ON DELETE CASCADE,
      fingerprint text NOT NULL UNIQUE,
      labels jsonb NOT NULL DEFAULT '{}',
      metric text NOT NULL,
      operator text NOT NULL,
      threshold double precision NOT NULL,
      state text NOT NULL CHECK (state IN ('firing','acknowledged','resolved')),
      severity text NOT NULL CHECK (severity IN ('info','warning','critical')),
      value double precision,
      estimated boolean NOT NULL DEFAULT false,
      samples integer NOT NULL DEFAULT 0,
      first_seen_at timestamptz NOT NULL,
      last_seen_at timestamptz NOT NULL,
      last_notified_at timestamptz,
      notification_count integer NOT NULL DEFAULT 0,
      escalated_at timestamptz,
      silenced boolean NOT NULL DEFAULT false,
      acknowledged_by uuid REFERENCES users(id) ON DELETE SET NULL,
      acknowledged_at timestamptz,
      resolved_by uuid REFERENCES users(id) ON DELETE SET NULL,
      resolved_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX idx_alerts_project_state ON alerts(project_id, state, last_seen_at)`);
    await q.query(`CREATE INDEX idx_alerts_rule ON alerts(rule_id)`);

    await q.query(`CREATE TABLE alert_events (
      id bigserial PRIMARY KEY,
      alert_id uuid NOT NULL REFERENCES alerts(id) ON DELETE CASCADE,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      rule_id uuid NOT NULL,
      event text NOT NULL,
      from_state text,
      to_state text NOT NULL,
      severity text NOT NULL,
      value double precision,
      actor_id uuid REFERENCES users(id) ON DELETE SET NULL,
      detail jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX idx_alert_events_project ON alert_events(project_id, id)`);
    await q.query(`CREATE INDEX idx_alert_events_alert ON alert_events(alert_id, id)`);

    await q.query(`CREATE TABLE alert_notifications (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      alert_id uuid NOT NULL REFERENCES alerts(id) ON DELETE CASCADE,
      channel_id uuid NOT NULL REFERENCES alert_channels(id) ON DELETE CASCADE,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      reason text NOT NULL CHECK (reason IN ('firing','escalated','resolved','test')),
      payload jsonb NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','delivered','failed')),
      attempts integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      delivered_at timestamptz)`);
    await q.query(`CREATE INDEX idx_alert_notifications_pending ON alert_notifications(project_id, created_at) WHERE status = 'pending'`);

    await q.query(`CREATE TABLE alert_deliveries (
      id bigserial PRIMARY KEY,
      channel_id uuid NOT NULL REFERENCES alert_channels(id) ON DELETE CASCADE,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      notification_id uuid REFERENCES alert_notifications(id) ON DELETE SET NULL,
      attempt integer NOT NULL,
      status text NOT NULL CHECK (status IN ('delivered','failed')),
      status_code integer,
      latency_ms double precision NOT NULL,
      error text,
      created_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX idx_alert_deliveries_channel ON alert_deliveries(channel_id, created_at)`);

    await q.query(`CREATE TABLE alert_suppressions (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      comment text NOT NULL DEFAULT '',
      matchers jsonb NOT NULL,
      starts_at timestamptz NOT NULL,
      ends_at timestamptz,
      recurrence jsonb,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX idx_alert_suppressions_project ON alert_suppressions(project_id, ends_at)`);

    await q.query(`CREATE TABLE inference_feedback (
      deployment_id uuid NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
      request_id text NOT NULL,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      actual jsonb NOT NULL,
      received_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (deployment_id, request_id))`);
    await q.query(`CREATE INDEX idx_inference_feedback_received ON inference_feedback(deployment_id, received_at)`);
    // Feedback joins the log row it names (the windowed reads use idx_inference_logs_deployment).
    await q.query(`CREATE INDEX idx_inference_logs_request ON inference_logs(deployment_id, request_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS idx_inference_logs_request');
    for (const t of ['inference_feedback', 'alert_suppressions', 'alert_deliveries', 'alert_notifications', 'alert_events', 'alerts', 'alert_rules', 'alert_channels']) {
      await q.query(`DROP TABLE IF EXISTS ${t}`);
    }
  }
}
