/**
 * The reports engine: a ReportDocument (document.ts) in, an HTML, PDF or DOCX file out. Pure: no HTTP, no database,
 * nothing downloaded. Charts are chart.js drawn on @napi-rs/canvas, the same pictures in every format.
 */
import { cellText, formatCell, formatNumber } from './cells';
import type { ReportDocument, ReportFormat } from './document';
import { renderDocx } from './docx';
import { renderFigures } from './figures';
import { renderHtml } from './html';
import { renderPdf } from './pdf';

export type { Block, Cell, ChartSpec, ReportDocument, ReportFormat, Section } from './document';
export { reportFileName } from './file-name';
export { renderReportInThread } from './in-thread';
export { cellText, formatCell, formatNumber };

export const REPORT_FORMATS: readonly ReportFormat[] = ['html', 'pdf', 'docx'];

const CONTENT_TYPES: Record<ReportFormat, string> = {
  html: 'text/html; charset=utf-8',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

/** Drawing the figures is most of the work; the rest is laying out and writing the file. */
const FIGURES_SHARE = 0.8;

/**
 * Renders a document in one format. Charts are drawn once per document (and per block content): asking for another
 * format of the same document object reuses them. `onProgress` gets fractions in [0, 1], rising, ending with 1.
 */
export async function renderReport(
  doc: ReportDocument,
  format: ReportFormat,
  opts: { onProgress?: (fraction: number) => void } = {},
): Promise<{ bytes: Buffer; contentType: string; extension: 'html' | 'pdf' | 'docx' }> {
  if (!REPORT_FORMATS.includes(format)) throw new Error(`Unknown report format: ${String(format)}`);
  const progress = opts.onProgress ?? (() => {});
  progress(0);
  const figures = await renderFigures(doc, (f) => progress(f * FIGURES_SHARE));
  let bytes: Buffer;
  if (format === 'html') bytes = Buffer.from(renderHtml(doc, figures), 'utf8');
  else if (format === 'pdf') bytes = await renderPdf(doc, figures);
  else bytes = await renderDocx(doc, figures);
  progress(1);
  return { bytes, contentType: CONTENT_TYPES[format], extension: format };
}
