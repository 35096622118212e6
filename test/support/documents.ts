// The engine's own readers, so the unit and the HTTP tests read documents one way (test code only).
// eslint-disable-next-line no-restricted-imports
import * as pdf from '../../engine/reports/test-helpers';

/**
 * Documents read back as a person would see them, for the HTTP tests: the reports engine's own
 * readers (poppler for PDF, the DOCX XML), each in a temporary folder of its own. Poppler
 * (Debian's poppler-utils) is installed by .ci/run.
 */
function inTemp<T>(fn: (dir: string) => T): T {
  const t = pdf.tempDir('report-test');
  try {
    return fn(t.dir);
  } finally {
    t.cleanup();
  }
}

export const pdfText = (buf: Buffer): string => inTemp((dir) => pdf.pdfText(buf, dir));
export const pdfPageCount = (buf: Buffer): number => inTemp((dir) => pdf.pdfPageCount(buf, dir));
/** Each page's text on its own (`pdftotext -f N -l N`). */
export const pdfPageTexts = (buf: Buffer): string[] => inTemp((dir) => pdf.pdfPageTexts(buf, dir));
/** Why a page holds too little to stand alone (only a heading, a lone table row), or null. */
export const thinPage = pdf.thinPage;
/** Each page at 30 dpi: the share of its pixels that are ink. */
export const pdfInkPerPage = (buf: Buffer): number[] => inTemp((dir) => pdf.pdfPages(buf, dir).map(pdf.inkShare));

/** The paragraphs of a DOCX body in order, with the style of each (e.g. Heading1), and its table cells. */
export function docxContent(buf: Buffer): { paragraphs: { style: string | null; text: string }[]; tableCells: string[] } {
  const xml = pdf.unzip(buf).get('word/document.xml')?.toString('utf8');
  if (!xml) throw new Error('no word/document.xml in the DOCX');
  const text = (frag: string) =>
    [...frag.matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g)]
      .map((m) => m[1])
      .join('')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&');
  const paragraphs = [...xml.matchAll(/<w:p[ >][\s\S]*?<\/w:p>/g)].map((m) => ({ style: /<w:pStyle w:val="([^"]+)"/.exec(m[0])?.[1] ?? null, text: text(m[0]) }));
  const tableCells = [...xml.matchAll(/<w:tc>[\s\S]*?<\/w:tc>/g)].map((m) => text(m[0]));
  return { paragraphs, tableCells };
}
