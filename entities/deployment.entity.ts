import { Column, Entity, Index, UpdateDateColumn } from 'typeorm';
import { BaseEntity } from './base.entity';
import type { JsonMap } from './job.entity';

export const DEPLOYMENT_STAGES = ['staging', 'production', 'archived'] as const;
export type DeploymentStage = (typeof DEPLOYMENT_STAGES)[number];

/**
 * A model served at `/api/mlops/deployments/{id}/predict`. At most one active production
 * deployment per project (a partial unique index); archived deployments never serve.
 */
@Entity('deployments')
export class Deployment extends BaseEntity {
  @Index()
  @Column('uuid', { name: 'project_id' })
  projectId: string;

  @Column('uuid', { name: 'model_id' })
  modelId: string;

  @Column('text')
  name: string;

  @Column('text')
  stage: DeploymentStage;

  @Column('boolean', { name: 'is_active', default: true })
  isActive: boolean;

  /** For a staging deployment under 100: the share of the production deployment's requests it takes. */
  @Column('integer', { name: 'traffic_percent', default: 100 })
  trafficPercent: number;

  /** Privacy options and `store_payload` (see services/deployments.ts `DeploymentOptions`). */
  @Column('jsonb', { default: {} })
  config: JsonMap;

  @Column('uuid', { name: 'created_by', nullable: true })
  createdBy: string | null;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
