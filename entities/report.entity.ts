import { Column, Entity, Index, UpdateDateColumn } from 'typeorm';
import { BaseEntity } from './base.entity';
import type { JsonMap } from './job.entity';

export const REPORT_KINDS = ['experiment', 'model', 'project', 'deployment', 'synthgen'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export const REPORT_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'canceled'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/**
 * A document about one entity of a project (an experiment, a model, the project, a deployment,
 * a synthgen job), rendered by a `report_generate` job into one artifact (HTML, PDF or DOCX).
 */
@Entity('reports')
@Index(['projectId', 'createdAt'])
export class Report extends BaseEntity {
  @Column('uuid', { name: 'project_id' })
  projectId: string;

  @Column('text')
  kind: ReportKind;

  @Column('uuid', { name: 'entity_id' })
  entityId: string;

  @Column('text')
  status: ReportStatus;

  /** The options it was asked with (format, title, comments, include_* switches, llm_insights). */
  @Column('jsonb')
  options: JsonMap;

  /** What the document says in brief (its sections, headline figures), once rendered. */
  @Column('jsonb', { default: {} })
  summary: JsonMap;

  @Column('uuid', { name: 'artifact_id', nullable: true })
  artifactId: string | null;

  @Column('uuid', { name: 'job_id', nullable: true })
  jobId: string | null;

  @Column('text', { nullable: true })
  error: string | null;

  @Column('uuid', { name: 'created_by', nullable: true })
  createdBy: string | null;

  @Column('timestamptz', { name: 'started_at', nullable: true })
  startedAt: Date | null;

  @Column('timestamptz', { name: 'finished_at', nullable: true })
  finishedAt: Date | null;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
