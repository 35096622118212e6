import { experimentDocument } from '../../bench/reports/fixtures';
import { decimalsOf, formatNumber, tableTexts } from './cells';
import type { ReportDocument, Section } from './document';
import { renderReport } from './index';
import { docxParagraphs, pageBody, pdfPageTexts, requirePoppler, tempDir, thinPage } from './test-helpers';

/**
 * Layout of the formats (issue 33): sections flow without a page each, a heading never ends a page, no page holds a
 * lone table row, table headers wrap between words only, the reading paragraph of each section is printed in every
 * format in the same place, and numbers are written for people.
 */
const tmp = tempDir('reports-layout');
beforeAll(() => requirePoppler());
afterAll(() => tmp.cleanup());

test('numbers for people: thousands separated, at most 4 decimals without trailing zeros, a table column written alike', () => {
  expect(formatNumber(1309)).toBe('1,309');
  expect(formatNumber(-1234567)).toBe('-1,234,567');
  expect(formatNumber(57.1)).toBe('57.1');
  expect(formatNumber(57.1, 4)).toBe('57.1000');
  expect(formatNumber(0.912345)).toBe('0.9123');
  expect(formatNumber(12345.678)).toBe('12,345.678');
  expect(formatNumber(0.00001234)).toBe('1.234e-5');
  expect(decimalsOf(0.91)).toBe(2);
  expect(decimalsOf(3)).toBe(0);
  // The AUC column lines up (0.9100 under 0.9123); the count column keeps its integers; text stays text.
  expect(
    tableTexts(
      [
        ['a', 0.912345, 1200, 57.1],
        ['b', 0.91, 3, null],
      ],
      4,
    ),
  ).toEqual([
    ['a', '0.9123', '1,200', '57.1'],
    ['b', '0.9100', '3', '—'],
  ]);
});

/** A small document: a few short sections, a one-row table, a two-row table; what a small project's report is. */
function smallDocument(): ReportDocument {
  const section = (id: string, title: string, rows: number): Section => ({
    id,
    title,
    reading: `What ${title.toLowerCase()} says, in plain words: the figures below, and what looks wrong in them.`,
    blocks: [{ type: 'table', columns: ['name', 'mean_per_class_error', 'logloss', 'rows'], rows: Array.from({ length: rows }, (_, i) => [`item ${i + 1}`, 0.1234 + i / 100, 0.5, 1000 + i]) }],
  });
  return {
    title: 'Project report: Small',
    generatedAt: '2026-11-28T02:00:00Z',
    meta: [['Project', 'Small']],
    sections: [section('datasets', 'Datasets and their quality', 1), section('experiments', 'Experiments timeline', 1), section('best', 'Best models', 1), section('deployments', 'Deployments', 1)],
  };
}

test('a small document flows onto one or two pages, not a page per section', async () => {
  const pdf = (await renderReport(smallDocument(), 'pdf')).bytes;
  const pages = pdfPageTexts(pdf, tmp.dir);
  expect(pages.length).toBeLessThanOrEqual(2);
  for (const page of pages) expect(thinPage(page)).toBeNull();
});

test('no page of a long experiment report holds only a heading or a single table row', async () => {
  for (const models of [3, 20, 45]) {
    const pdf = (await renderReport(experimentDocument(models), 'pdf')).bytes;
    const pages = pdfPageTexts(pdf, tmp.dir);
    pages.forEach((page, i) => expect({ models, page: i + 1, thin: thinPage(page) }).toEqual({ models, page: i + 1, thin: null }));
    // The last line of a page is never a heading with its section on the next page.
    for (const page of pages.slice(0, -1)) {
      const body = pageBody(page);
      expect(body[body.length - 1]).not.toMatch(/^\d+(\.\d+)*\s+[A-Z][a-z]+( [a-z]+)*$/);
    }
  }
});

test('a table a page cannot hold leaves no lone row on either side of the break', async () => {
  let broken = 0;
  for (const rows of [30, 42, 43, 44, 45, 46, 47, 60, 61]) {
    const doc: ReportDocument = {
      title: 'Rows',
      generatedAt: '2026-11-28T02:00:00Z',
      meta: [],
      sections: [
        {
          id: 't',
          title: 'Table',
          blocks: [
            { type: 'paragraph', text: 'Filler. '.repeat(60) },
            { type: 'table', columns: ['row', 'value'], rows: Array.from({ length: rows }, (_, i) => [`row ${i + 1}`, i]) },
          ],
        },
      ],
    };
    const pages = pdfPageTexts((await renderReport(doc, 'pdf')).bytes, tmp.dir);
    broken += pages.length > 1 ? 1 : 0;
    for (const page of pages) {
      const tableRows = pageBody(page).filter((l) => /^row \d+\s/.test(l)).length;
      if (tableRows) expect({ rows, tableRows: Math.min(tableRows, 2) }).toEqual({ rows, tableRows: 2 });
    }
  }
  // Most of these tables do cross a page break (the test would say nothing otherwise).
  expect(broken).toBeGreaterThanOrEqual(6);
});

test('table headers wrap between words only, never inside one, however many columns', async () => {
  const columns = ['model', 'mean_per_class_error', 'logloss', 'accuracy', 'aucpr', 'training s', 'predict ms/row', 'mean_residual_deviance', 'rmsle', 'r2', 'mae', 'rmse'];
  const doc: ReportDocument = {
    title: 'Wide',
    generatedAt: '2026-11-28T02:00:00Z',
    meta: [],
    sections: [{ id: 'w', title: 'Wide table', blocks: [{ type: 'table', columns, rows: [['GBM_1_AutoML_20261128', ...columns.slice(1).map((_, i) => 0.123456 + i)]] }] }],
  };
  const text = pdfPageTexts((await renderReport(doc, 'pdf')).bytes, tmp.dir).join('\n');
  const words = text.split(/\s+/);
  for (const word of ['mean_per_class_error', 'logloss', 'accuracy', 'mean_residual_deviance', 'predict']) expect(words).toContain(word);
  const html = (await renderReport(doc, 'html')).bytes.toString('utf8');
  expect(html).toMatch(/table\.data thead th \{[^}]*word-break: keep-all;[^}]*hyphens: none;/);
  expect(html).not.toMatch(/break-before: page/);
});

test('each section reading is printed under its heading in HTML, PDF and DOCX, in the same order', async () => {
  const doc = smallDocument();
  const readings = doc.sections.map((s) => s.reading as string);
  const html = (await renderReport(doc, 'html')).bytes.toString('utf8');
  const inHtml = [...html.matchAll(/<p class="reading">([^<]*)<\/p>/g)].map((m) => m[1]);
  expect(inHtml).toEqual(readings);
  const pdfText = pdfPageTexts((await renderReport(doc, 'pdf')).bytes, tmp.dir)
    .join('\n')
    .replace(/\s+/g, ' ');
  const at = readings.map((r) => pdfText.indexOf(r));
  expect(at.every((i) => i >= 0)).toBe(true);
  expect([...at].sort((a, b) => a - b)).toEqual(at);
  const paragraphs = docxParagraphs((await renderReport(doc, 'docx')).bytes);
  expect(paragraphs.filter((p) => p.style === 'Reading').map((p) => p.text)).toEqual(readings);
  // The reading follows its heading directly.
  const headingAt = paragraphs.findIndex((p) => p.style === 'Heading1' && p.text.endsWith('Experiments timeline'));
  expect(paragraphs[headingAt + 1]).toEqual({ style: 'Reading', text: readings[1] });
});
