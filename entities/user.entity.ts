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

  @Column('timestamptz', { name: 'email_verified_at', nullable: true })
  emailVerifiedAt: Date | null;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
