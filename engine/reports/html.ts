import { cellText, cleanText, numericColumns, tableTexts } from './cells';
import type { Block, ReportDocument } from './document';
import type { Figures } from './figures';
import { outline, OutlineEntry, TOC_DEPTH } from './outline';

/**
 * One self-contained HTML file: CSS inline, pictures as data: URIs, no script, and a Content-Security-Policy that
 * forbids any request a stray URL could make. Printing it flows the sections one after another (a heading stays with
 * what follows it, figures and rows are not split) with repeated table headers. Every user string goes through `esc`.
 */
export function renderHtml(doc: ReportDocument, figures: Figures): string {
  const entries = outline(doc);
  const counters = { figure: 0, table: 0 };
  const body = entries.map((e) => sectionHtml(e, figures, counters)).join('\n');
  const meta = doc.meta.map(([k, v]) => `<tr><th scope="row">${esc(k)}</th><td>${esc(v)}</td></tr>`).join('');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
<meta name="generator" content="ml-lifecycle-service reports">
<title>${esc(doc.title)}</title>
<style>${CSS}</style>
</head>
<body>
<header class="cover">
<h1>${esc(doc.title)}</h1>
${doc.subtitle ? `<p class="subtitle">${esc(doc.subtitle)}</p>\n` : ''}<table class="meta"><tbody>${meta}<tr><th scope="row">Generated</th><td><time datetime="${esc(doc.generatedAt)}">${esc(readableTime(doc.generatedAt))}</time></td></tr></tbody></table>
</header>
<nav class="toc" aria-label="Contents">
<h2>Contents</h2>
${tocHtml(entries)}
</nav>
<main>
${body}
</main>
</body>
</html>
`;
}

/** Nested lists of links, one level per section depth down to TOC_DEPTH. */
function tocHtml(entries: OutlineEntry[]): string {
  let html = '';
  let depth = 0;
  for (const e of entries.filter((x) => x.level <= TOC_DEPTH)) {
    if (e.level > depth) html += '<ol>'.repeat(e.level - depth);
    else html += '</li>' + '</ol></li>'.repeat(depth - e.level);
    depth = e.level;
    html += `<li><a href="#${e.anchor}"><span class="num">${e.number}</span> ${esc(e.section.title)}</a>`;
  }
  return html + '</li></ol>'.repeat(depth);
}

/** A section's heading and blocks; its subsections are entries of their own, so sections are not nested in the markup. */
function sectionHtml(e: OutlineEntry, figures: Figures, counters: { figure: number; table: number }): string {
  const h = Math.min(6, e.level + 1);
  const reading = e.section.reading ? `<p class="reading">${esc(e.section.reading)}</p>\n` : '';
  const blocks = e.section.blocks.map((b) => blockHtml(b, figures, counters)).join('\n');
  return `<section id="${e.anchor}" class="level-${Math.min(e.level, 3)}">\n<h${h}><span class="num">${e.number}</span> ${esc(e.section.title)}</h${h}>\n${reading}${blocks}\n</section>`;
}

function blockHtml(block: Block, figures: Figures, counters: { figure: number; table: number }): string {
  switch (block.type) {
    case 'paragraph':
      return cleanText(block.text)
        .split(/\n{2,}/)
        .map((p) => `<p>${esc(p).replace(/\n/g, '<br>')}</p>`)
        .join('\n');
    case 'note':
      return `<p class="note">${esc(block.text)}</p>`;
    case 'keyValues':
      return `<table class="kv"><tbody>${block.items.map(([k, v]) => `<tr><th scope="row">${esc(k)}</th><td>${esc(cellText(v))}</td></tr>`).join('')}</tbody></table>`;
    case 'table': {
      const caption = block.caption ? `<caption>Table ${++counters.table}: ${esc(block.caption)}</caption>` : '';
      const numeric = numericColumns(block.rows, block.columns.length);
      const n = (i: number): string => (numeric[i] ? ' class="n"' : '');
      const head = `<thead><tr>${block.columns.map((c, i) => `<th scope="col"${n(i)}>${esc(c)}</th>`).join('')}</tr></thead>`;
      const texts = tableTexts(block.rows, block.columns.length);
      const rows = texts.map((row, r) => `<tr${r === block.highlightRow ? ' class="highlight"' : ''}>${row.map((c, i) => `<td${n(i)}>${esc(c)}</td>`).join('')}</tr>`).join('\n');
      return `<div class="table-wrap"><table class="data">${caption}${head}<tbody>\n${rows}\n</tbody></table></div>`;
    }
    case 'chart':
    case 'heatmap': {
      const figure = figures.get(block);
      if (!figure) throw new Error(`No picture was drawn for the figure "${block.title}"`);
      const n = ++counters.figure;
      const caption = block.caption ? `<figcaption>${esc(block.caption)}</figcaption>` : '';
      return `<figure>
<p class="figure-title">Figure ${n}: ${esc(block.title)}</p>
<img src="data:image/png;base64,${figure.png.toString('base64')}" width="${figure.width}" height="${figure.height}" alt="${esc(block.title)}">
${caption}</figure>`;
    }
  }
}

/** Text as HTML content or attribute value: the five characters that can change markup are escaped. */
export function esc(text: string): string {
  return cleanText(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** "2026-11-24 14:05 UTC": the same in every format, whatever the reader's locale. */
export function readableTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

const CSS = `
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", "Segoe UI", Helvetica, Arial, sans-serif; font-size: 15px; line-height: 1.5; color: #1f2328; background: #fff; max-width: 960px; margin: 0 auto; padding: 24px 28px 64px; }
h1 { font-size: 28px; margin: 8px 0 4px; line-height: 1.2; overflow-wrap: anywhere; }
h2 { font-size: 22px; margin: 36px 0 12px; padding-bottom: 4px; border-bottom: 2px solid #d0d7de; }
h3 { font-size: 18px; margin: 26px 0 10px; }
h4, h5, h6 { font-size: 16px; margin: 20px 0 8px; }
h2, h3, h4, h5, h6 { overflow-wrap: anywhere; break-after: avoid; }
.num { color: #57606a; margin-right: 4px; }
p { margin: 8px 0; overflow-wrap: anywhere; }
.subtitle { font-size: 18px; color: #57606a; margin: 0 0 16px; }
.reading { background: #f4f7fb; border-left: 3px solid #8fb3d9; padding: 6px 10px; }
.note { color: #57606a; font-style: italic; border-left: 3px solid #d0d7de; padding-left: 10px; }
table { border-collapse: collapse; font-size: 13px; }
th, td { padding: 4px 10px; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
td.n { white-space: nowrap; }
table.meta th, table.kv th { color: #57606a; font-weight: 600; padding-left: 0; }
table.kv { margin: 8px 0 16px; }
table.kv tr + tr th, table.kv tr + tr td { border-top: 1px solid #eaeef2; }
.table-wrap { overflow-x: auto; margin: 12px 0 20px; }
table.data { min-width: 50%; }
table.data caption { caption-side: top; text-align: left; font-weight: 600; padding: 4px 0; }
table.data thead th { background: #eef1f5; border-bottom: 2px solid #d0d7de; }
/* A header wraps between its words only, never inside one ("loglos / s"): the table scrolls sideways instead. */
table.data thead th { overflow-wrap: normal; word-break: keep-all; hyphens: none; }
table.data tbody td { border-bottom: 1px solid #eaeef2; }
table.data tbody tr:nth-child(even) td { background: #fafbfc; }
table.data tr.highlight td { background: #fff4c2; font-weight: 600; }
figure { margin: 16px 0 24px; }
figure img { display: block; max-width: 100%; height: auto; border: 1px solid #eaeef2; }
.figure-title { font-weight: 600; margin: 0 0 6px; }
figcaption { color: #57606a; font-size: 13px; margin-top: 6px; }
nav.toc ol { list-style: none; padding-left: 0; margin: 4px 0; }
nav.toc ol ol { padding-left: 24px; }
nav.toc a { color: #0b5cad; text-decoration: none; }
nav.toc a:hover { text-decoration: underline; }
@page { size: A4; margin: 16mm 14mm; }
@media print {
  body { max-width: none; padding: 0; font-size: 10.5pt; }
  nav.toc a { color: inherit; }
  .reading, p { orphans: 2; widows: 2; }
  .table-wrap { overflow: visible; }
  table.data { font-size: 8.5pt; }
  thead { display: table-header-group; }
  tr, figure, .figure-title, table.kv, .reading { break-inside: avoid; }
  .figure-title { break-after: avoid; }
}
`;
