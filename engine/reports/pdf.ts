import PDFDocument from 'pdfkit';
import { cellText, cleanText, numericColumns, tableTexts } from './cells';
import type { Block, Cell, ReportDocument, Section } from './document';
import type { Figures } from './figures';
import { fontData } from './fonts';
import { readableTime } from './html';
import { outline, OutlineEntry, TOC_DEPTH } from './outline';

type Doc = PDFKit.PDFDocument;

/** A4 in points; the top and bottom margins leave room for the running header and footer. */
const PAGE = { width: 595.28, height: 841.89, top: 66, bottom: 62, left: 56, right: 56 };
const CONTENT_WIDTH = PAGE.width - PAGE.left - PAGE.right;
const BOTTOM = PAGE.height - PAGE.bottom;
const COLORS = {
  text: '#1f2328',
  muted: '#57606a',
  rule: '#d0d7de',
  lightRule: '#e3e7eb',
  headerFill: '#eef1f5',
  highlight: '#fff4c2',
  stripe: '#f7f8fa',
  readingFill: '#f4f7fb',
  readingRule: '#8fb3d9',
};
const BODY_SIZE = 10;
const TOC_LINE = 17;
/** CSS pixels are 1/96 in, points 1/72 in. */
const PT_PER_PX = 72 / 96;

/**
 * The PDF with pdfkit alone (nothing outside npm): DejaVu Sans embedded (subset) so any Latin, Greek or Cyrillic user
 * text prints and extracts; the meta block and a table of contents whose page numbers are filled in once the content
 * is laid out (the pages are buffered); sections that flow on, breaking a page only where a heading would otherwise be
 * left at the foot of a page without what it introduces; tables that break across pages with their header row
 * repeated and never a lone row on either side; pictures at their 2x resolution; a running header with the title and
 * a footer "Page N of M" on every page; bookmarks (the PDF outline) for every section.
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

/** The sections one after another; returns the page index each section starts on. */
function content(pdf: Doc, entries: OutlineEntry[], figures: Figures): Map<OutlineEntry, number> {
  const pages = new Map<OutlineEntry, number>();
  const bookmarks: PDFKit.PDFOutline[] = [];
  const counters = { figure: 0, table: 0 };
  entries.forEach((entry, i) => {
    heading(pdf, entry, leadHeight(pdf, entry.section, entries[i + 1], figures));
    pages.set(entry, currentPage(pdf));
    const parent = entry.level === 1 ? pdf.outline : (bookmarks[entry.level - 2] ?? pdf.outline);
    bookmarks[entry.level - 1] = parent.addItem(`${entry.number} ${cleanText(entry.section.title)}`);
    bookmarks.length = entry.level;
    if (entry.section.reading) reading(pdf, entry.section.reading);
    for (const block of entry.section.blocks) drawBlock(pdf, block, figures, counters);
  });
  return pages;
}

/** Space before a heading, in lines of its own size: more before a top-level section than before a subsection. */
const HEADING_GAP = { 1: 1.2, other: 0.6 };

/**
 * How much of what follows a heading must fit on its page with it, so no page ends with a heading alone: the reading
 * paragraph, then the start of the first block (a figure whole, a table's header and first two rows, three lines of
 * text); a section without blocks keeps with its first subsection's heading.
 */
function leadHeight(pdf: Doc, section: Section, next: OutlineEntry | undefined, figures: Figures): number {
  let height = section.reading ? readingHeight(pdf, section.reading) : 0;
  const first = section.blocks[0];
  if (first) return height + blockLead(pdf, first, figures);
  if (next && section.subsections?.length) height += 40 + (next.section.blocks[0] ? blockLead(pdf, next.section.blocks[0], figures) : 0);
  return height;
}

/** The part of a block that must not be parted from the heading above it. */
function blockLead(pdf: Doc, block: Block, figures: Figures): number {
  switch (block.type) {
    case 'paragraph':
    case 'note':
      return 3 * (BODY_SIZE + 4);
    case 'keyValues':
      return Math.min(block.items.length, 2) * 16;
    case 'table':
      return (block.caption ? 14 : 0) + 18 + Math.min(block.rows.length, 2) * 16;
    case 'chart':
    case 'heatmap': {
      const figure = figures.get(block);
      return figure ? figureHeight(figure) + 30 : 200;
    }
  }
}

/** A picture as large as the page allows, never past its own size in print (it is drawn at 2x). */
function figureSize(figure: { width: number; height: number }, maxHeight = BOTTOM - PAGE.top - 60): { width: number; height: number } {
  let width = Math.min(CONTENT_WIDTH, figure.width * PT_PER_PX);
  let height = (width * figure.height) / figure.width;
  if (height > maxHeight) [width, height] = [(width * maxHeight) / height, maxHeight];
  return { width, height };
}

function figureHeight(figure: { width: number; height: number }): number {
  return figureSize(figure).height;
}

const READING = { size: 9.5, pad: 6 };

function readingHeight(pdf: Doc, text: string): number {
  pdf.font('Body').fontSize(READING.size);
  return pdf.heightOfString(cleanText(text), { width: CONTENT_WIDTH - 2 * READING.pad - 3, lineGap: 1.5 }) + 2 * READING.pad + 8;
}

/** The section's plain-language reading: a tinted box with a rule on its left, kept whole on one page. */
function reading(pdf: Doc, text: string): void {
  const height = readingHeight(pdf, text) - 8;
  ensureSpace(pdf, height);
  const y = pdf.y;
  pdf.rect(PAGE.left, y, CONTENT_WIDTH, height).fill(COLORS.readingFill);
  pdf.rect(PAGE.left, y, 3, height).fill(COLORS.readingRule);
  pdf
    .font('Body')
    .fontSize(READING.size)
    .fillColor(COLORS.text)
    .text(cleanText(text), PAGE.left + 3 + READING.pad, y + READING.pad, { width: CONTENT_WIDTH - 2 * READING.pad - 3, lineGap: 1.5 });
  pdf.x = PAGE.left;
  pdf.y = y + height + 8;
}

const HEADING_SIZES = [16, 13, 11.5, 10.5];

function heading(pdf: Doc, entry: OutlineEntry, lead: number): void {
  const size = HEADING_SIZES[Math.min(entry.level, HEADING_SIZES.length) - 1];
  const text = `${entry.number}  ${cleanText(entry.section.title)}`;
  pdf.font('Bold').fontSize(size);
  const height = pdf.heightOfString(text, { width: CONTENT_WIDTH }) + (entry.level === 1 ? 14 : 6);
  pdf.moveDown(entry.level === 1 ? HEADING_GAP[1] : HEADING_GAP.other);
  // Keep a heading with the start of what follows it: a page break here rather than a heading alone at a page's foot.
  ensureSpace(pdf, height + Math.min(lead, BOTTOM - PAGE.top - height));
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
      const { width, height } = figureSize(figure, BOTTOM - PAGE.top - titleHeight - captionHeight - 8);
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
  const texts = spec.keyColumn ? rows.map((r) => r.map(cellText)) : tableTexts(rows, columnCount);
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

  const heights = texts.map((cells, i) => rowHeight(cells, i));
  let captionHeight = 0;
  if (spec.caption) {
    pdf.font('Bold').fontSize(9);
    captionHeight = pdf.heightOfString(spec.caption, { width: CONTENT_WIDTH }) + 3;
  }
  // The caption, the header and the first two rows stay together: no page ends with a table's first row alone.
  const keepFirst = heights.length <= 3 ? heights.length : 2;
  ensureSpace(pdf, captionHeight + headerHeight + heights.slice(0, keepFirst).reduce((a, b) => a + b, 0));
  if (spec.caption) {
    pdf.font('Bold').fontSize(9).fillColor(COLORS.text).text(spec.caption, PAGE.left, pdf.y, { width: CONTENT_WIDTH });
    pdf.y += 3;
  }
  if (header) drawRow(header, 'header', headerHeight);
  let onPage = 0;
  texts.forEach((cells, i) => {
    const height = heights[i];
    // The last row never goes over alone: with two left and room for one, both go to the next page (when this page
    // keeps two rows or more of its own).
    const last2 = i === texts.length - 2 && onPage >= 2 ? heights[i + 1] : 0;
    if (pdf.y + height + last2 > BOTTOM && onPage > 0) {
      onPage = 0;
      pdf.addPage();
      if (header) drawRow(header, 'header', headerHeight);
    }
    drawRow(cells, i, height);
    onPage++;
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
  // The longest word of each header: a header may wrap between its words, never inside one ("loglos / s").
  const headerWord = new Array<number>(n).fill(0);
  const measure = (t: string, font: string, col: number, into = text): void => {
    pdf.font(font).fontSize(TABLE_FONT.normal);
    for (const line of t.split('\n')) into[col] = Math.max(into[col], pdf.widthOfString(line));
  };
  header?.forEach((t, col) => t.split(/\s+/).forEach((word) => measure(word, fontOf('header', col), col, headerWord)));
  texts.slice(0, MEASURED_ROWS).forEach((row, r) => row.forEach((t, col) => measure(t, fontOf(r, col), col)));
  for (let i = 0; i < n; i++) text[i] = Math.max(text[i], headerWord[i]);
  const padding = n * (2 * PAD_X + 1);
  const textTotal = text.reduce((a, b) => a + b, 0);
  // The header words count in `text`, so a size at which the cells fit side by side fits the header words too.
  const fitting = textTotal > 0 ? (TABLE_FONT.normal * (CONTENT_WIDTH - padding)) / textTotal : TABLE_FONT.normal;
  const fontSize = Math.max(TABLE_FONT.smallest, Math.min(TABLE_FONT.normal, Math.floor(fitting * 4) / 4));
  const scale = (w: number): number => (w * fontSize) / TABLE_FONT.normal + 2 * PAD_X + 1.5;
  const natural = text.map(scale);
  const floor = headerWord.map(scale);
  const total = natural.reduce((a, b) => a + b, 0);
  if (total <= CONTENT_WIDTH) {
    // Data tables span at least half the text width, as in the HTML; a table close to full width is stretched to it.
    const target = fill ? (total > CONTENT_WIDTH / 2 ? CONTENT_WIDTH : CONTENT_WIDTH / 2) : total;
    return { widths: natural.map((w) => (w * target) / total), fontSize };
  }
  // Water-filling above each column's floor (its longest header word): columns needing less than an equal share of
  // what is left get what they need; the others split the rest equally.
  const widths = [...floor];
  let left = CONTENT_WIDTH - floor.reduce((a, b) => a + b, 0);
  let open = n;
  const order = natural.map((w, i) => [w - floor[i], i] as const).sort((a, b) => a[0] - b[0]);
  for (const [need, i] of order) {
    const share = Math.max(0, left) / open;
    const extra = Math.min(need, share);
    widths[i] += extra;
    left -= extra;
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
