/**
 * The yardstick: the recipe's five operations (recipe.ts) as DuckDB SQL written by hand for this one table, under the
 * same connection settings as the engine (`withConnection`: 512 MB memory limit, spilling to disk, all cores). Three
 * statements: the duplicates removed into a Parquet file (keeping each group's first row number, file order kept),
 * the median and the top categories read from it, then one pass writing the result as the engine writes Parquet
 * (ZSTD level 1).
 */
import { join, dirname } from 'node:path';
import { rm } from 'node:fs/promises';
// The peer runs under exactly the engine's connection settings, so it takes the engine's own connection helper.
// eslint-disable-next-line no-restricted-imports
import { queryOne, queryRows, sqlIdent, sqlString, withConnection } from '../../engine/data/duck';

const COLUMNS = ['order_id', 'customer', 'signup', 'channel', 'income', 'amount', 'quantity', 'score', 'source', 'note'];

/** Runs the hand-written recipe from `input` into `output`; returns its row count and per-statement seconds. */
export async function runPeer(input: string, output: string): Promise<{ rows_after: number; seconds: Record<string, number> }> {
  const deduped = join(dirname(output), 'peer-deduplicated.parquet');
  const seconds: Record<string, number> = {};
  const timed = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    const out = await fn();
    seconds[name] = (performance.now() - t0) / 1000;
    return out;
  };
  try {
    return await withConnection(async (conn) => {
      const cols = COLUMNS.map(sqlIdent).join(', ');
      await timed('deduplicate', () =>
        conn.run(
          `COPY (SELECT ${cols}, min(file_row_number) AS rn FROM read_parquet(${sqlString(input)}, file_row_number = true) GROUP BY ALL ORDER BY rn)
           TO ${sqlString(deduped)} (FORMAT parquet, COMPRESSION zstd, COMPRESSION_LEVEL 1)`,
        ),
      );
      const src = `read_parquet(${sqlString(deduped)})`;
      const { median } = await timed('median', () => queryOne(conn, `SELECT median(income) AS median FROM ${src}`));
      const top = await timed('categories', () => queryRows(conn, `SELECT channel, count(*) AS n FROM ${src} GROUP BY channel ORDER BY n DESC, channel LIMIT 12`));
      const oneHot = top.map((r) => `CAST(channel = ${sqlString(String(r.channel))} AS INTEGER) AS ${sqlIdent(`channel_${String(r.channel)}`)}`);
      const select = [
        'order_id',
        'customer',
        `try_strptime(signup, '%d/%m/%Y') AS signup`,
        `CAST(income IS NULL AS INTEGER) AS income_missing`,
        `coalesce(income, ${Number(median)}) AS income`,
        'amount',
        'quantity',
        'score',
        'source',
        'note',
        'amount / greatest(quantity, 1) AS amount_per_item',
        ...oneHot,
      ];
      await timed('write', () => conn.run(`COPY (SELECT ${select.join(', ')} FROM ${src} ORDER BY rn) TO ${sqlString(output)} (FORMAT parquet, COMPRESSION zstd, COMPRESSION_LEVEL 1)`));
      const n = await queryOne(conn, `SELECT count(*) AS n FROM read_parquet(${sqlString(output)})`);
      return { rows_after: Number(n.n), seconds };
    });
  } finally {
    await rm(deduped, { force: true });
  }
}
