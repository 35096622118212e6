/**
 * Minimal streaming XLSX writer (Office Open XML SpreadsheetML): one worksheet, inline strings, numbers,
 * booleans and datetimes (as Excel serial numbers with a date-time format). DuckDB's excel extension cannot be
 * installed offline, so the ZIP is assembled with yazl from a row stream; memory stays bounded by one chunk.
 */
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import { DataValidationError } from './errors';

/** A cell value the writer accepts. Date objects become Excel date-times. */
export type XlsxCell = string | number | boolean | Date | null;

/** Excel's row limit per worksheet. */
export const XLSX_MAX_ROWS = 1_048_576;
/** Excel's character limit per cell; longer strings are truncated. */
export const XLSX_MAX_CELL_CHARS = 32_767;

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`;
const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="data" sheetId="1" r:id="rId1"/></sheets></workbook>`;
const WORKBOOK_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`;
// Style 1 = built-in number format 22 (m/d/yy h:mm) so readers return date-times, not serial numbers.
const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="22" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs></styleSheet>`;
const SHEET_HEAD = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`;
const SHEET_TAIL = `</sheetData></worksheet>`;

/** Column letters for a 0-based index (0 → A, 26 → AA). */
export function columnLetter(index: number): string {
  let s = '';
  let n = index + 1;
  while (n > 0) {
    const r = (n - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

// XML 1.0 forbids most control characters even when escaped.
// eslint-disable-next-line no-control-regex
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

function escapeXml(s: string): string {
  return s.replace(INVALID_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);

function cellXml(ref: string, v: XlsxCell): string {
  if (v === null) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? `<c r="${ref}"><v>${v}</v></c>` : '';
  if (typeof v === 'boolean') return `<c r="${ref}" t="b"><v>${v ? 1 : 0}</v></c>`;
  if (v instanceof Date) return `<c r="${ref}" s="1"><v>${(v.getTime() - EXCEL_EPOCH_MS) / 86_400_000}</v></c>`;
  const text = v.length > XLSX_MAX_CELL_CHARS ? v.slice(0, XLSX_MAX_CELL_CHARS) : v;
  return `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${escapeXml(text)}</t></is></c>`;
}

/** XML of one worksheet row (1-based `rowNumber`). */
export function rowXml(rowNumber: number, cells: readonly XlsxCell[]): string {
  return `<row r="${rowNumber}">${cells.map((v, i) => cellXml(`${columnLetter(i)}${rowNumber}`, v)).join('')}</row>`;
}

/**
 * Writes an XLSX file whose first row is `header` and whose other rows come from `rows` (batches of rows).
 * @throws DataValidationError when there are more rows than Excel allows
 */
export async function writeXlsxRows(
  outPath: string,
  header: readonly string[],
  rows: AsyncIterable<readonly (readonly XlsxCell[])[]>,
): Promise<void> {
  let rowNumber = 1;
  async function* sheet(): AsyncGenerator<string> {
    yield SHEET_HEAD;
    yield rowXml(rowNumber, header);
    for await (const batch of rows) {
      let xml = '';
      for (const r of batch) {
        rowNumber += 1;
        if (rowNumber > XLSX_MAX_ROWS) throw new DataValidationError(`XLSX export is limited to ${XLSX_MAX_ROWS - 1} data rows`);
        xml += rowXml(rowNumber, r);
      }
      yield xml;
    }
    yield SHEET_TAIL;
  }
  const zip = new ZipFile();
  zip.addBuffer(Buffer.from(CONTENT_TYPES), '[Content_Types].xml');
  zip.addBuffer(Buffer.from(ROOT_RELS), '_rels/.rels');
  zip.addBuffer(Buffer.from(WORKBOOK), 'xl/workbook.xml');
  zip.addBuffer(Buffer.from(WORKBOOK_RELS), 'xl/_rels/workbook.xml.rels');
  zip.addBuffer(Buffer.from(STYLES), 'xl/styles.xml');
  const sheetStream = Readable.from(sheet());
  zip.addReadStream(sheetStream, 'xl/worksheets/sheet1.xml');
  zip.end();
  const out = createWriteStream(outPath);
  const sheetFailed = new Promise<never>((_, reject) => sheetStream.on('error', reject));
  zip.outputStream.pipe(out);
  await Promise.race([finished(out), sheetFailed]);
}
