/**
 * What an execution changed, as a person reads it beside the preview: rows and columns before and after, columns
 * added and removed, type changes and changes in missing values (for columns on both sides). JSON-safe.
 */
import { ColumnInfo, Dtype } from '../data/dtypes';
import { OperationKind } from './operations';

export interface ExecutionSummary {
  rows_before: number;
  rows_after: number;
  columns_before: ColumnInfo[];
  columns_after: ColumnInfo[];
  /** Columns of the result the input did not have, in result order (a rename shows as one removed, one added). */
  added: string[];
  /** Columns of the input the result does not have, in input order. */
  removed: string[];
  type_changes: { column: string; from: Dtype; to: Dtype }[];
  /** Missing values per column where their count changed. */
  null_changes: { column: string; before: number; after: number }[];
  /** Rows after each operation, in order. */
  operations: { op: OperationKind; rows_after: number }[];
}

/** One side of an execution: its rows, columns and missing values per column. */
export interface TableFacts {
  rows: number;
  columns: ColumnInfo[];
  nulls: Map<string, number>;
}

/** The summary of an execution from `before` to `after` through operations that left `operations[i].rows_after`. */
export function summarize(before: TableFacts, after: TableFacts, operations: ExecutionSummary['operations']): ExecutionSummary {
  const beforeBy = new Map(before.columns.map((c) => [c.name, c]));
  const afterNames = new Set(after.columns.map((c) => c.name));
  const kept = after.columns.filter((c) => beforeBy.has(c.name));
  return {
    rows_before: before.rows,
    rows_after: after.rows,
    columns_before: before.columns,
    columns_after: after.columns,
    added: after.columns.filter((c) => !beforeBy.has(c.name)).map((c) => c.name),
    removed: before.columns.filter((c) => !afterNames.has(c.name)).map((c) => c.name),
    type_changes: kept.filter((c) => beforeBy.get(c.name)!.dtype !== c.dtype).map((c) => ({ column: c.name, from: beforeBy.get(c.name)!.dtype, to: c.dtype })),
    null_changes: kept.map((c) => ({ column: c.name, before: before.nulls.get(c.name) ?? 0, after: after.nulls.get(c.name) ?? 0 })).filter((c) => c.before !== c.after),
    operations,
  };
}
