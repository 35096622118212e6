import { inflateSync } from 'node:zlib';
import { experimentDocument } from '../../bench/reports/fixtures';
import { cleanText, formatCell, formatNumber } from './cells';
import { chartConfig } from './charts';
import { renderFigures } from './figures';
import type { ReportDocument } from './document';
import { renderReport, reportFileName } from './index';
import { hostileDocument } from './test-helpers';

test('numbers read the same in every format: integers whole with separators, others to at most 4 decimals, extremes in exponent form', () => {
  expect(formatNumber(20)).toBe('20');
  expect(formatNumber(0.912345)).toBe('0.9123');
  expect(formatNumber(367.37219)).toBe('367.3722');
  expect(formatNumber(-0.5)).toBe('-0.5');
  expect(formatNumber(0.00001234)).toBe('1.234e-5');
  expect(formatNumber(NaN)).toBe('NaN');
  expect(formatCell(null)).toBe('—');
  expect(formatCell('text')).toBe('text');
  expect(cleanText('a\u0000b\u0007c\r\nd\ud800')).toBe('abc\nd');
});

test('the download file name says what the report is, in ASCII, with no path characters', () => {
  const doc = experimentDocument(3);
  expect(reportFileName({ ...doc, title: 'Titanic survival' }, 'pdf')).toBe('experiment-titanic-survival-2026-11-24.pdf');
  expect(reportFileName(doc, 'docx')).toBe('experiment-report-titanic-survival-2026-11-24.docx');
  const hostile = reportFileName({ ...hostileDocument(), title: '../../etc/passwd Zürich 漢字 "x"; y' }, 'html');
  expect(hostile).toBe('experiment-etc-passwd-zurich-x-y-2026-11-24.html');
  expect(reportFileName({ ...doc, title: '漢字', meta: [] }, 'pdf')).toBe('report-2026-11-24.pdf');
  expect(reportFileName({ ...doc, title: 'x'.repeat(500) }, 'pdf').length).toBeLessThanOrEqual(120);
});

test('charts are drawn once per document: a second format reuses the pictures, a changed chart is drawn anew', async () => {
  const doc = experimentDocument(5);
  const first = await renderFigures(doc);
  const again = await renderFigures(doc);
  expect(first.size).toBe(6);
  for (const [block, figure] of first) expect(again.get(block)?.png).toBe(figure.png);
  const chart = doc.sections.find((s) => s.id === 'pareto')?.blocks[0];
  if (chart?.type !== 'chart') throw new Error('no Pareto chart');
  chart.title = 'Changed';
  const changed = await renderFigures(doc);
  expect(changed.get(chart)?.png).not.toBe(first.get(chart)?.png);
});

test('pictures are opaque RGB PNGs at twice their layout size', async () => {
  const doc = experimentDocument(5);
  for (const figure of (await renderFigures(doc)).values()) {
    expect(figure.png.subarray(1, 4).toString()).toBe('PNG');
    expect(figure.png.readUInt32BE(16)).toBe(figure.width * 2);
    expect(figure.png.readUInt32BE(20)).toBe(figure.height * 2);
    expect(figure.png[25]).toBe(2); // colour type RGB: no alpha channel
  }
});

/** The RGB pixels of a PNG the engine wrote (8-bit RGB, filter type 0 on every row, as encodePng writes them). */
function rgbPixels(png: Buffer): { width: number; height: number; rgb: Buffer } {
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const idat: Buffer[] = [];
  for (let p = 8; p < png.length;) {
    const length = png.readUInt32BE(p);
    if (png.toString('ascii', p + 4, p + 8) === 'IDAT') idat.push(png.subarray(p + 8, p + 8 + length));
    p += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const rgb = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) raw.copy(rgb, y * width * 3, y * (width * 3 + 1) + 1, (y + 1) * (width * 3 + 1));
  return { width, height, rgb };
}

test('a chart is drawn on a white page: mostly white, with its data in the palette colour and dark axis text', async () => {
  const doc = experimentDocument(5);
  const figures = await renderFigures(doc);
  const bars = [...figures.entries()].find(([b]) => b.type === 'chart' && b.chart.type === 'bar');
  if (!bars) throw new Error('no bar chart');
  const { rgb } = rgbPixels(bars[1].png);
  let white = 0;
  let palette = 0;
  let dark = 0;
  for (let i = 0; i < rgb.length; i += 3) {
    const [r, g, b] = [rgb[i], rgb[i + 1], rgb[i + 2]];
    if (r > 245 && g > 245 && b > 245) white++;
    else if (Math.abs(r - 0x4e) < 8 && Math.abs(g - 0x79) < 8 && Math.abs(b - 0xa7) < 8) palette++;
    else if (r < 90 && g < 90 && b < 90) dark++;
  }
  const n = rgb.length / 3;
  expect(white / n).toBeGreaterThan(0.5);
  expect(palette / n).toBeGreaterThan(0.03); // the bars
  expect(dark / n).toBeGreaterThan(0.002); // tick labels and the axis title: the font was found
});

test('a very large heatmap stays a printable picture: the grid shrinks instead of the canvas growing without bound', async () => {
  const rows = 300;
  const cols = 200;
  const doc: ReportDocument = {
    title: 'Big',
    generatedAt: '2026-11-24T00:00:00Z',
    meta: [],
    sections: [
      {
        id: 'h',
        title: 'Heatmap',
        blocks: [
          {
            type: 'heatmap',
            title: 'Correlations',
            rowLabels: Array.from({ length: rows }, (_, i) => `row ${i}`),
            columnLabels: Array.from({ length: cols }, (_, i) => `column ${i}`),
            values: Array.from({ length: rows }, (_, r) => Array.from({ length: cols }, (_, c) => Math.sin(r * c))),
          },
        ],
      },
    ],
  };
  const [figure] = (await renderFigures(doc)).values();
  expect(figure.width).toBeLessThan(3000);
  expect(figure.height).toBeLessThan(3000);
});

test('progress rises from 0 to 1 while a report renders', async () => {
  const seen: number[] = [];
  await renderReport(experimentDocument(5), 'pdf', { onProgress: (f) => seen.push(f) });
  expect(seen[0]).toBe(0);
  expect(seen[seen.length - 1]).toBe(1);
  expect(seen.length).toBeGreaterThan(5);
  for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThanOrEqual(seen[i - 1]);
});

test('the chart configuration is static: no animation, no responsiveness, print resolution, explicit axes', () => {
  const config = chartConfig({ type: 'bar', indexAxis: 'y', data: { labels: ['a', 'b'], datasets: [{ label: 'x', data: [1, 2] }] }, xLabel: 'Importance' });
  expect(config.options).toMatchObject({ animation: false, responsive: false, devicePixelRatio: 2, indexAxis: 'y' });
  expect(config.options?.scales?.x).toMatchObject({ type: 'linear', title: { display: true, text: 'Importance' } });
  expect(config.options?.scales?.y).toMatchObject({ type: 'category' });
});

test('a bare document (no subtitle, no meta, an empty section, an empty table, a bad date) renders in every format', async () => {
  const bare = {
    title: 'Bare',
    generatedAt: 'not a date',
    meta: [] as [string, string][],
    sections: [
      { id: 'a', title: 'Empty', blocks: [] },
      {
        id: 'b',
        title: 'Empty table',
        blocks: [
          { type: 'table' as const, columns: ['x'], rows: [] },
          { type: 'keyValues' as const, items: [] },
        ],
      },
    ],
  };
  for (const format of ['html', 'pdf', 'docx'] as const) expect((await renderReport(bare, format)).bytes.length).toBeGreaterThan(1000);
  expect(reportFileName(bare, 'pdf')).toBe('bare.pdf');
});

test('an unknown format is refused', async () => {
  await expect(renderReport(experimentDocument(2), 'odt' as never)).rejects.toThrow('Unknown report format: odt');
});
