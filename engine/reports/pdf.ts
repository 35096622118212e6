import PDFDocument from 'pdfkit';
import { cellText, cleanText, numericColumns } from './cells';
import type { Block, Cell, ReportDocument } from './document';
import type { Figures } from './figures';
import { fontData } from './fonts';
import { readableTime } from './html';
import { outline, OutlineEntry, TOC_DEPTH } from './outline';

type Doc = PDFKit.PDFDocument;

/** A4 in points; the top and bottom margins leave room for the running header and footer. */
const PAGE = { width: 595.28, height: 841.89, top: 66, bottom: 62, left: 56, right: 56 };
const CONTENT_WIDTH = PAGE.width - PAGE.left - PAGE.right;
const BOTTOM = PAGE.height - PAGE.bottom;
const COLORS = { text: '#1f2328', muted: '#57606a', rule: '#d0d7de', lightRule: '#e3e7eb', headerFill: '#eef1f5', highlight: '#fff4c2', stripe: '#f7f8fa' };
const BODY_SIZE = 10;
const TOC_LINE = 17;
/** CSS pixels are 1/96 in, points 1/72 in. */
const PT_PER_PX = 72 / 96;

/**
 * The PDF with pdfkit alone (nothing outside npm): DejaVu Sans embedded (subset) so any Latin, Greek or Cyrillic user
 * text prints and extracts; a cover with the meta block and a table of contents whose page numbers are filled in once
 * the content is laid out (the pages are buffered); a new page per top-level section; tables that break across pages
 * with their header row repeated; pictures at their 2x resolution; a running header with the title and a footer
 * "Page N of M" on every page; bookmarks (the PDF outline) for every section.
 */
export async function renderPdf(doc: ReportDocument, figures: Figures): Promise<Buffer> {
  const pdf = new PDFDocument({
    size: 'A4',
    margins: { top: PAGE.top, bottom: PAGE.bottom, left: PAGE.left, right: PAGE.right },
    bufferPages: true,
    autoFirstPage: true,
    displayTitle: true,
    lang: 'en',
    info: documentInfo(doc),
  });
  const chunks: Buffer[] = [];
  pdf.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    pdf.on('end', resolve);
    pdf.on('error', reject);
  });
  pdf.registerFont('Body', fontData('regular'));
  pdf.registerFont('Bold', fontData('bold'));
  pdf.registerFont('Oblique', fontData('oblique'));

  const entries = outline(doc);
  cover(pdf, doc);
  const slots = reserveToc(pdf, entries);
  const pages = content(pdf, entries, figures);
  fillToc(pdf, slots, pages);
  runningHeaderAndFooter(pdf, doc);
  pdf.end();
  await ended;
  return Buffer.concat(chunks);
}

/** The PDF's Info dictionary; pdfkit fails on a key whose value is undefined, so absent ones are left out. */
function documentInfo(doc: ReportDocument): PDFKit.DocumentInfo {
  const info: PDFKit.DocumentInfo = { Title: cleanText(doc.title), Creator: 'ml-lifecycle-service reports' };
  if (doc.subtitle) info.Subject = cleanText(doc.subtitle);
  const created = new Date(doc.generatedAt);
  if (!Number.isNaN(created.getTime())) info.CreationDate = created;
  return info;
}

function currentPage(pdf: Doc): number {
  const range = pdf.bufferedPageRange();
  return range.start + range.count - 1;
}

function ensureSpace(pdf: Doc, height: number): void {
  if (pdf.y + height > BOTTOM) pdf.addPage();
}

function cover(pdf: Doc, doc: ReportDocument): void {
  pdf.y = PAGE.top + 20;
  pdf.font('Bold').fontSize(22).fillColor(COLORS.text).text(cleanText(doc.title), PAGE.left, pdf.y, { width: CONTENT_WIDTH });
  if (doc.subtitle) pdf.moveDown(0.3).font('Body').fontSize(13).fillColor(COLORS.muted).text(cleanText(doc.subtitle), { width: CONTENT_WIDTH });
  pdf.moveDown(1);
  keyValues(pdf, [...doc.meta, ['Generated', readableTime(doc.generatedAt)]]);
  pdf.moveDown(1);
}

interface TocSlot {
  entry: OutlineEntry;
  page: number;
  y: number;
}

/** Lays out the table of contents' lines now, one line each, so their pages are known before the content is. */
function reserveToc(pdf: Doc, entries: OutlineEntry[]): TocSlot[] {
  ensureSpace(pdf, 60);
  pdf.font('Bold').fontSize(14).fillColor(COLORS.text).text('Contents', PAGE.left, pdf.y, { width: CONTENT_WIDTH });
  pdf.moveDown(0.4);
  const slots: TocSlot[] = [];
  for (const entry of entries.filter((e) => e.level <= TOC_DEPTH)) {
    ensureSpace(pdf, TOC_LINE);
    slots.push({ entry, page: currentPage(pdf), y: pdf.y });
    pdf.y += TOC_LINE;
  }
  return slots;
}

/** Writes each reserved line: number, title (shortened to one line), dot leaders and the page number, all a link. */
function fillToc(pdf: Doc, slots: TocSlot[], pages: Map<OutlineEntry, number>): void {
  for (const { entry, page, y } of slots) {
    pdf.switchToPage(page);
    const indent = (entry.level - 1) * 18;
    const size = entry.level === 1 ? 10.5 : 9.5;
    const font = entry.level === 1 ? 'Bold' : 'Body';
    const pageLabel = String((pages.get(entry) ?? 0) + 1);
    pdf.font(font).fontSize(size).fillColor(COLORS.text);
    const numberWidth = pdf.widthOfString(`${entry.number}  `);
    const pageWidth = pdf.widthOfString(pageLabel);
    const x = PAGE.left + indent;
    const titleWidth = CONTENT_WIDTH - indent - numberWidth - pageWidth - 24;
    const title = fitOneLine(pdf, cleanText(entry.section.title), titleWidth);
    pdf.text(`${entry.number}  ${title}`, x, y, { lineBreak: false });
    const leaderStart = x + numberWidth + pdf.widthOfString(title) + 6;
    const leaderEnd = PAGE.left + CONTENT_WIDTH - pageWidth - 6;
    if (leaderEnd > leaderStart) {
      pdf.font('Body').fillColor(COLORS.muted);
      const dot = pdf.widthOfString('.  ');
      pdf.text('.  '.repeat(Math.max(0, Math.floor((leaderEnd - leaderStart) / dot))), leaderStart, y, { lineBreak: false });
    }
    pdf
      .font(font)
      .fillColor(COLORS.text)
      .text(pageLabel, PAGE.left + CONTENT_WIDTH - pageWidth, y, { lineBreak: false });
    pdf.goTo(x, y - 2, CONTENT_WIDTH - indent, TOC_LINE, entry.anchor);
  }
}

/** Shortens text with an ellipsis until it fits `width` at the current font. */
function fitOneLine(pdf: Doc, text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ');
  if (pdf.widthOfString(flat) <= width) return flat;
  let lo = 0;
  let hi = flat.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (pdf.widthOfString(`${flat.slice(0, mid)}…`) <= width) lo = mid;
    else hi = mid - 1;
  }
  return `${flat.slice(0, lo)}…`;
}

/** The sections, each top-level one on a new page; returns the page index each section starts on. */
function content(pdf: Doc, entries: OutlineEntry[], figures: Figures): Map<OutlineEntry, number> {
  const pages = new Map<OutlineEntry, number>();
  const bookmarks: PDFKit.PDFOutline[] = [];
  const counters = { figure: 0, table: 0 };
  for (const entry of entries) {
    if (entry.level === 1) pdf.addPage();
    heading(pdf, entry);
    pages.set(entry, currentPage(pdf));
    const parent = entry.level === 1 ? pdf.outline : (bookmarks[entry.level - 2] ?? pdf.outline);
    bookmarks[entry.level - 1] = parent.addItem(`${entry.number} ${cleanText(entry.section.title)}`);
    bookmarks.length = entry.level;
    for (const block of entry.section.blocks) drawBlock(pdf, block, figures, counters);
  }
  return pages;
}

const HEADING_SIZES = [16, 13, 11.5, 10.5];

function heading(pdf: Doc, entry: OutlineEntry): void {
  const size = HEADING_SIZES[Math.min(entry.level, HEADING_SIZES.length) - 1];
  const text = `${entry.number}  ${cleanText(entry.section.title)}`;
  pdf.font('Bold').fontSize(size);
  const height = pdf.heightOfString(text, { width: CONTENT_WIDTH });
  // Keep a heading with the start of what follows it.
  if (entry.level > 1) {
    pdf.moveDown(0.6);
    ensureSpace(pdf, height + 80);
  }
  pdf.addNamedDestination(entry.anchor, 'XYZ', null, PAGE.height - pdf.y + 8, null);
  pdf.fillColor(COLORS.text).text(text, PAGE.left, pdf.y, { width: CONTENT_WIDTH });
  if (entry.level === 1) {
    pdf
      .moveTo(PAGE.left, pdf.y + 2)
      .lineTo(PAGE.left + CONTENT_WIDTH, pdf.y + 2)
      .lineWidth(1)
      .strokeColor(COLORS.rule)
      .stroke();
    pdf.y += 8;
  }
  pdf.moveDown(0.3);
}

function drawBlock(pdf: Doc, block: Block, figures: Figures, counters: { figure: number; table: number }): void {
  switch (block.type) {
    case 'paragraph':
      pdf.font('Body').fontSize(BODY_SIZE).fillColor(COLORS.text);
      ensureSpace(pdf, 3 * BODY_SIZE);
      pdf.text(cleanText(block.text), PAGE.left, pdf.y, { width: CONTENT_WIDTH, lineGap: 2, paragraphGap: 4 });
      pdf.moveDown(0.5);
      return;
    case 'note':
      pdf.font('Oblique').fontSize(9).fillColor(COLORS.muted);
      ensureSpace(pdf, 24);
      pdf.text(cleanText(block.text), PAGE.left + 8, pdf.y, { width: CONTENT_WIDTH - 8, lineGap: 1 });
      pdf.moveDown(0.6);
      return;
    case 'keyValues':
      keyValues(pdf, block.items);
      pdf.moveDown(0.6);
      return;
    case 'table': {
      const caption = block.caption ? `Table ${++counters.table}: ${cleanText(block.caption)}` : undefined;
      table(pdf, { columns: block.columns, rows: block.rows, highlightRow: block.highlightRow, caption, fill: true });
      pdf.moveDown(0.8);
      return;
    }
    case 'chart':
    case 'heatmap': {
      const figure = figures.get(block);
      if (!figure) throw new Error(`No picture was drawn for the figure "${block.title}"`);
      const title = `Figure ${++counters.figure}: ${cleanText(block.title)}`;
      const caption = block.caption ? cleanText(block.caption) : '';
      pdf.font('Bold').fontSize(9.5);
      const titleHeight = pdf.heightOfString(title, { width: CONTENT_WIDTH }) + 4;
      pdf.font('Body').fontSize(8.5);
      const captionHeight = caption ? pdf.heightOfString(caption, { width: CONTENT_WIDTH }) + 4 : 0;
      // As large as the page allows, never past the picture's own size in print (it is drawn at 2x).
      let width = Math.min(CONTENT_WIDTH, figure.width * PT_PER_PX);
      let height = (width * figure.height) / figure.width;
      const maxHeight = BOTTOM - PAGE.top - titleHeight - captionHeight - 8;
      if (height > maxHeight) [width, height] = [(width * maxHeight) / height, maxHeight];
      ensureSpace(pdf, titleHeight + height + captionHeight + 6);
      pdf.font('Bold').fontSize(9.5).fillColor(COLORS.text).text(title, PAGE.left, pdf.y, { width: CONTENT_WIDTH });
      pdf.y += 4;
      pdf.image(figure.png, PAGE.left + (CONTENT_WIDTH - width) / 2, pdf.y, { width, height });
      pdf.y += height + 4;
      if (caption) pdf.font('Body').fontSize(8.5).fillColor(COLORS.muted).text(caption, PAGE.left, pdf.y, { width: CONTENT_WIDTH });
      pdf.moveDown(0.8);
      return;
    }
  }
}

function keyValues(pdf: Doc, items: [string, Cell][]): void {
  table(pdf, { rows: items.map(([k, v]) => [k, v]), keyColumn: true });
}

interface TableSpec {
  /** No header row when absent (a fact list). */
  columns?: string[];
  rows: Cell[][];
  highlightRow?: number;
  caption?: string;
  /** Stretch to the text width (data tables); fact lists keep their natural width. */
  fill?: boolean;
  /** The first column is a label column (bold-ish, muted), as in fact lists. */
  keyColumn?: boolean;
}

const PAD_X = 4;
const PAD_Y = 3;

/**
 * A table that breaks across pages between rows, repeating its header row on each new page. Column widths follow the
 * text: natural widths when they fit, otherwise the narrow columns keep theirs and the wide ones share the rest and wrap.
 */
function table(pdf: Doc, spec: TableSpec): void {
  const columnCount = Math.max(spec.columns?.length ?? 0, ...spec.rows.map((r) => r.length));
  if (columnCount === 0) return;
  const header = spec.columns ? Array.from({ length: columnCount }, (_, i) => cleanText(spec.columns?.[i] ?? '')) : undefined;
  const rows = spec.rows.map((r) => Array.from({ length: columnCount }, (_, i) => (i < r.length ? r[i] : null)));
  const texts = rows.map((r) => r.map(cellText));
  // Fact lists read as label and value; in data tables numeric columns align right.
  const right = spec.keyColumn ? new Array<boolean>(columnCount).fill(false) : numericColumns(rows, columnCount);
  const fontOf = (rowIndex: number | 'header', col: number): string => (rowIndex === 'header' || rowIndex === spec.highlightRow || (spec.keyColumn && col === 0) ? 'Bold' : 'Body');
  const { widths, fontSize } = columnWidths(pdf, header, texts, fontOf, spec.fill === true);
  const maxRowHeight = BOTTOM - PAGE.top - 40;
  const rowHeight = (cells: string[], rowIndex: number | 'header'): number => {
    let h = 0;
    cells.forEach((text, col) => {
      pdf.font(fontOf(rowIndex, col)).fontSize(fontSize);
      h = Math.max(h, pdf.heightOfString(text || ' ', { width: widths[col] - 2 * PAD_X }));
    });
    return Math.min(maxRowHeight, h + 2 * PAD_Y);
  };
  const headerHeight = header ? rowHeight(header, 'header') : 0;
  const drawRow = (cells: string[], rowIndex: number | 'header', height: number): void => {
    const y = pdf.y;
    const fill = rowIndex === 'header' ? COLORS.headerFill : rowIndex === spec.highlightRow ? COLORS.highlight : header && rowIndex % 2 === 1 ? COLORS.stripe : undefined;
    const tableWidth = widths.reduce((a, b) => a + b, 0);
    if (fill) pdf.rect(PAGE.left, y, tableWidth, height).fill(fill);
    let x = PAGE.left;
    cells.forEach((text, col) => {
      const muted = spec.keyColumn && col === 0;
      pdf
        .font(fontOf(rowIndex, col))
        .fontSize(fontSize)
        .fillColor(muted ? COLORS.muted : COLORS.text)
        // A fixed height: the text stops (with an ellipsis) rather than flowing onto a new page of its own.
        .text(text, x + PAD_X, y + PAD_Y, { width: widths[col] - 2 * PAD_X, height: height - 2 * PAD_Y + 1, ellipsis: true, align: right[col] ? 'right' : 'left' });
      x += widths[col];
    });
    pdf
      .moveTo(PAGE.left, y + height)
      .lineTo(PAGE.left + tableWidth, y + height)
      .lineWidth(rowIndex === 'header' ? 1 : 0.5)
      .strokeColor(rowIndex === 'header' ? COLORS.rule : COLORS.lightRule)
      .stroke();
    pdf.x = PAGE.left;
    pdf.y = y + height;
  };

  const firstHeight = texts.length ? rowHeight(texts[0], 0) : 0;
  let captionHeight = 0;
  if (spec.caption) {
    pdf.font('Bold').fontSize(9);
    captionHeight = pdf.heightOfString(spec.caption, { width: CONTENT_WIDTH }) + 3;
  }
  // The caption, the header and the first row stay together.
  ensureSpace(pdf, captionHeight + headerHeight + firstHeight);
  if (spec.caption) {
    pdf.font('Bold').fontSize(9).fillColor(COLORS.text).text(spec.caption, PAGE.left, pdf.y, { width: CONTENT_WIDTH });
    pdf.y += 3;
  }
  if (header) drawRow(header, 'header', headerHeight);
  texts.forEach((cells, i) => {
    const height = i === 0 ? firstHeight : rowHeight(cells, i);
    if (pdf.y + height > BOTTOM) {
      pdf.addPage();
      if (header) drawRow(header, 'header', headerHeight);
    }
    drawRow(cells, i, height);
  });
  pdf.x = PAGE.left;
}

/** Rows measured for the natural widths: enough to see a column's shape without measuring a huge table cell by cell. */
const MEASURED_ROWS = 200;

/** Table text size: 8.5 pt, down to 6.5 pt where that lets a wide table's cells keep to one line. */
const TABLE_FONT = { normal: 8.5, smallest: 6.5 };

function columnWidths(pdf: Doc, header: string[] | undefined, texts: string[][], fontOf: (row: number | 'header', col: number) => string, fill: boolean): { widths: number[]; fontSize: number } {
  const n = header?.length ?? texts[0]?.length ?? 0;
  // Text widths at the normal size, without padding: they scale with the font size.
  const text = new Array<number>(n).fill(0);
  const measure = (t: string, font: string, col: number): void => {
    pdf.font(font).fontSize(TABLE_FONT.normal);
    for (const line of t.split('\n')) text[col] = Math.max(text[col], pdf.widthOfString(line));
  };
  // A header may wrap between its words; the cells are what should not wrap.
  header?.forEach((t, col) => t.split(/\s+/).forEach((word) => measure(word, fontOf('header', col), col)));
  texts.slice(0, MEASURED_ROWS).forEach((row, r) => row.forEach((t, col) => measure(t, fontOf(r, col), col)));
  const padding = n * (2 * PAD_X + 1);
  const textTotal = text.reduce((a, b) => a + b, 0);
  const fitting = textTotal > 0 ? (TABLE_FONT.normal * (CONTENT_WIDTH - padding)) / textTotal : TABLE_FONT.normal;
  const fontSize = Math.max(TABLE_FONT.smallest, Math.min(TABLE_FONT.normal, Math.floor(fitting * 4) / 4));
  const natural = text.map((w) => (w * fontSize) / TABLE_FONT.normal + 2 * PAD_X + 1);
  const total = natural.reduce((a, b) => a + b, 0);
  if (total <= CONTENT_WIDTH) {
    // Data tables span at least half the text width, as in the HTML; a table close to full width is stretched to it.
    const target = fill ? (total > CONTENT_WIDTH / 2 ? CONTENT_WIDTH : CONTENT_WIDTH / 2) : total;
    return { widths: natural.map((w) => (w * target) / total), fontSize };
  }
  // Water-filling: columns narrower than an equal share keep their width; the others split what is left equally.
  const widths = new Array<number>(n);
  let left = CONTENT_WIDTH;
  let open = n;
  const order = natural.map((w, i) => [w, i] as const).sort((a, b) => a[0] - b[0]);
  for (const [w, i] of order) {
    const share = left / open;
    widths[i] = Math.min(w, share);
    left -= widths[i];
    open--;
  }
  return { widths, fontSize };
}

/** Title and date on top, "Page N of M" at the foot of every page, written once all pages exist. */
function runningHeaderAndFooter(pdf: Doc, doc: ReportDocument): void {
  const { start, count } = pdf.bufferedPageRange();
  const title = cleanText(doc.title);
  const date = readableTime(doc.generatedAt).slice(0, 10);
  for (let i = start; i < start + count; i++) {
    pdf.switchToPage(i);
    // Writing in the margins: with a zero bottom margin pdfkit does not break onto a new page.
    const margins = pdf.page.margins;
    pdf.page.margins = { ...margins, top: 0, bottom: 0 };
    pdf.font('Body').fontSize(8).fillColor(COLORS.muted);
    const dateWidth = pdf.widthOfString(date);
    pdf.text(fitOneLine(pdf, title, CONTENT_WIDTH - dateWidth - 24), PAGE.left, 32, { lineBreak: false });
    pdf.text(date, PAGE.left + CONTENT_WIDTH - dateWidth, 32, { lineBreak: false });
    pdf
      .moveTo(PAGE.left, 46)
      .lineTo(PAGE.left + CONTENT_WIDTH, 46)
      .lineWidth(0.5)
      .strokeColor(COLORS.rule)
      .stroke();
    const footer = `Page ${i - start + 1} of ${count}`;
    pdf.text(footer, PAGE.left + (CONTENT_WIDTH - pdf.widthOfString(footer)) / 2, PAGE.height - 38, { lineBreak: false });
    pdf.page.margins = margins;
  }
}
