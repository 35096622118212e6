/**
 * Comparison of two stored dataset versions: schema changes, per-column moments and PSI (see psi.ts for the
 * binning and epsilon). PSI is computed inside DuckDB so high-cardinality columns never leave the database.
 */
import { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { setOwn } from '../own-keys';
import { Dtype } from './dtypes';
import { aggregateInBatches, parquetSource, quantileSql, queryOne, sqlIdent, toNumber, withConnection } from './duck';
import { sqlDouble } from './histogram';
import { PSI_BINS, PSI_EPSILON, ShiftLevel, shiftLevel } from './psi';
import { CanonicalTable, isNumeric, openCanonical } from './table';

/** Per-column differences between versions (columns present in both). */
export interface ColumnDiff {
  type: 'numeric' | 'categorical';
  v1_dtype: Dtype;
  v2_dtype: Dtype;
  v1_mean: number | null;
  v2_mean: number | null;
  v1_std: number | null;
  v2_std: number | null;
  missing_v1: number;
  missing_v2: number;
  /** (v2_mean − v1_mean) / |v1_mean| × 100; null when v1_mean is 0 or undefined. */
  mean_shift_pct: number | null;
  psi: number;
  shift_level: ShiftLevel;
}

/** Result of {@link compareVersions}. */
export interface VersionComparison {
  summary: {
    v1_rows: number;
    v2_rows: number;
    rows_diff: number;
    v1_columns: number;
    v2_columns: number;
    columns_added: string[];
    columns_removed: string[];
    /** Columns present in both versions whose dtype differs. */
    columns_type_changed: { column: string; v1_dtype: Dtype; v2_dtype: Dtype }[];
  };
  column_diffs: Record<string, ColumnDiff>;
}

const EPS = sqlDouble(PSI_EPSILON);

/** SQL summing PSI terms over a relation with columns e (expected share) and a (actual share). */
function psiSum(rel: string): string {
  return `SELECT coalesce(sum((a2 - e2) * ln(a2 / e2)), 0) AS psi FROM (
            SELECT CASE WHEN a > 0 THEN a ELSE ${EPS} END AS a2, CASE WHEN e > 0 THEN e ELSE ${EPS} END AS e2 FROM (${rel}))`;
}

/**
 * Numeric PSI with bins from v1's deciles, computed by DuckDB over relations `v1` and `v2` (views by default; a
 * wide table's caller passes relations of the column alone, which bind faster than a view of every column). With
 * `v1Rows` past `EXACT_QUANTILE_VALUES`, the deciles are estimated (bounded memory; see `quantileSql`).
 */
export async function numericPsiSql(conn: DuckDBConnection, column: string, bins = PSI_BINS, v1 = 'v1', v2 = 'v2', v1Rows = 0): Promise<number> {
  const c = `CAST(${sqlIdent(column)} AS DOUBLE)`;
  const qs = Array.from({ length: bins - 1 }, (_, i) => (i + 1) / bins).join(', ');
  const bin = `len(list_filter((SELECT edges FROM ed), e -> e < ${c}))`;
  const row = await queryOne(
    conn,
    `WITH ed AS (SELECT list_distinct(${quantileSql(c, `[${qs}]`, v1Rows)}) AS edges FROM ${v1}),
          b1 AS (SELECT ${bin} AS b, count(*) / sum(count(*)) OVER () AS e FROM ${v1} WHERE ${c} IS NOT NULL GROUP BY 1),
          b2 AS (SELECT ${bin} AS b, count(*) / sum(count(*)) OVER () AS a FROM ${v2} WHERE ${c} IS NOT NULL GROUP BY 1)
     ${psiSum('SELECT coalesce(e, 0) AS e, coalesce(a, 0) AS a FROM b1 FULL OUTER JOIN b2 USING (b)')}`,
  );
  return toNumber(row.psi) ?? 0;
}

/** Categorical PSI over category shares of relations `v1` and `v2` (values compared as text; see numericPsiSql). */
export async function categoricalPsiSql(conn: DuckDBConnection, column: string, v1 = 'v1', v2 = 'v2'): Promise<number> {
  const c = `CAST(${sqlIdent(column)} AS VARCHAR)`;
  const row = await queryOne(
    conn,
    `WITH s1 AS (SELECT ${c} AS k, count(*) / sum(count(*)) OVER () AS e FROM ${v1} WHERE ${c} IS NOT NULL GROUP BY 1),
          s2 AS (SELECT ${c} AS k, count(*) / sum(count(*)) OVER () AS a FROM ${v2} WHERE ${c} IS NOT NULL GROUP BY 1)
     ${psiSum('SELECT coalesce(e, 0) AS e, coalesce(a, 0) AS a FROM s1 FULL OUTER JOIN s2 USING (k)')}`,
  );
  return toNumber(row.psi) ?? 0;
}

/**
 * Compares two stored versions of a dataset.
 * @param pathV1 reference (older) Parquet file; PSI bins come from it
 * @param pathV2 newer Parquet file
 */
export async function compareVersions(pathV1: string, pathV2: string): Promise<VersionComparison> {
  return withConnection(async (conn) => {
    const table1 = await openCanonical(conn, pathV1);
    const table2 = await openCanonical(conn, pathV2);
    const [c1, c2] = [table1.columns, table2.columns];
    // Answered from the Parquet footers, not scans.
    const n1 = Number((await queryOne(conn, `SELECT count(*) AS n FROM ${parquetSource(pathV1)}`)).n);
    const n2 = Number((await queryOne(conn, `SELECT count(*) AS n FROM ${parquetSource(pathV2)}`)).n);
    const t1 = new Map(c1.map((c) => [c.name, c.dtype]));
    const t2 = new Map(c2.map((c) => [c.name, c.dtype]));
    const common = c1.filter((c) => t2.has(c.name)).map((c) => c.name);
    const numericCol = (name: string): boolean => isNumeric(t1.get(name) as Dtype) && isNumeric(t2.get(name) as Dtype);
    // Moments of every common column in batches of aggregates per version (see aggregateInBatches).
    const moments = (table: CanonicalTable): Promise<Record<string, DuckDBValue>> =>
      aggregateInBatches(
        conn,
        common.flatMap((name, i) => {
          const col = sqlIdent(name);
          const sqls = [`count(*) - count(${col}) AS miss${i}`];
          if (numericCol(name)) sqls.push(`avg(${col}) AS m${i}`, `stddev_samp(${col}) AS s${i}`);
          return sqls.map((sql) => ({ sql, columns: [name] }));
        }),
        table.relation,
      );
    const m1 = await moments(table1);
    const m2 = await moments(table2);
    const diffs: Record<string, ColumnDiff> = {};
    for (const [i, name] of common.entries()) {
      const d1 = t1.get(name) as Dtype;
      const d2 = t2.get(name) as Dtype;
      const numeric = numericCol(name);
      const s1 = { mean: toNumber(m1[`m${i}`] ?? null), std: toNumber(m1[`s${i}`] ?? null), missing: Number(m1[`miss${i}`]) };
      const s2 = { mean: toNumber(m2[`m${i}`] ?? null), std: toNumber(m2[`s${i}`] ?? null), missing: Number(m2[`miss${i}`]) };
      const [r1, r2] = [table1.relation([name]), table2.relation([name])];
      const psi = numeric ? await numericPsiSql(conn, name, PSI_BINS, r1, r2, n1) : await categoricalPsiSql(conn, name, r1, r2);
      setOwn(diffs, name, {
        type: numeric ? 'numeric' : 'categorical',
        v1_dtype: d1,
        v2_dtype: d2,
        v1_mean: s1.mean,
        v2_mean: s2.mean,
        v1_std: s1.std,
        v2_std: s2.std,
        missing_v1: s1.missing,
        missing_v2: s2.missing,
        mean_shift_pct:
          s1.mean !== null && s2.mean !== null && s1.mean !== 0 ? ((s2.mean - s1.mean) / Math.abs(s1.mean)) * 100 : null,
        psi,
        shift_level: shiftLevel(psi),
      });
    }
    return {
      summary: {
        v1_rows: n1,
        v2_rows: n2,
        rows_diff: n2 - n1,
        v1_columns: c1.length,
        v2_columns: c2.length,
        columns_added: c2.filter((c) => !t1.has(c.name)).map((c) => c.name),
        columns_removed: c1.filter((c) => !t2.has(c.name)).map((c) => c.name),
        columns_type_changed: common
          .filter((n) => t1.get(n) !== t2.get(n))
          .map((n) => ({ column: n, v1_dtype: t1.get(n) as Dtype, v2_dtype: t2.get(n) as Dtype })),
      },
      column_diffs: diffs,
    };
  });
}
