import { experimentDocument } from '../../bench/reports/fixtures';
import { formatNumber } from './cells';
import { figureBlocks } from './figures';
import { renderReport } from './index';
import { hostileDocument, INTERNATIONAL } from './test-helpers';

async function html(doc = experimentDocument(20)): Promise<string> {
  const { bytes, contentType, extension } = await renderReport(doc, 'html');
  expect(contentType).toBe('text/html; charset=utf-8');
  expect(extension).toBe('html');
  return bytes.toString('utf8');
}

test('the HTML is one file with no script and no request: every picture a data: URI, every link an anchor in the page', async () => {
  const doc = experimentDocument(20);
  const page = await html(doc);
  expect(page).not.toMatch(/<script/i);
  expect(page).not.toMatch(/\son[a-z]+\s*=/i);
  expect(page).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">`);
  const srcs = [...page.matchAll(/\ssrc="([^"]*)"/g)].map((m) => m[1]);
  expect(srcs).toHaveLength(figureBlocks(doc).length);
  for (const src of srcs) expect(src).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
  const hrefs = [...page.matchAll(/\shref="([^"]*)"/g)].map((m) => m[1]);
  expect(hrefs.length).toBeGreaterThan(9);
  const ids = new Set([...page.matchAll(/\sid="([^"]*)"/g)].map((m) => m[1]));
  for (const href of hrefs) {
    expect(href).toMatch(/^#/);
    expect(ids.has(href.slice(1))).toBe(true);
  }
  expect(page).not.toMatch(/(src|href)\s*=\s*["']?(https?:)?\/\//i);
  expect(page).not.toMatch(/url\(/i);
});

test('the HTML shows the title, the contents, headings, figures and the best metric to 4 decimals, and prints the sections flowing, headings kept with what follows', async () => {
  const doc = experimentDocument(20);
  const page = await html(doc);
  expect(page).toContain('<title>Experiment report: Titanic survival</title>');
  expect(page).toContain('<nav class="toc" aria-label="Contents">');
  expect(page).toMatch(/<h2><span class="num">3<\/span> Leaderboard<\/h2>/);
  expect(page).toMatch(/<h3><span class="num">6\.2<\/span> Confusion matrix<\/h3>/);
  const lb = doc.sections.find((s) => s.id === 'leaderboard')?.blocks[0];
  if (lb?.type !== 'table') throw new Error('no leaderboard');
  expect(page).toContain(`<tr class="highlight"><td class="n">1</td><td>${lb.rows[0][1]}</td>`);
  expect(page).toContain(`<td class="n">${formatNumber(lb.rows[0][3] as number)}</td>`);
  expect(page).not.toMatch(/break-before: page/);
  expect(page).toMatch(/h2, h3, h4, h5, h6 \{[^}]*break-after: avoid;/);
  expect(page).toMatch(/thead \{ display: table-header-group; \}/);
});

test('hostile user text is escaped everywhere: title, meta, headings, cells, captions, alt text and anchors', async () => {
  const page = await html(hostileDocument());
  expect(page).not.toMatch(/<script/i);
  expect(page).not.toMatch(/<img src=x/);
  const escaped = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &quot;quoted&quot; &#39;single&#39; &amp; ampersand &lt;img src=x onerror=alert(1)&gt;';
  expect(page).toContain(`<title>Report ${escaped}</title>`);
  expect(page).toContain(`<h1>Report ${escaped}</h1>`);
  expect(page).toContain(`<td>${escaped}</td>`);
  expect(page).toContain(`alt="${escaped}"`);
  expect(page).toContain(`<caption>Table 1: ${escaped}</caption>`);
  // Two sections with the same id '<script>' get distinct, safe anchors.
  expect(page).toContain('id="sec-script"');
  expect(page).toContain('id="sec-script-2"');
  expect(page).toContain(INTERNATIONAL);
  // eslint-disable-next-line no-control-regex -- looking for control characters is the point
  expect(page).not.toMatch(/[\u0000-\u0008]/);
});
