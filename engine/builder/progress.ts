/**
 * Progress of the DuckDB statement running on a connection, read while it runs. One statement (the deduplication of a
 * 1 GB table, the final COPY) can take minutes; a job activity heartbeats from its progress reports, so an execution
 * must report from inside such a statement, not only between them. DuckDB tracks a running query's progress (rows
 * processed of the rows its scans will read) once its progress bar is enabled; printing stays off.
 */
import { DuckDBConnection } from '@duckdb/node-api';

/** Default time between two reports while a statement runs. */
export const STATEMENT_PROGRESS_MS = 2000;

/** Makes DuckDB track the progress of the statements of `conn` (without printing a bar). */
export async function trackStatementProgress(conn: DuckDBConnection): Promise<void> {
  await conn.run('SET enable_progress_bar = true');
  await conn.run('SET enable_progress_bar_print = false');
}

/** The running statement's progress in whole percent, or null when DuckDB does not know it (yet). */
export function statementPercent(conn: DuckDBConnection): number | null {
  const p = conn.progress.percentage;
  return Number.isFinite(p) && p >= 0 ? Math.min(100, Math.floor(p)) : null;
}

/**
 * Runs `work` (statements on `conn`) and calls `report` every `everyMs` while it runs, with the progress of the
 * statement in flight. A report is made even when DuckDB does not know the percentage (null): the work is running.
 */
export async function reportWhileRunning<T>(conn: DuckDBConnection, everyMs: number, report: (percent: number | null) => void, work: () => Promise<T>): Promise<T> {
  const timer = setInterval(() => report(statementPercent(conn)), Math.max(1, everyMs));
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
