import {
  AlignmentType,
  Bookmark,
  BorderStyle,
  Document,
  Footer,
  Header,
  HeadingLevel,
  ImageRun,
  Packer,
  PageNumber,
  Paragraph,
  ShadingType,
  Table,
  TableCell,
  TableOfContents,
  TableRow,
  TextRun,
  WidthType,
} from 'docx';
import type { FileChild, IParagraphStyleOptions } from 'docx';
import { cellText, cleanText, numericColumns, tableTexts } from './cells';
import type { Block, Cell, ReportDocument } from './document';
import type { Figures } from './figures';
import { readableTime } from './html';
import { outline, OutlineEntry, TOC_DEPTH } from './outline';

/** A4 with 2 cm margins, in twips (1/1440 in). */
const PAGE = { width: 11906, height: 16838, margin: 1134 };
const CONTENT_TWIPS = PAGE.width - 2 * PAGE.margin;
/** The text width in CSS pixels (96 per inch), the unit docx sizes pictures in. */
const CONTENT_PX = Math.floor((CONTENT_TWIPS / 1440) * 96);
const COLORS = { text: '1F2328', muted: '57606A', headerFill: 'EEF1F5', highlight: 'FFF4C2', rule: 'D0D7DE' };
const HEADINGS = [HeadingLevel.HEADING_1, HeadingLevel.HEADING_2, HeadingLevel.HEADING_3, HeadingLevel.HEADING_4, HeadingLevel.HEADING_5, HeadingLevel.HEADING_6];

/**
 * The DOCX with the `docx` package: real Heading 1-6 styles (Word's navigation pane and table of contents follow them),
 * a table of contents field Word updates on opening, the meta block, tables whose header row repeats on every page,
 * the same chart pictures as the other formats, the title in the page header and "Page N of M" in the footer.
 */
export async function renderDocx(doc: ReportDocument, figures: Figures): Promise<Buffer> {
  const entries = outline(doc);
  const counters = { figure: 0, table: 0 };
  const children: FileChild[] = [
    new Paragraph({ heading: HeadingLevel.TITLE, children: [new TextRun(cleanText(doc.title))] }),
    ...(doc.subtitle ? [new Paragraph({ style: 'Subtitle', children: [new TextRun(cleanText(doc.subtitle))] })] : []),
    dataTable({ rows: [...doc.meta, ['Generated', readableTime(doc.generatedAt)]], keyColumn: true }),
    new Paragraph({ style: 'TOCHeading', children: [new TextRun('Contents')] }),
    new TableOfContents('Contents', { hyperlink: true, headingStyleRange: `1-${TOC_DEPTH}` }),
  ];
  for (const entry of entries) {
    children.push(heading(entry));
    if (entry.section.reading) children.push(new Paragraph({ style: 'Reading', children: lines(cleanText(entry.section.reading)) }));
    for (const block of entry.section.blocks) children.push(...blockChildren(block, figures, counters));
  }
  const document = new Document({
    creator: 'ml-lifecycle-service reports',
    title: cleanText(doc.title),
    description: doc.subtitle ? cleanText(doc.subtitle) : undefined,
    features: { updateFields: true },
    styles: {
      default: { document: { run: { font: 'Calibri', size: 21, color: COLORS.text } } },
      paragraphStyles: STYLES,
    },
    sections: [
      {
        properties: { page: { size: { width: PAGE.width, height: PAGE.height }, margin: { top: PAGE.margin, bottom: PAGE.margin, left: PAGE.margin, right: PAGE.margin } } },
        headers: { default: new Header({ children: [new Paragraph({ children: [new TextRun({ text: cleanText(doc.title), size: 16, color: COLORS.muted })] })] }) },
        footers: {
          default: new Footer({
            children: [
              new Paragraph({ alignment: AlignmentType.CENTER, children: [new TextRun({ children: ['Page ', PageNumber.CURRENT, ' of ', PageNumber.TOTAL_PAGES], size: 16, color: COLORS.muted })] }),
            ],
          }),
        },
        children,
      },
    ],
  });
  return Packer.toBuffer(document);
}

/** Heading styles carry their outline level, which is what Word's navigation pane and TOC field read. */
const STYLES: IParagraphStyleOptions[] = [
  heading1to6(1, 32, 360),
  heading1to6(2, 26, 280),
  heading1to6(3, 23, 220),
  heading1to6(4, 21, 200),
  heading1to6(5, 21, 200),
  heading1to6(6, 21, 200),
  { id: 'Title', name: 'Title', basedOn: 'Normal', next: 'Normal', quickFormat: true, run: { size: 48, bold: true }, paragraph: { spacing: { after: 120 } } },
  { id: 'Subtitle', name: 'Subtitle', basedOn: 'Normal', next: 'Normal', quickFormat: true, run: { size: 28, color: COLORS.muted }, paragraph: { spacing: { after: 240 } } },
  { id: 'TOCHeading', name: 'TOC Heading', basedOn: 'Normal', next: 'Normal', quickFormat: true, run: { size: 28, bold: true }, paragraph: { spacing: { before: 360, after: 120 } } },
  { id: 'Caption', name: 'Caption', basedOn: 'Normal', next: 'Normal', quickFormat: true, run: { size: 18, color: COLORS.muted }, paragraph: { spacing: { after: 240 } } },
  // The section's plain-language reading: shaded, kept with what it reads.
  {
    id: 'Reading',
    name: 'Reading',
    basedOn: 'Normal',
    next: 'Normal',
    run: { size: 19 },
    paragraph: {
      spacing: { before: 60, after: 160 },
      keepNext: true,
      keepLines: true,
      shading: { type: ShadingType.CLEAR, color: 'auto', fill: 'F4F7FB' },
      border: { left: { style: BorderStyle.SINGLE, size: 18, color: '8FB3D9', space: 6 } },
    },
  },
  { id: 'Note', name: 'Note', basedOn: 'Normal', next: 'Normal', run: { size: 19, italics: true, color: COLORS.muted }, paragraph: { spacing: { before: 60, after: 160 } } },
];

function heading1to6(level: number, size: number, before: number): IParagraphStyleOptions {
  return {
    id: `Heading${level}`,
    name: `Heading ${level}`,
    basedOn: 'Normal',
    next: 'Normal',
    quickFormat: true,
    run: { size, bold: true, color: COLORS.text },
    paragraph: { spacing: { before, after: 120 }, keepNext: true, keepLines: true, outlineLevel: level - 1 },
  };
}

function heading(entry: OutlineEntry): Paragraph {
  return new Paragraph({
    heading: HEADINGS[Math.min(entry.level, HEADINGS.length) - 1],
    children: [new Bookmark({ id: bookmarkName(entry.anchor), children: [new TextRun(`${entry.number} ${cleanText(entry.section.title)}`)] })],
  });
}

/** Word bookmark names: a letter first, then letters, digits and underscores, at most 40 characters. */
function bookmarkName(anchor: string): string {
  return anchor.replace(/-/g, '_').slice(0, 40);
}

function blockChildren(block: Block, figures: Figures, counters: { figure: number; table: number }): FileChild[] {
  switch (block.type) {
    case 'paragraph':
      return cleanText(block.text)
        .split(/\n{2,}/)
        .map((p) => new Paragraph({ spacing: { after: 120 }, children: lines(p) }));
    case 'note':
      return [new Paragraph({ style: 'Note', children: lines(cleanText(block.text)) })];
    case 'keyValues':
      return [dataTable({ rows: block.items, keyColumn: true }), spacer()];
    case 'table': {
      const caption = block.caption
        ? [new Paragraph({ keepNext: true, spacing: { before: 120, after: 60 }, children: [new TextRun({ text: `Table ${++counters.table}: ${cleanText(block.caption)}`, bold: true, size: 19 })] })]
        : [];
      return [...caption, dataTable({ columns: block.columns, rows: block.rows, highlightRow: block.highlightRow }), spacer()];
    }
    case 'chart':
    case 'heatmap': {
      const figure = figures.get(block);
      if (!figure) throw new Error(`No picture was drawn for the figure "${block.title}"`);
      const title = `Figure ${++counters.figure}: ${cleanText(block.title)}`;
      const width = Math.min(CONTENT_PX, figure.width);
      const height = Math.round((width * figure.height) / figure.width);
      return [
        new Paragraph({ keepNext: true, spacing: { before: 160, after: 60 }, children: [new TextRun({ text: title, bold: true, size: 19 })] }),
        new Paragraph({
          alignment: AlignmentType.CENTER,
          keepNext: !!block.caption,
          children: [new ImageRun({ type: 'png', data: figure.png, transformation: { width, height }, altText: { name: `figure-${counters.figure}`, title, description: title } })],
        }),
        block.caption ? new Paragraph({ style: 'Caption', children: lines(cleanText(block.caption)) }) : spacer(),
      ];
    }
  }
}

/** A run per line, with line breaks between them (a newline inside a run would be lost). */
function lines(text: string, options: { bold?: boolean; size?: number; color?: string } = {}): TextRun[] {
  return text.split('\n').map((line, i) => new TextRun({ text: line, break: i > 0 ? 1 : undefined, ...options }));
}

function spacer(): Paragraph {
  return new Paragraph({ spacing: { after: 120 }, children: [] });
}

interface TableSpec {
  columns?: string[];
  rows: Cell[][];
  highlightRow?: number;
  keyColumn?: boolean;
}

const CELL_MARGINS = { top: 40, bottom: 40, left: 90, right: 90 };
const THIN = { style: BorderStyle.SINGLE, size: 4, color: COLORS.rule };
const NONE = { style: BorderStyle.NONE, size: 0, color: 'FFFFFF' };

/** A table at text width, columns sized by their longest text; the header row repeats on each page. */
function dataTable(spec: TableSpec): Table {
  const n = Math.max(spec.columns?.length ?? 0, ...spec.rows.map((r) => r.length), 1);
  const fontSize = n > 8 ? 15 : 18;
  const header = spec.columns?.map((c) => cleanText(c));
  const rows = spec.rows.map((r) => Array.from({ length: n }, (_, i) => (i < r.length ? r[i] : null)));
  const texts = spec.keyColumn ? rows.map((r) => r.map(cellText)) : tableTexts(rows, n);
  const right = spec.keyColumn ? new Array<boolean>(n).fill(false) : numericColumns(rows, n);
  const longest = Array.from({ length: n }, (_, i) => Math.max(header?.[i]?.length ?? 0, ...texts.slice(0, 200).map((r) => r[i].length)));
  // A header wraps between its words, never inside one: a column is at least as wide as its header's longest word.
  const longestWord = Array.from({ length: n }, (_, i) => Math.max(0, ...(header?.[i] ?? '').split(/\s+/).map((w) => w.length)));
  const weights = longest.map((l, i) => Math.max(Math.min(40, Math.max(4, l)), longestWord[i] + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const columnWidths = weights.map((w) => Math.floor((w / total) * CONTENT_TWIPS));
  const cell = (text: string, opts: { bold?: boolean; fill?: string; right?: boolean; muted?: boolean }, col: number): TableCell =>
    new TableCell({
      width: { size: columnWidths[col], type: WidthType.DXA },
      margins: CELL_MARGINS,
      shading: opts.fill ? { type: ShadingType.CLEAR, color: 'auto', fill: opts.fill } : undefined,
      children: [
        new Paragraph({ alignment: opts.right ? AlignmentType.RIGHT : AlignmentType.LEFT, children: lines(text, { bold: opts.bold, size: fontSize, color: opts.muted ? COLORS.muted : undefined }) }),
      ],
    });
  const tableRows: TableRow[] = [];
  if (header) tableRows.push(new TableRow({ tableHeader: true, cantSplit: true, children: header.map((h, i) => cell(h, { bold: true, fill: COLORS.headerFill, right: right[i] }, i)) }));
  texts.forEach((cells, r) => {
    const highlight = r === spec.highlightRow;
    tableRows.push(
      new TableRow({
        cantSplit: true,
        children: cells.map((t, i) =>
          cell(t, { bold: highlight || (spec.keyColumn && i === 0), fill: highlight ? COLORS.highlight : undefined, right: right[i], muted: spec.keyColumn && i === 0 }, i),
        ),
      }),
    );
  });
  return new Table({
    width: { size: CONTENT_TWIPS, type: WidthType.DXA },
    columnWidths,
    rows: tableRows,
    borders: { top: THIN, bottom: THIN, left: NONE, right: NONE, insideHorizontal: THIN, insideVertical: NONE },
  });
}
