import type { Cell } from './document';

/** What a missing value reads as, in every format. */
export const EMPTY_CELL = '—';

/** Decimals a non-integer is written with at most: the convention for metrics (AUC 0.9123). */
export const MAX_DECIMALS = 4;

/**
 * One way of writing a number for people, in every format: integers with thousands separators (1,309 rows); other
 * numbers to at most 4 decimals without trailing zeros (a quality score 57.1, an AUC 0.9123); very large or very
 * small magnitudes in exponent form with 4 significant digits, where 4 decimals would say nothing. Non-finite values
 * read NaN / ∞ / -∞. `decimals` fixes the count instead (a table column written alike, see `tableTexts`).
 */
export function formatNumber(x: number, decimals?: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '∞' : '-∞';
  const abs = Math.abs(x);
  if (Number.isInteger(x) && abs < 1e15 && decimals === undefined) return groupThousands(String(x));
  if (abs >= 1e9 || (abs < 1e-4 && abs > 0)) return x.toExponential(3);
  const fixed = x.toFixed(decimals ?? MAX_DECIMALS);
  return groupThousands(decimals === undefined ? fixed.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '') : fixed);
}

/** "1234567.5" → "1,234,567.5": the integer part grouped by threes. */
function groupThousands(text: string): string {
  const [int, frac] = text.split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return frac === undefined ? grouped : `${grouped}.${frac}`;
}

/** How many decimals `formatNumber` writes `x` with (0 for integers and exponent forms). */
export function decimalsOf(x: number): number {
  if (!Number.isFinite(x) || Number.isInteger(x)) return 0;
  const text = formatNumber(x);
  if (text.includes('e')) return 0;
  return text.split('.')[1]?.length ?? 0;
}

/** The text of a cell, as every renderer shows it. */
export function formatCell(cell: Cell): string {
  if (cell === null || cell === undefined) return EMPTY_CELL;
  if (typeof cell === 'number') return formatNumber(cell);
  return cell;
}

/**
 * A table's cells as text, the same in every format: in a numeric column every non-integer number has the column's
 * largest count of decimals (0.9100 above 0.9123, so the decimal points line up); integers stay as they are.
 */
export function tableTexts(rows: Cell[][], columnCount: number): string[][] {
  const numeric = numericColumns(rows, columnCount);
  const decimals = Array.from({ length: columnCount }, (_, i) => (numeric[i] ? Math.max(0, ...rows.map((r) => (typeof r[i] === 'number' ? decimalsOf(r[i] as number) : 0))) : 0));
  return rows.map((row) =>
    Array.from({ length: columnCount }, (_, i) => {
      const cell = i < row.length ? row[i] : null;
      if (typeof cell === 'number' && decimals[i] > 0 && decimalsOf(cell) > 0) return formatNumber(cell, decimals[i]);
      return cellText(cell);
    }),
  );
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
