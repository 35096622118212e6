import { Column, Entity, Index } from 'typeorm';
import { BaseEntity } from './base.entity';

/** A Bearer key `<prefix>.<secret>`: the prefix is stored plain (lookup), the secret hashed. */
@Entity('api_keys')
export class ApiKey extends BaseEntity {
  @Index()
  @Column('uuid', { name: 'user_id' })
  userId: string;

  @Column('text')
  name: string;

  @Column('text', { unique: true })
  prefix: string;

  @Column('text', { name: 'secret_hash', select: false })
  secretHash: string;

  @Column('jsonb')
  scopes: string[];

  @Column('timestamptz', { name: 'last_used_at', nullable: true })
  lastUsedAt: Date | null;

  @Column('timestamptz', { name: 'revoked_at', nullable: true })
  revokedAt: Date | null;
}
