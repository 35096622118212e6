import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The model registry (issue 31): registered models, their versions, aliases, transition requests and the append-only
 * registry events. Registry events reach the project's alert channels through the alert outbox
 * (`alert_notifications`), which now carries either an alert's notification or a registry event's.
 */
export class Registry1732450000000 implements MigrationInterface {
  name = 'Registry1732450000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE registered_models (
      id uuid PRIMARY KEY,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      name text NOT NULL,
      description text NOT NULL DEFAULT '',
      tags jsonb NOT NULL DEFAULT '{}',
      auto_deploy_aliases text[] NOT NULL DEFAULT '{}',
      latest_version integer NOT NULL DEFAULT 0,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE UNIQUE INDEX uq_registered_models_name ON registered_models(project_id, name)`);

    // A version goes with its model (as deployments do); its experiment and dataset version are kept as they were.
    await q.query(`CREATE TABLE registry_versions (
      id uuid PRIMARY KEY,
      registered_model_id uuid NOT NULL REFERENCES registered_models(id) ON DELETE CASCADE,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      version integer NOT NULL,
      model_id uuid NOT NULL REFERENCES models(id) ON DELETE CASCADE,
      experiment_id uuid NOT NULL,
      dataset_version_id uuid,
      metrics jsonb NOT NULL DEFAULT '{}',
      stage text NOT NULL DEFAULT 'none' CHECK (stage IN ('none','staging','production','archived')),
      tags jsonb NOT NULL DEFAULT '{}',
      description text NOT NULL DEFAULT '',
      deployment_id uuid REFERENCES deployments(id) ON DELETE SET NULL,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE UNIQUE INDEX uq_registry_versions_number ON registry_versions(registered_model_id, version)`);
    await q.query(`CREATE INDEX idx_registry_versions_model ON registry_versions(model_id)`);

    await q.query(`CREATE TABLE registry_aliases (
      registered_model_id uuid NOT NULL REFERENCES registered_models(id) ON DELETE CASCADE,
      alias text NOT NULL,
      version_id uuid NOT NULL REFERENCES registry_versions(id) ON DELETE CASCADE,
      updated_by uuid REFERENCES users(id) ON DELETE SET NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (registered_model_id, alias))`);

    await q.query(`CREATE TABLE registry_transitions (
      id uuid PRIMARY KEY,
      version_id uuid NOT NULL REFERENCES registry_versions(id) ON DELETE CASCADE,
      registered_model_id uuid NOT NULL REFERENCES registered_models(id) ON DELETE CASCADE,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      to_stage text NOT NULL CHECK (to_stage IN ('staging','production','archived')),
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','approved','rejected')),
      requested_by uuid REFERENCES users(id) ON DELETE SET NULL,
      comment text,
      decided_by uuid REFERENCES users(id) ON DELETE SET NULL,
      decided_at timestamptz,
      decision_comment text,
      deployment_id uuid REFERENCES deployments(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX idx_registry_transitions_version ON registry_transitions(version_id, created_at)`);

    await q.query(`CREATE TABLE registry_events (
      id bigserial PRIMARY KEY,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      registered_model_id uuid REFERENCES registered_models(id) ON DELETE CASCADE,
      version_id uuid REFERENCES registry_versions(id) ON DELETE SET NULL,
      kind text NOT NULL,
      actor_id uuid REFERENCES users(id) ON DELETE SET NULL,
      details jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX idx_registry_events_model ON registry_events(registered_model_id, id)`);
    await q.query(`CREATE INDEX idx_registry_events_project ON registry_events(project_id, id)`);

    // The outbox carries registry events too: exactly one of alert_id and registry_event_id.
    await q.query(`ALTER TABLE alert_notifications ALTER COLUMN alert_id DROP NOT NULL`);
    await q.query(`ALTER TABLE alert_notifications ADD COLUMN registry_event_id bigint REFERENCES registry_events(id) ON DELETE CASCADE`);
    await q.query(`ALTER TABLE alert_notifications DROP CONSTRAINT alert_notifications_reason_check`);
    await q.query(`ALTER TABLE alert_notifications ADD CONSTRAINT alert_notifications_reason_check CHECK (reason IN ('firing','escalated','resolved','test','registry_event'))`);
    await q.query(`ALTER TABLE alert_notifications ADD CONSTRAINT alert_notifications_subject_check CHECK ((alert_id IS NULL) <> (registry_event_id IS NULL))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM alert_notifications WHERE registry_event_id IS NOT NULL`);
    await q.query(`ALTER TABLE alert_notifications DROP CONSTRAINT IF EXISTS alert_notifications_subject_check`);
    await q.query(`ALTER TABLE alert_notifications DROP CONSTRAINT alert_notifications_reason_check`);
    await q.query(`ALTER TABLE alert_notifications ADD CONSTRAINT alert_notifications_reason_check CHECK (reason IN ('firing','escalated','resolved','test'))`);
    await q.query(`ALTER TABLE alert_notifications DROP COLUMN registry_event_id`);
    await q.query(`ALTER TABLE alert_notifications ALTER COLUMN alert_id SET NOT NULL`);
    for (const t of ['registry_events', 'registry_transitions', 'registry_aliases', 'registry_versions', 'registered_models']) await q.query(`DROP TABLE IF EXISTS ${t}`);
  }
}
