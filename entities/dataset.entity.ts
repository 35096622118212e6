import { Column, Entity, Index, UpdateDateColumn } from 'typeorm';
import { BaseEntity } from './base.entity';

/** A versioned table; its versions hold the data. */
@Entity('datasets')
export class Dataset extends BaseEntity {
  @Index()
  @Column('uuid', { name: 'project_id' })
  projectId: string;

  @Column('text')
  name: string;

  @Column('text', { default: '' })
  description: string;

  @Column('uuid', { name: 'created_by', nullable: true })
  createdBy: string | null;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
