import { Column, Entity, Index } from 'typeorm';
import { BaseEntity } from './base.entity';

/** Metadata of a file in the artifact store; the bytes live under `storage_key`. */
@Entity('artifacts')
export class Artifact extends BaseEntity {
  @Index()
  @Column('uuid', { name: 'project_id' })
  projectId: string;

  /** What the file is: dataset_file, model_binary, onnx, report, project_export, … */
  @Column('text')
  kind: string;

  @Column('text', { name: 'owner_type', nullable: true })
  ownerType: string | null;

  @Column('uuid', { name: 'owner_id', nullable: true })
  ownerId: string | null;

  @Column('text')
  filename: string;

  @Column('text', { name: 'content_type' })
  contentType: string;

  @Column('bigint', { name: 'size_bytes', transformer: { to: (v: number) => v, from: (v: string) => Number(v) } })
  sizeBytes: number;

  @Column('text', { nullable: true })
  sha256: string | null;

  @Index('idx_artifacts_storage_key')
  @Column('text', { name: 'storage_key' })
  storageKey: string;
}
