import { join } from 'node:path';
import { compareVersions } from './compare';
import { parquetSource, queryRows, sqlString, toNumber, withConnection } from './duck';
import { ingestFile } from './ingest';
import { categoricalPsi, numericPsi, psiFromShares, quantileEdges, binCounts, shiftLevel } from './psi';
import { dataset, expectClose, tempDir } from './test-helpers';

const tmp = tempDir('compare-test');
let v1 = '';
let v2 = '';

beforeAll(async () => {
  v1 = (await ingestFile(dataset('titanic'), join(tmp.dir, 'v1'))).parquet_path;
  v2 = join(tmp.dir, 'v2.parquet');
  // v2: ages shifted by +10 years, 'deck' dropped, 'source' added, 100 fewer rows, fare as text.
  await withConnection(async (conn) => {
    await conn.run(
      `COPY (SELECT * EXCLUDE (deck, age, fare), age + 10 AS age, CAST(fare AS VARCHAR) AS fare, 'kaggle' AS source
             FROM ${parquetSource(v1)} LIMIT 791) TO ${sqlString(v2)} (FORMAT parquet)`,
    );
  });
});
afterAll(() => tmp.cleanup());

async function column(path: string, name: string): Promise<number[]> {
  return withConnection(async (conn) => {
    const rows = await queryRows(conn, `SELECT "${name}" AS x FROM ${parquetSource(path)} WHERE "${name}" IS NOT NULL`);
    return rows.map((r) => toNumber(r.x) as number);
  });
}

describe('psi helpers', () => {
  test('identical distributions have PSI 0', () => {
    expect(psiFromShares([0.2, 0.3, 0.5], [0.2, 0.3, 0.5])).toBe(0);
    expect(numericPsi([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [10, 9, 8, 7, 6, 5, 4, 3, 2, 1])).toBe(0);
  });

  test('known value and epsilon for empty bins', () => {
    expectClose(psiFromShares([0.5, 0.5], [0.25, 0.75]), 0.25 * Math.log(0.5) * -1 + 0.25 * Math.log(1.5), 1e-12);
    expectClose(psiFromShares([1, 0], [0.5, 0.5]), -0.5 * Math.log(0.5) + (0.5 - 1e-4) * Math.log(0.5 / 1e-4), 1e-12);
    expectClose(categoricalPsi({ a: 50, b: 50 }, { a: 25, b: 75 }), psiFromShares([0.5, 0.5], [0.25, 0.75]), 1e-12);
  });

  test('decile edges deduplicate and bins are right-closed', () => {
    const edges = quantileEdges([0, 0, 0, 0, 0, 0, 0, 1, 2, 3]);
    expect(edges).toHaveLength(4);
    [0, 0.3, 1.2, 2.1].forEach((e, i) => expect(edges[i]).toBeCloseTo(e, 12));
    expect(binCounts([0, 1, 1.5, 5], [1, 2])).toEqual([2, 1, 1]);
  });

  test('shift levels', () => {
    expect([0.05, 0.1, 0.25, 0.2500001].map(shiftLevel)).toEqual(['low', 'moderate', 'moderate', 'high']);
  });
});

describe('compareVersions', () => {
  test('a version against itself shows no shift', async () => {
    const r = await compareVersions(v1, v1);
    expect(r.summary).toMatchObject({ v1_rows: 891, v2_rows: 891, rows_diff: 0, columns_added: [], columns_removed: [], columns_type_changed: [] });
    for (const d of Object.values(r.column_diffs)) {
      expect(d.psi).toBeCloseTo(0, 12);
      expect(d.shift_level).toBe('low');
    }
  });

  test('schema changes and shifts are reported', async () => {
    const r = await compareVersions(v1, v2);
    expect(r.summary).toMatchObject({
      v1_rows: 891, v2_rows: 791, rows_diff: -100, v1_columns: 15, v2_columns: 15,
      columns_added: ['source'], columns_removed: ['deck'],
    });
    expect(r.summary.columns_type_changed).toEqual([{ column: 'fare', v1_dtype: 'float64', v2_dtype: 'object' }]);
    const age = r.column_diffs.age;
    expect(age.type).toBe('numeric');
    expect(age.shift_level).toBe('high');
    expectClose(age.mean_shift_pct, (((age.v2_mean as number) - (age.v1_mean as number)) / (age.v1_mean as number)) * 100, 1e-12);
    expect(age.missing_v1).toBe(177);
    expect(r.column_diffs.sex.type).toBe('categorical');
    expect(r.column_diffs.sex.shift_level).toBe('low');
    expect(r.column_diffs.fare.type).toBe('categorical');
  });

  test('SQL PSI equals the array helper on the same data', async () => {
    const r = await compareVersions(v1, v2);
    const ref = await column(v1, 'age');
    const cur = await column(v2, 'age');
    expectClose(r.column_diffs.age.psi, numericPsi(ref, cur), 1e-9, 'age psi');
    const pclass1 = await column(v1, 'pclass');
    const pclass2 = await column(v2, 'pclass');
    expectClose(r.column_diffs.pclass.psi, numericPsi(pclass1, pclass2), 1e-9, 'pclass psi');
  });
});
