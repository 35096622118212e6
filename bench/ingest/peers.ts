/**
 * The DuckDB peers the ingest and analyze benchmarks are measured against: each runs in a fresh in-memory
 * instance (nothing cached between them) in the benchmark's own process.
 */
import { DuckDBInstance } from '@duckdb/node-api';

const quote = (s: string): string => `'${s.replace(/'/g, "''")}'`;

/** Seconds taken by `sqls`, run in order on a fresh in-memory DuckDB instance. */
export async function timeDuckDb(sqls: string[]): Promise<number> {
  const inst = await DuckDBInstance.create(':memory:');
  const conn = await inst.connect();
  try {
    const t0 = performance.now();
    for (const sql of sqls) await conn.run(sql);
    return (performance.now() - t0) / 1000;
  } finally {
    conn.closeSync();
    inst.closeSync();
  }
}

/** DuckDB materializing the CSV as a table (the primary peer). */
export const materializeCsv = (csv: string): string[] => [`CREATE TABLE t AS SELECT * FROM read_csv_auto(${quote(csv)})`];

/** DuckDB converting the CSV straight to Parquet with its defaults (the second peer). */
export const csvToParquet = (csv: string, out: string): string[] => [`COPY (SELECT * FROM read_csv_auto(${quote(csv)})) TO ${quote(out)} (FORMAT parquet)`];

/** DuckDB's SUMMARIZE of a Parquet file, fully materialized. */
export const summarizeParquet = (pq: string): string[] => [`CREATE TABLE s AS SELECT * FROM (SUMMARIZE SELECT * FROM read_parquet(${quote(pq)}))`];
