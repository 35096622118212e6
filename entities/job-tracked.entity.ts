import { Column, UpdateDateColumn } from 'typeorm';
import { BaseEntity } from './base.entity';

/**
 * What a job writes on the rows it moves: the job itself and the resources that follow it (an experiment, a report,
 * a privacy session, a synthgen model or synthgen job; `services/job-kinds.ts`). Declared once, so the one writer of
 * these columns (`services/job-status.ts`) reaches them through the entity's metadata, whatever the table. `S` is the
 * row's own spelling of its status.
 */
export abstract class JobTrackedEntity<S extends string = string> extends BaseEntity {
  @Column('text')
  status: S;

  @Column('text', { nullable: true })
  error: string | null;

  @Column('timestamptz', { name: 'started_at', nullable: true })
  startedAt: Date | null;

  @Column('timestamptz', { name: 'finished_at', nullable: true })
  finishedAt: Date | null;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
