import { parquetSource, queryOne, sqlIdent, withConnection } from './duck';

/** How many distinct values a column holds, and how many of its rows hold a value at all. */
export async function columnCardinality(parquetPath: string, column: string): Promise<{ distinct: number; present: number }> {
  const row = await withConnection((conn) =>
    queryOne(conn, `SELECT count(DISTINCT ${sqlIdent(column)})::BIGINT AS n, count(${sqlIdent(column)})::BIGINT AS present FROM ${parquetSource(parquetPath)}`),
  );
  return { distinct: Number(row.n), present: Number(row.present) };
}
