import { Column, Entity, Index, UpdateDateColumn } from 'typeorm';
import { BaseEntity } from './base.entity';
import type { JsonMap } from './job.entity';

export const PRIVACY_PROFILES = ['hipaa', 'gdpr', 'pci_dss', 'ccpa', 'custom'] as const;
export type PrivacyProfile = (typeof PRIVACY_PROFILES)[number];

export const POLICY_STATUSES = ['draft', 'active'] as const;
export type PolicyStatus = (typeof POLICY_STATUSES)[number];

/** A project's privacy policy: a compliance profile and its rules (PII type → action). */
@Entity('privacy_policies')
@Index(['projectId', 'createdAt'])
export class PrivacyPolicy extends BaseEntity {
  @Column('uuid', { name: 'project_id' })
  projectId: string;

  @Column('text')
  name: string;

  @Column('text', { nullable: true })
  description: string | null;

  @Column('text')
  profile: PrivacyProfile;

  @Column('text')
  status: PolicyStatus;

  @Column('jsonb', { default: {} })
  settings: JsonMap;

  @Column('uuid', { name: 'created_by', nullable: true })
  createdBy: string | null;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
