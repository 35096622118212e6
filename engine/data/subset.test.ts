import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { preview } from './export';
import { ingestFile } from './ingest';
import { csvToParquet, writeRankedRows } from './subset';
import { dataset, tempDir } from './test-helpers';
import { withConnection, queryRows, sqlString } from './duck';

const tmp = tempDir('subset-test');
let titanic = '';
beforeAll(async () => {
  titanic = (await ingestFile(dataset('titanic'), join(tmp.dir, 'titanic'))).parquet_path;
});
afterAll(() => tmp.cleanup());

/** The file row numbers a Parquet file of titanic rows came from, matched on every column. */
async function rowsOf(file: string): Promise<string[]> {
  const rows = await preview(file, 10_000);
  return rows.map((r) => JSON.stringify(r));
}

describe('writeRankedRows', () => {
  it('splits a table into disjoint, reproducible rank ranges that cover it', async () => {
    const holdout = join(tmp.dir, 'holdout.parquet');
    const train = join(tmp.dir, 'train.parquet');
    expect(await writeRankedRows(titanic, holdout, { seed: 17, offset: 0, limit: 89 })).toBe(89);
    expect(await writeRankedRows(titanic, train, { seed: 17, offset: 89, limit: 10_000 })).toBe(802);
    const h = await rowsOf(holdout);
    const t = await rowsOf(train);
    const all = await rowsOf(titanic);
    // titanic has duplicate rows: compare as multisets.
    expect([...h, ...t].sort()).toEqual([...all].sort());
    const again = join(tmp.dir, 'holdout-again.parquet');
    await writeRankedRows(titanic, again, { seed: 17, offset: 0, limit: 89 });
    expect(await rowsOf(again)).toEqual(h);
    const other = join(tmp.dir, 'holdout-other.parquet');
    await writeRankedRows(titanic, other, { seed: 18, offset: 0, limit: 89 });
    expect(await rowsOf(other)).not.toEqual(h);
  });
});

describe('csvToParquet', () => {
  it('types each column by its dtype and reads empty fields as missing', async () => {
    const csv = join(tmp.dir, 'typed.csv');
    writeFileSync(csv, 'n,x,flag,at,label\n3,1.5,true,2024-01-02 03:04:05,"a, b"\n,,false,2024-01-02 03:04:05.250,\n-7,2e3,,,c\n');
    const out = join(tmp.dir, 'typed.parquet');
    await csvToParquet(csv, out, [
      { name: 'n', dtype: 'int64' },
      { name: 'x', dtype: 'float64' },
      { name: 'flag', dtype: 'bool' },
      { name: 'at', dtype: 'datetime64' },
      { name: 'label', dtype: 'category' },
    ]);
    const types = await withConnection(async (conn) => (await queryRows(conn, `DESCRIBE SELECT * FROM read_parquet(${sqlString(out)})`)).map((r) => `${String(r.column_name)}:${String(r.column_type)}`));
    expect(types).toEqual(['n:BIGINT', 'x:DOUBLE', 'flag:BOOLEAN', 'at:TIMESTAMP', 'label:VARCHAR']);
    expect(await preview(out)).toEqual([
      { n: 3, x: 1.5, flag: true, at: '2024-01-02T03:04:05.000Z', label: 'a, b' },
      { n: null, x: null, flag: false, at: '2024-01-02T03:04:05.250Z', label: null },
      { n: -7, x: 2000, flag: null, at: null, label: 'c' },
    ]);
  });
});
