import { Column, Entity, Index } from 'typeorm';
import { JobTrackedEntity } from './job-tracked.entity';
import type { JsonMap } from './job.entity';

/**
 * A session's status: `open` while its steps are worked on; `finalizing` while a `builder_run` job commits the result;
 * `finalized` once the result version exists; `failed` when that job failed (finalizing again is allowed).
 */
export const BUILDER_SESSION_STATUSES = ['open', 'finalizing', 'finalized', 'failed'] as const;
export type BuilderSessionStatus = (typeof BUILDER_SESSION_STATUSES)[number];

/**
 * A data-preparation session on one dataset version (issue 35): five ordered steps (builder-step.entity.ts), a chat
 * (builder-message.entity.ts), and once finalized the recipe it ran and the version it produced. The source version is
 * never changed. Its status follows its finalize job (`services/job-kinds.ts`, `builder_run`).
 */
@Entity('builder_sessions')
@Index(['projectId', 'createdAt'])
export class BuilderSession extends JobTrackedEntity<BuilderSessionStatus> {
  @Column('uuid', { name: 'project_id' })
  projectId: string;

  @Column('uuid', { name: 'dataset_id' })
  datasetId: string;

  @Column('uuid', { name: 'source_version_id' })
  sourceVersionId: string;

  @Column('text')
  name: string;

  @Column('text', { name: 'target_column', nullable: true })
  targetColumn: string | null;

  /** Whether an LLM may see up to 20 sample rows of a step's input (else only the profile). */
  @Column('boolean', { name: 'allow_sample', default: false })
  allowSample: boolean;

  /** The version finalize committed (null until then, or once that version is deleted). */
  @Column('uuid', { name: 'result_version_id', nullable: true })
  resultVersionId: string | null;

  /** The executed steps' operations in order, as finalize stored them (`{step, operations}[]`). */
  @Column('jsonb', { nullable: true })
  recipe: JsonMap[] | null;

  /** False when a step's output was uploaded rather than computed: such a recipe cannot replay. */
  @Column('boolean', { nullable: true })
  replayable: boolean | null;

  @Column('uuid', { name: 'created_by', nullable: true })
  createdBy: string | null;
}
