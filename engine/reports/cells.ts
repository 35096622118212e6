import type { Cell } from './document';

/** What a missing value reads as, in every format. */
export const EMPTY_CELL = '—';

/**
 * One way of writing a number in every format: integers as they are; other numbers to 4 decimals (so a metric reads
 * 0.9123 in the leaderboard, the PDF text layer and the DOCX alike); very large or very small magnitudes in exponent
 * form with 4 significant digits, where 4 decimals would say nothing. Non-finite values read NaN / ∞ / -∞.
 */
export function formatNumber(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '∞' : '-∞';
  if (Number.isInteger(x) && Math.abs(x) < 1e15) return String(x);
  const abs = Math.abs(x);
  if (abs >= 1e9 || abs < 1e-4) return x.toExponential(3);
  return x.toFixed(4);
}

/** The text of a cell, as every renderer shows it. */
export function formatCell(cell: Cell): string {
  if (cell === null || cell === undefined) return EMPTY_CELL;
  if (typeof cell === 'number') return formatNumber(cell);
  return cell;
}

/**
 * Which columns of a table are numeric: at least one number and nothing but numbers and empty cells. Such a column
 * aligns right, its empty cells and header included; any other column aligns left.
 */
export function numericColumns(rows: Cell[][], columnCount: number): boolean[] {
  return Array.from({ length: columnCount }, (_, i) => {
    let numbers = 0;
    for (const row of rows) {
      const cell = row[i] ?? null;
      if (typeof cell === 'number') numbers++;
      else if (cell !== null) return false;
    }
    return numbers > 0;
  });
}

/**
 * User text as every format can hold it: control characters other than tab and newline (invalid in XML, so fatal to a
 * DOCX) and unpaired surrogates are dropped; line endings become '\n'.
 */
export function cleanText(text: string): string {
  return (
    text
      .replace(/\r\n?/g, '\n')
      // eslint-disable-next-line no-control-regex -- matching control characters is the point
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffe\uffff]/g, '')
      .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '')
  );
}

/** The text of a cell, cleaned for any format. */
export function cellText(cell: Cell): string {
  return cleanText(formatCell(cell));
}
