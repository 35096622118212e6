import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A named pointer at one version of a registered model; its moves are registry events. */
@Entity('registry_aliases')
export class RegistryAlias {
  @PrimaryColumn('uuid', { name: 'registered_model_id' })
  registeredModelId: string;

  @PrimaryColumn('text')
  alias: string;

  @Column('uuid', { name: 'version_id' })
  versionId: string;

  @Column('uuid', { name: 'updated_by', nullable: true })
  updatedBy: string | null;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}
