import { fmtNum, Table } from '../../ui';
import { nameList } from './operation-text';
import type { ExecutionSummary, StepPreview } from './types';

/** A datetime the API wrote as ISO at midnight UTC: a date, which is what the column held. */
const MIDNIGHT = /^(\d{4}-\d{2}-\d{2})T00:00:00(?:\.000)?Z$/;

/** A cell as text: objects as JSON, null as empty, dates without a midnight time; values otherwise as the API sent them. */
function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return MIDNIGHT.exec(v)?.[1] ?? v;
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** The first rows after the step's operations (on a sample for a proposal, on the output once executed). */
export function PreviewTable({ preview, caption }: { preview: StepPreview; caption: string }) {
  return (
    <Table
      caption={caption}
      rows={preview.rows}
      empty="No row left after these operations."
      columns={preview.columns.map((c) => ({ head: `${c.name} (${c.dtype})`, cell: (r: Record<string, unknown>) => cellText(r[c.name]) }))}
    />
  );
}

/**
 * What the operations changed, as a reviewer reads a diff: rows before → after, the columns added and removed, and
 * each type and null-count change.
 */
export function SummaryView({ summary, label }: { summary: ExecutionSummary; label: string }) {
  const nulls = summary.null_changes.filter((n) => n.before !== n.after);
  return (
    <dl class="facts builder-summary" aria-label={label}>
      <dt>Rows</dt>
      <dd>
        {fmtNum(summary.rows_before)} → {fmtNum(summary.rows_after)}
      </dd>
      <dt>Columns</dt>
      <dd>
        {fmtNum(summary.columns_before.length)} → {fmtNum(summary.columns_after.length)}
      </dd>
      <dt>Added</dt>
      <dd>{summary.added.length ? nameList(summary.added, 12) : 'none'}</dd>
      <dt>Removed</dt>
      <dd>{summary.removed.length ? nameList(summary.removed, 12) : 'none'}</dd>
      <dt>Type changes</dt>
      <dd>{summary.type_changes.length ? summary.type_changes.map((t) => `${t.column} ${t.from} → ${t.to}`).join(', ') : 'none'}</dd>
      <dt>Missing values</dt>
      <dd>{nulls.length ? nulls.map((n) => `${n.column} ${fmtNum(n.before)} → ${fmtNum(n.after)}`).join(', ') : 'unchanged'}</dd>
    </dl>
  );
}
