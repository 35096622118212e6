import { Column, Entity, Index } from 'typeorm';
import { BaseEntity } from './base.entity';
import type { JsonMap } from './job.entity';

export interface ColumnSchema {
  name: string;
  dtype: string;
}

/**
 * One immutable upload of a dataset, stored as Parquet (artifact `artifact_id`) whatever the
 * uploaded format. Version numbers start at 0 and only grow.
 */
@Entity('dataset_versions')
@Index(['datasetId', 'version'], { unique: true })
export class DatasetVersion extends BaseEntity {
  @Column('uuid', { name: 'dataset_id' })
  datasetId: string;

  @Column('integer')
  version: number;

  @Column('text', { default: '' })
  description: string;

  @Column('bigint', { name: 'row_count', transformer: { to: (v: number) => v, from: (v: string) => Number(v) } })
  rowCount: number;

  @Column('integer', { name: 'column_count' })
  columnCount: number;

  @Column('jsonb')
  columns: ColumnSchema[];

  @Column('uuid', { name: 'artifact_id' })
  artifactId: string;

  /** What was uploaded: format, encoding, delimiter, header, original size and name. */
  @Column('jsonb', { name: 'source' })
  source: JsonMap;

  /** Quality report computed at upload: {overall_score, checks}. */
  @Column('jsonb')
  quality: JsonMap;

  /** Statistics of `analyze`, computed on first request and kept (versions never change). */
  @Column('jsonb', { nullable: true })
  statistics: JsonMap | null;

  @Column('uuid', { name: 'created_by', nullable: true })
  createdBy: string | null;
}
