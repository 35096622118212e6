import type { DataSource } from 'typeorm';
import { ExperimentLog } from '../entities';

/** Appends lines to an experiment's log (`service` lines always shown, `engine` on request). */
export async function appendExperimentLog(ds: DataSource, experimentId: string, source: 'service' | 'engine', lines: string[], level: ExperimentLog['level'] = 'info'): Promise<void> {
  if (!lines.length) return;
  await ds
    .getRepository(ExperimentLog)
    .createQueryBuilder()
    .insert()
    .values(lines.map((message) => ({ experimentId, source, level, message })))
    .execute();
}
