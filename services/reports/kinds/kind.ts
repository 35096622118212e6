import type { DataSource } from 'typeorm';
import type { JsonMap, ReportKind } from '../../../entities';
import type { Section } from '../../../engine/reports';
import type { ExperimentService } from '../../experiments';
import type { ProfileVersion } from '../data-sections';
import type { ReportOptions } from '../options';

/** What a kind reads its data with. */
export interface KindDeps {
  ds: DataSource;
  experiments: ExperimentService;
  /** Computes a dataset version's statistics when they are not stored yet (the report job passes it). */
  profileVersion?: ProfileVersion;
}

export interface KindContext extends KindDeps {
  projectId: string;
  entityId: string;
  options: ReportOptions;
}

/** A kind's document before the shared parts (title page, comments, LLM insights) are added. */
export interface BuiltReport {
  /** The entity's name, for the default title and the file name. */
  entityName: string;
  meta: [string, string][];
  sections: Section[];
  /** Headline figures: stored as the report's summary and given to the LLM summary. */
  facts: JsonMap;
}

/**
 * One report kind: finds its entity in a project and builds its sections. Adding a kind is one
 * file exporting one of these, listed in `kinds/index.ts`.
 */
export interface ReportKindDef {
  kind: ReportKind;
  /** The 404 text when the entity is not in the project. */
  notFound: string;
  exists(ds: DataSource, projectId: string, entityId: string): Promise<boolean>;
  build(ctx: KindContext): Promise<BuiltReport>;
}

/** True when `table` has a row `entityId` in the project. */
export async function inProject(ds: DataSource, table: string, projectId: string, entityId: string): Promise<boolean> {
  const rows = await ds.query(`SELECT 1 FROM ${table} WHERE id = $1 AND project_id = $2`, [entityId, projectId]);
  return rows.length > 0;
}
