import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { JsonMap } from './job.entity';

/** Per-project thresholds of the dataset quality checks (missing keys take the defaults). */
@Entity('project_quality_policies')
export class ProjectQualityPolicy {
  @PrimaryColumn('uuid', { name: 'project_id' })
  projectId: string;

  @Column('jsonb')
  policy: JsonMap;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
