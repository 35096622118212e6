import { Column, Entity, UpdateDateColumn } from 'typeorm';
import { BaseEntity } from './base.entity';

@Entity('users')
export class User extends BaseEntity {
  /** Stored lower-cased; unique. */
  @Column('text', { unique: true })
  email: string;

  @Column('text')
  name: string;

  /** argon2id hash; never selected unless asked for. */
  @Column('text', { name: 'password_hash', select: false })
  passwordHash: string;

  @Column('boolean', { name: 'is_superuser', default: false })
  isSuperuser: boolean;

  /** Set by an admin: while set, the user's sessions and API keys answer 401 and login refuses them. */
  @Column('timestamptz', { name: 'suspended_at', nullable: true })
  suspendedAt: Date | null;

  /** The user's own plan (services/plans.ts `planOfUser`); null: their teams', else the default plan. */
  @Column('uuid', { name: 'plan_id', nullable: true })
  planId: string | null;

  @Column('timestamptz', { name: 'email_verified_at', nullable: true })
  emailVerifiedAt: Date | null;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
