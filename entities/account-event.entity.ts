import { Column, Entity, Index } from 'typeorm';
import { BaseEntity } from './base.entity';

/** What the account activity log records: security events and changes of the account itself. */
export const ACCOUNT_EVENT_TYPES = [
  'registered',
  'email_verified',
  'login',
  'login_failed',
  'logout',
  'logout_all',
  'session_revoked',
  'api_key_created',
  'api_key_revoked',
  'password_changed',
  'password_reset_requested',
  'password_reset',
  'profile_updated',
  // Security events of the admin area (`GET /api/admin/security-events`).
  'lockout',
  'suspended',
  'reactivated',
  'superuser_granted',
  'superuser_revoked',
  'sso_login',
] as const;
export type AccountEventType = (typeof ACCOUNT_EVENT_TYPES)[number];

/**
 * One event of a user's account (`GET /api/auth/my-activity`): what happened, when, and from which
 * address and user agent. Only the account's owner reads it; it goes with the account. `details`
 * never holds a secret (no token, password or key secret; an API key is named by its prefix).
 */
@Entity('account_events')
@Index(['userId', 'createdAt'])
export class AccountEvent extends BaseEntity {
  @Column('uuid', { name: 'user_id' })
  userId: string;

  @Column('text')
  type: AccountEventType;

  @Column('text', { nullable: true })
  ip: string | null;

  @Column('text', { name: 'user_agent', nullable: true })
  userAgent: string | null;

  @Column('jsonb', { default: {} })
  details: Record<string, unknown>;
}
