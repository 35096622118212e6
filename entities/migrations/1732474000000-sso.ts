import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Single sign-on (issue 34): providers configured by superusers, users' linked identities at them, and the sign-ins in
 * flight (state, PKCE verifier, nonce; single use, minutes long).
 */
export class Sso1732474000000 implements MigrationInterface {
  name = 'Sso1732474000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE sso_providers (
      id uuid PRIMARY KEY,
      slug text NOT NULL UNIQUE,
      display_name text NOT NULL,
      kind text NOT NULL CHECK (kind IN ('oidc', 'oauth2')),
      enabled boolean NOT NULL DEFAULT true,
      trusted boolean NOT NULL DEFAULT false,
      issuer text,
      discovery_url text,
      client_id text NOT NULL,
      client_secret text NOT NULL,
      scopes text[] NOT NULL DEFAULT '{}',
      allowed_email_domains text[] NOT NULL DEFAULT '{}',
      groups_claim text,
      group_mappings jsonb NOT NULL DEFAULT '[]',
      authorize_url text,
      token_url text,
      userinfo_url text,
      emails_url text,
      userinfo_fields jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE user_identities (
      id uuid PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      provider_id uuid NOT NULL REFERENCES sso_providers(id) ON DELETE CASCADE,
      subject text NOT NULL,
      email text NOT NULL,
      last_login_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query('CREATE UNIQUE INDEX user_identities_provider_subject ON user_identities (provider_id, subject)');
    await q.query('CREATE UNIQUE INDEX user_identities_user_provider ON user_identities (user_id, provider_id)');
    await q.query(`CREATE TABLE sso_login_states (
      id uuid PRIMARY KEY,
      provider_id uuid NOT NULL REFERENCES sso_providers(id) ON DELETE CASCADE,
      state_hash text NOT NULL UNIQUE,
      browser_hash text NOT NULL,
      code_verifier text NOT NULL,
      nonce text NOT NULL,
      next_path text NOT NULL,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query('CREATE INDEX sso_login_states_expires_at ON sso_login_states (expires_at)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE sso_login_states');
    await q.query('DROP TABLE user_identities');
    await q.query('DROP TABLE sso_providers');
  }
}
