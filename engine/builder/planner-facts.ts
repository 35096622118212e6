/**
 * Everything the planners (planner.ts, services/builder/llm-planner.ts) know about a step's input table, gathered from
 * its Parquet file: columns, profile, quality report and, with a target, the columns that leak it.
 */
import { detectLeakage, type LeakageFinding } from '../automl/leakage';
import { detectProblemKind } from '../automl/frame';
import { readParquetFrameWithin } from '../automl/driver/read';
import { withConnection } from '../data/duck';
import { analyze } from '../data/profile';
import { qualityReport } from '../data/quality';
import { openCanonical } from '../data/table';
import type { PlannerFacts } from './planner';

/**
 * Cells read for the leakage check: it scores at most 5,000 sampled rows (fewer on wide tables) anyway, so a seeded
 * sample of this many cells is all it needs, however tall the table.
 */
const LEAKAGE_CELLS = 2_000_000;
/** Seed of the leakage check's folds and sample: fixed, so the same table gets the same findings (and the same plan). */
const LEAKAGE_SEED = 42;

/**
 * The planner's facts about the table at `parquetPath` (a canonical table, as ingest and the builder write them).
 * Leakage is looked for only with a target, and on a seeded sample of rows.
 * @throws DataValidationError when the file cannot be read, or `target` is not one of its columns
 */
export async function gatherPlannerFacts(parquetPath: string, target: string | null): Promise<PlannerFacts> {
  const columns = await withConnection(async (conn) => (await openCanonical(conn, parquetPath)).columns);
  const quality = await qualityReport(parquetPath, {}, { target });
  const profile = await analyze(parquetPath);
  const leakage = target === null ? undefined : await leakageOf(parquetPath, target);
  return { columns, profile, quality, target, rowCount: profile.row_count, leakage };
}

/** Columns that alone predict `target`; none when the target cannot be modelled (one class, a datetime, empty). */
async function leakageOf(parquetPath: string, target: string): Promise<LeakageFinding[]> {
  const { frame } = await readParquetFrameWithin(parquetPath, LEAKAGE_CELLS);
  const column = frame.columns[frame.names.indexOf(target)];
  if (!column) return [];
  let kind;
  try {
    kind = detectProblemKind(column);
  } catch {
    // A target no model could learn has nothing to leak into; the planner says nothing about leakage then.
    return [];
  }
  return detectLeakage(frame, target, kind, { seed: LEAKAGE_SEED });
}
