import { experimentDocument } from '../../bench/reports/fixtures';
import { formatNumber } from './cells';
import type { ReportDocument } from './document';
import { renderReport } from './index';
import { hostileDocument, inkShare, pdfPageCount, pdfPages, pdfText, pixelVariance, requirePoppler, tempDir } from './test-helpers';

const tmp = tempDir('reports-pdf');
let doc: ReportDocument;
let pdf: Buffer;
let text: string;
let pages: number;

beforeAll(async () => {
  requirePoppler();
  doc = experimentDocument(20);
  pdf = (await renderReport(doc, 'pdf')).bytes;
  text = pdfText(pdf, tmp.dir);
  pages = pdfPageCount(pdf, tmp.dir);
});
afterAll(() => tmp.cleanup());

/** The best model's AUC as the leaderboard holds it: the first row's AUC column. */
function bestAuc(d: ReportDocument): number {
  const table = d.sections.find((s) => s.id === 'leaderboard')?.blocks[0];
  if (table?.type !== 'table') throw new Error('the fixture has no leaderboard table');
  return table.rows[0][table.columns.indexOf('AUC')] as number;
}

test('a 20-model experiment PDF has a plausible number of pages, each with something on it', () => {
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  // The sections flow one after another (no page each); 20 models' tables and 6 figures take several pages, not one per row.
  expect(pages).toBeGreaterThanOrEqual(5);
  expect(pages).toBeLessThanOrEqual(14);
  const images = pdfPages(pdf, tmp.dir);
  expect(images).toHaveLength(pages);
  // A page with nothing but the running header, a heading and the footer has ~0.07% ink at 30 dpi; every page here has more.
  for (const page of images) {
    expect(pixelVariance(page)).toBeGreaterThan(50);
    expect(inkShare(page)).toBeGreaterThan(0.002);
    expect(inkShare(page)).toBeLessThan(0.3);
  }
});

test('the text layer holds the headings, the best metric to 4 decimals, the contents with page numbers, and the footer', () => {
  // pdftotext writes the gap between a section number and its title as one space.
  for (const heading of ['Experiment report: Titanic survival', 'Contents', '1 Summary', '3 Leaderboard', '5 Variable importance', '6.2 Confusion matrix', '7 Learning curves', '8 Hyperparameters']) {
    expect(text).toContain(heading);
  }
  const auc = formatNumber(bestAuc(doc));
  expect(auc).toMatch(/^0\.\d{4}$/);
  expect(text).toContain(auc);
  // A contents line: the section, dot leaders, its page number.
  expect(text).toMatch(/3 Leaderboard[ .]+\d+/);
  expect(text).toContain(`Page 1 of ${pages}`);
  expect(text).toContain(`Page ${pages} of ${pages}`);
  // The running header repeats the title on every page.
  expect(text.split('Experiment report: Titanic survival').length - 1).toBeGreaterThanOrEqual(pages);
  expect(text).toContain('Figure 1: AUC against training time');
});

test('the contents page numbers point at the pages where the sections start', () => {
  const byPage = text.split('\f');
  const listed = Number(/3 Leaderboard[ .]+(\d+)/.exec(text)?.[1]);
  expect(byPage[listed - 1]).toMatch(/\n\s*3 Leaderboard\n/);
  const hyper = Number(/8 Hyperparameters[ .]+(\d+)/.exec(text)?.[1]);
  expect(byPage[hyper - 1]).toContain('Table 4: GBM hyperparameters');
});

test('user text of any script prints and extracts, hostile markup stays text, and a long table repeats its header on every page', async () => {
  const hostile = hostileDocument();
  const bytes = (await renderReport(hostile, 'pdf')).bytes;
  const hostileText = pdfText(bytes, tmp.dir);
  expect(hostileText).toContain('Ωμέγα αβγ');
  expect(hostileText).toContain('Привет мир');
  expect(hostileText).toContain('Zürich Ærø');
  expect(hostileText).toContain('<script>alert("x")</script>');
  expect(hostileText).toContain('row 150');
  // The 150 rows span pages; each page of the table starts with the header row again.
  const tablePages = hostileText.split('\f').filter((p) => /row \d+/.test(p));
  expect(tablePages.length).toBeGreaterThanOrEqual(2);
  for (const page of tablePages) expect(page).toMatch(/\n\s*Row\s+Value A\s+Value\s+Text\n\s*label\s+B\n/);
  // The 400-character token is wrapped, not cut off: all of its characters are on the page.
  expect(hostileText.replace(/\s+/g, '')).toContain('x'.repeat(400));
  const count = pdfPageCount(bytes, tmp.dir);
  expect(hostileText).toContain(`Page ${count} of ${count}`);
});
