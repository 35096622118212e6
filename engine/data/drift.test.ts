import { join } from 'node:path';
import { driftReport, referenceDistribution, DriftFeatureSpec } from './drift';
import { parquetSource, queryRows, sqlString, toJsonSafe, withConnection } from './duck';
import { ingestFile } from './ingest';
import { numericPsi } from './psi';
import { dataset, expectClose, tempDir } from './test-helpers';

const tmp = tempDir('drift-test');
let titanic = '';
let rows: Record<string, unknown>[] = [];
const FEATURES: DriftFeatureSpec[] = [
  { name: 'age', dtype: 'float64' },
  { name: 'fare', dtype: 'float64' },
  { name: 'sex', dtype: 'category' },
  { name: 'embark_town', dtype: 'category' },
  { name: 'alone', dtype: 'bool' },
];

beforeAll(async () => {
  titanic = (await ingestFile(dataset('titanic'), join(tmp.dir, 'titanic'))).parquet_path;
  rows = await withConnection(async (conn) =>
    (await queryRows(conn, `SELECT age, fare, sex, embark_town, alone FROM ${parquetSource(titanic)}`)).map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, toJsonSafe(v)]))),
  );
});
afterAll(() => tmp.cleanup());

describe('drift', () => {
  test('the training rows themselves show no drift, missing values included', async () => {
    const ref = await referenceDistribution(titanic, FEATURES);
    expect(ref.rows).toBe(891);
    const report = driftReport(ref, FEATURES, rows);
    expect(report.inference_rows).toBe(891);
    for (const f of FEATURES) expectClose(report.features[f.name].psi, 0, 1e-12, f.name);
    expect(report.overall_status).toBe('low');
  });

  test('numeric PSI on present values equals the array helper when neither side has missing values', async () => {
    const fares = rows.map((r) => r.fare as number);
    const shifted = fares.map((x) => x * 1.5 + 3);
    const ref = await referenceDistribution(titanic, [{ name: 'fare', dtype: 'float64' }]);
    const report = driftReport(ref, [{ name: 'fare', dtype: 'float64' }], shifted.map((fare) => ({ fare })));
    expectClose(report.features.fare.psi, numericPsi(fares, shifted), 1e-9);
    expect(report.features.fare.status).toBe('high');
  });

  test('a shifted sample is high, a resample of the training rows stays low', async () => {
    const ref = await referenceDistribution(titanic, FEATURES);
    // Every other training row: the same population.
    const same = driftReport(
      ref,
      FEATURES,
      rows.filter((_, i) => i % 2 === 0),
    );
    expect(same.overall_status).toBe('low');
    const shifted = rows.map((r) => ({ ...r, age: typeof r.age === 'number' ? r.age + 30 : r.age, sex: 'female' }));
    const report = driftReport(ref, FEATURES, shifted);
    expect(report.features.age.status).toBe('high');
    expect(report.features.sex.status).toBe('high');
    expect(report.features.fare.status).toBe('low');
    expect(report.overall_status).toBe('high');
  });

  test('a feature that arrives empty has drifted; values as strings are read as numbers', async () => {
    const ref = await referenceDistribution(titanic, FEATURES);
    const report = driftReport(
      ref,
      FEATURES,
      rows.map((r) => ({ ...r, embark_town: null, fare: String(r.fare) })),
    );
    expect(report.features.embark_town.status).toBe('high');
    expectClose(report.features.fare.psi, 0, 1e-12);
  });

  test('rare and unseen categories share the "other" bucket', async () => {
    const path = join(tmp.dir, 'tail.parquet');
    await withConnection((conn) =>
      conn.run(`COPY (SELECT CASE WHEN i % 2 = 0 THEN 'common' ELSE 'id-' || i END AS k FROM range(1000) t(i)) TO ${sqlString(path)} (FORMAT parquet)`),
    );
    const features: DriftFeatureSpec[] = [{ name: 'k', dtype: 'object' }];
    const ref = await referenceDistribution(path, features, { maxCategories: 5 });
    const bins = ref.features.k;
    expect(bins.kind === 'categorical' && bins.categories.length).toBe(5);
    // New ids never seen in training: still the same share of "not common" values, so no drift.
    const current = Array.from({ length: 1000 }, (_, i) => ({ k: i % 2 === 0 ? 'common' : `new-${i}` }));
    expect(driftReport(ref, features, current).features.k.psi).toBeLessThan(0.1);
  });

  test('features absent from the training file are left out; keys like __proto__ are plain names', async () => {
    const features: DriftFeatureSpec[] = [{ name: 'age', dtype: 'float64' }, { name: '__proto__', dtype: 'float64' }];
    const ref = await referenceDistribution(titanic, features);
    const report = driftReport(ref, features, rows);
    expect(Object.keys(report.features)).toEqual(['age']);
  });
});
