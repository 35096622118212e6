import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * A project's privacy key material, generated on first use and never answered by any endpoint: the
 * HMAC secret of `hash` and `pseudonymize` (so the same value gets the same token or fake across
 * the project's sessions) and the AES-256-GCM key of `encrypt` with its key id.
 */
@Entity('privacy_project_secrets')
export class PrivacyProjectSecret {
  @PrimaryColumn('uuid', { name: 'project_id' })
  projectId: string;

  @Column('bytea', { name: 'hmac_secret' })
  hmacSecret: Buffer;

  @Column('bytea', { name: 'encryption_key' })
  encryptionKey: Buffer;

  @Column('text', { name: 'key_id' })
  keyId: string;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;
}
