import { Column, Entity, Index } from 'typeorm';
import { BaseEntity } from './base.entity';

export type EmailTokenPurpose = 'verify_email' | 'reset_password';

/** Single-use token mailed to a user; stored as its SHA-256. */
@Entity('email_tokens')
export class EmailToken extends BaseEntity {
  @Index()
  @Column('uuid', { name: 'user_id' })
  userId: string;

  @Column('text')
  purpose: EmailTokenPurpose;

  @Column('text', { name: 'token_hash', unique: true })
  tokenHash: string;

  @Column('timestamptz', { name: 'expires_at' })
  expiresAt: Date;

  @Column('timestamptz', { name: 'used_at', nullable: true })
  usedAt: Date | null;
}
