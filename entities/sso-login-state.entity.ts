import { Column, Entity, Index } from 'typeorm';
import { BaseEntity } from './base.entity';

/**
 * One sign-in in flight: made by `…/authorize`, spent (deleted) by the first `…/callback` that names its state. The
 * state is stored as its SHA-256 and bound to the browser that started it (the SHA-256 of its `sso_binding` cookie);
 * the PKCE verifier and the nonce stay on the server. Rows live minutes.
 */
@Entity('sso_login_states')
export class SsoLoginState extends BaseEntity {
  @Column('uuid', { name: 'provider_id' })
  providerId: string;

  @Index({ unique: true })
  @Column('text', { name: 'state_hash' })
  stateHash: string;

  @Column('text', { name: 'browser_hash' })
  browserHash: string;

  @Column('text', { name: 'code_verifier' })
  codeVerifier: string;

  @Column('text')
  nonce: string;

  /** Where the web application goes after the login (a path of its own). */
  @Column('text', { name: 'next_path' })
  nextPath: string;

  @Index()
  @Column('timestamptz', { name: 'expires_at' })
  expiresAt: Date;
}
