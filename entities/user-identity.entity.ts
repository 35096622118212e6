import { Column, Entity, Index } from 'typeorm';
import { BaseEntity } from './base.entity';

/**
 * A user's account at a single sign-on provider: the provider's subject (`sub`, or the OAuth user id) linked to one
 * user. A subject belongs to one user only (unique per provider); a user may have one identity per provider.
 */
@Entity('user_identities')
@Index(['providerId', 'subject'], { unique: true })
@Index(['userId', 'providerId'], { unique: true })
export class UserIdentity extends BaseEntity {
  @Column('uuid', { name: 'user_id' })
  userId: string;

  @Column('uuid', { name: 'provider_id' })
  providerId: string;

  @Column('text')
  subject: string;

  /** The email the provider gave at the last login. */
  @Column('text')
  email: string;

  @Column('timestamptz', { name: 'last_login_at', nullable: true })
  lastLoginAt: Date | null;
}
