import { Column, Entity, UpdateDateColumn } from 'typeorm';
import { BaseEntity } from './base.entity';

/** The protocols a sign-in provider speaks: OpenID Connect (discovery, ID tokens) or plain OAuth 2.0 (GitHub-style). */
export const SSO_PROVIDER_KINDS = ['oidc', 'oauth2'] as const;
export type SsoProviderKind = (typeof SSO_PROVIDER_KINDS)[number];

/** What members of an identity-provider group get at each login: a team (with its role) and/or the superuser flag. */
export interface SsoGroupMapping {
  group: string;
  team: string | null;
  teamRole: 'member' | 'maintainer';
  superuser: boolean;
}

/** Where a plain OAuth 2.0 provider's userinfo answer keeps the account's fields (dotted paths). */
export interface SsoUserinfoFields {
  id: string;
  email: string;
  name: string;
  /** A boolean field saying the email is verified; null when the provider does not send one. */
  emailVerified: string | null;
}

/**
 * A single sign-on provider configured by a superuser (`/api/admin/sso-providers`), reached by its slug at
 * `/api/auth/sso/{slug}/…` (OIDC) or `/api/auth/oauth/{slug}/…` (OAuth 2.0). The client secret is never selected
 * unless asked for and never answered (`"***"`).
 */
@Entity('sso_providers')
export class SsoProvider extends BaseEntity {
  /** Unique; lower-case letters, digits and dashes. */
  @Column('text', { unique: true })
  slug: string;

  @Column('text', { name: 'display_name' })
  displayName: string;

  @Column('text')
  kind: SsoProviderKind;

  @Column('boolean', { default: true })
  enabled: boolean;

  /**
   * The organisation's own provider: its emails count as verified, and it creates accounts whatever the instance's
   * registration setting says (an untrusted one follows it).
   */
  @Column('boolean', { default: false })
  trusted: boolean;

  /** OIDC: the issuer (`iss` of its ID tokens). */
  @Column('text', { nullable: true })
  issuer: string | null;

  /** OIDC: where the discovery document is, when not at `<issuer>/.well-known/openid-configuration`. */
  @Column('text', { name: 'discovery_url', nullable: true })
  discoveryUrl: string | null;

  @Column('text', { name: 'client_id' })
  clientId: string;

  /**
   * Encrypted at rest (`enc:v1:<key id>:…`, platform/secret-box.ts; written by services/sso/providers.ts, which alone
   * decrypts it for the sign-in flow). A plaintext value is one stored before encryption: the API's start encrypts it.
   */
  @Column('text', { name: 'client_secret', select: false })
  clientSecret: string;

  @Column('text', { array: true, default: () => "'{}'" })
  scopes: string[];

  /** Lower-cased domains; empty: any domain. */
  @Column('text', { name: 'allowed_email_domains', array: true, default: () => "'{}'" })
  allowedEmailDomains: string[];

  /** The claim (OIDC) or userinfo field (OAuth 2.0) holding the user's groups; null: groups are not read. */
  @Column('text', { name: 'groups_claim', nullable: true })
  groupsClaim: string | null;

  @Column('jsonb', { name: 'group_mappings', default: () => "'[]'" })
  groupMappings: SsoGroupMapping[];

  /** OAuth 2.0: the provider's endpoints (OIDC reads them from discovery). */
  @Column('text', { name: 'authorize_url', nullable: true })
  authorizeUrl: string | null;

  @Column('text', { name: 'token_url', nullable: true })
  tokenUrl: string | null;

  @Column('text', { name: 'userinfo_url', nullable: true })
  userinfoUrl: string | null;

  /** OAuth 2.0, optional: a GitHub-style `/user/emails` list, for accounts whose email is private. */
  @Column('text', { name: 'emails_url', nullable: true })
  emailsUrl: string | null;

  @Column('jsonb', { name: 'userinfo_fields', nullable: true })
  userinfoFields: SsoUserinfoFields | null;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
