import { Column, Entity, Index } from 'typeorm';
import { BaseEntity } from './base.entity';

/** A cookie login. Only the SHA-256 of the cookie token is stored. */
@Entity('auth_sessions')
export class AuthSession extends BaseEntity {
  @Index()
  @Column('uuid', { name: 'user_id' })
  userId: string;

  @Column('text', { name: 'token_hash', unique: true, select: false })
  tokenHash: string;

  /** Double-submit CSRF value; also sent as the readable `csrf_token` cookie. */
  @Column('text', { name: 'csrf_token', select: false })
  csrfToken: string;

  @Column('boolean', { default: false })
  remember: boolean;

  @Column('text', { name: 'user_agent', nullable: true })
  userAgent: string | null;

  @Column('text', { nullable: true })
  ip: string | null;

  @Column('timestamptz', { name: 'expires_at' })
  expiresAt: Date;

  @Column('timestamptz', { name: 'last_seen_at', nullable: true })
  lastSeenAt: Date | null;

  @Column('timestamptz', { name: 'revoked_at', nullable: true })
  revokedAt: Date | null;
}
