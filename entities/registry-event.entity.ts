import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { JsonMap } from './job.entity';

/**
 * One thing that happened in a project's registry (append-only): a version created, an alias moved, a transition
 * requested or decided, and what other parts record (rollouts, retraining). Each is sent to the project's channels.
 */
@Entity('registry_events')
@Index(['registeredModelId', 'id'])
@Index(['projectId', 'id'])
export class RegistryEvent {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column('uuid', { name: 'project_id' })
  projectId: string;

  /** Null for a project-wide event. */
  @Column('uuid', { name: 'registered_model_id', nullable: true })
  registeredModelId: string | null;

  @Column('uuid', { name: 'version_id', nullable: true })
  versionId: string | null;

  /** A registry kind (REGISTRY_EVENT_KINDS) or another part's. */
  @Column('text')
  kind: string;

  /** Null: the system. */
  @Column('uuid', { name: 'actor_id', nullable: true })
  actorId: string | null;

  @Column('jsonb', { default: () => "'{}'" })
  details: JsonMap;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;
}
