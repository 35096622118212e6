import { Column, Entity, Index, UpdateDateColumn } from 'typeorm';
import { BaseEntity } from './base.entity';

@Entity('projects')
export class Project extends BaseEntity {
  @Column('text')
  name: string;

  @Column('text', { default: '' })
  description: string;

  @Column('text', { default: 'active' })
  status: string;

  @Index()
  @Column('uuid', { name: 'owner_id' })
  ownerId: string;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
