/**
 * Shared helpers for the reports engine's tests (not a test file itself, so jest does not run it): a hostile document,
 * a ZIP reader for DOCX, and the poppler tools that turn a PDF into what a person sees.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReportDocument } from './document';
import { readZip } from '../../test/support/zip';

/** Text a user could type in a title, a comment or a cell, aimed at every renderer's escaping. */
export const HOSTILE = `<script>alert("x")</script> "quoted" 'single' & ampersand <img src=x onerror=alert(1)>`;
/** Non-Latin text: Greek and Cyrillic must print and extract; CJK and emoji must not crash anything. */
export const INTERNATIONAL = 'Ωμέγα αβγ — Привет мир — Zürich Ærø ĳ — 漢字 🙂';

/** A document with user text everywhere, control characters, a long unbroken token and a 150-row table. */
export function hostileDocument(): ReportDocument {
  return {
    title: `Report ${HOSTILE}`,
    subtitle: INTERNATIONAL,
    generatedAt: '2026-11-24T10:21:00.000Z',
    meta: [
      ['Kind', 'experiment'],
      ['Project', `${HOSTILE}\u0000\u0007`],
    ],
    sections: [
      {
        id: '<script>',
        title: `Comments ${HOSTILE}`,
        blocks: [
          { type: 'paragraph', text: `${INTERNATIONAL}\n\nSecond paragraph ${'x'.repeat(400)} end.` },
          { type: 'note', text: HOSTILE },
          {
            type: 'keyValues',
            items: [
              [HOSTILE, HOSTILE],
              ['Number', 0.123456789],
            ],
          },
        ],
      },
      {
        id: '<script>',
        title: 'Long table',
        blocks: [
          {
            type: 'table',
            columns: ['Row label', 'Value A', 'Value B', 'Text'],
            rows: Array.from({ length: 150 }, (_, i) => [`row ${i + 1}`, i / 7, i % 5 === 0 ? null : i * 3, i === 3 ? HOSTILE : `text ${i}`]),
            caption: HOSTILE,
            highlightRow: 3,
          },
          { type: 'chart', title: HOSTILE, chart: { type: 'bar', data: { labels: [HOSTILE, INTERNATIONAL], datasets: [{ label: HOSTILE, data: [1, 2] }] } }, caption: HOSTILE },
          {
            type: 'heatmap',
            title: 'Empty-ish heatmap',
            rowLabels: ['a', 'b'],
            columnLabels: [HOSTILE, 'y'],
            values: [
              [null, 1],
              [2, null],
            ],
          },
        ],
      },
    ],
  };
}

/** A fresh temporary folder and a function removing it. */
export function tempDir(prefix: string): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Every entry of a ZIP (the tests' one reader, test/support/zip.ts). */
export const unzip = readZip;

/** Fails with what to install when a poppler tool is missing (`.ci/run` installs poppler-utils). */
export function requirePoppler(): void {
  for (const tool of ['pdftotext', 'pdftoppm', 'pdfinfo']) {
    try {
      execFileSync(tool, ['-v'], { stdio: 'ignore' });
    } catch {
      throw new Error(`${tool} not found: the PDF tests read PDFs as a person sees them with Debian's poppler-utils (apt-get install -y poppler-utils)`);
    }
  }
}

/** The PDF's text layer, in reading layout. */
export function pdfText(pdf: Buffer, dir: string): string {
  const file = join(dir, `text-${Date.now()}-${Math.random()}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

export function pdfPageCount(pdf: Buffer, dir: string): number {
  const file = join(dir, `info-${Date.now()}-${Math.random()}.pdf`);
  writeFileSync(file, pdf);
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  return Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);
}

/** A page as poppler draws it: greyscale pixels. */
export interface PageImage {
  width: number;
  height: number;
  pixels: Buffer;
}

/** Every page drawn by pdftoppm in greyscale at a low resolution (enough to see what is on it). */
export function pdfPages(pdf: Buffer, dir: string, dpi = 30): PageImage[] {
  const stem = join(dir, `page-${Date.now()}-${Math.floor(Math.random() * 1e9)}`);
  writeFileSync(`${stem}.pdf`, pdf);
  execFileSync('pdftoppm', ['-r', String(dpi), '-gray', `${stem}.pdf`, stem]);
  const prefix = stem.split('/').pop() as string;
  return readdirSync(dir)
    .filter((f) => f.startsWith(`${prefix}-`) && f.endsWith('.pgm'))
    .sort()
    .map((f) => readPgm(readFileSync(join(dir, f))));
}

/** A binary PGM (P5, 8-bit), as pdftoppm -gray writes it. */
function readPgm(buf: Buffer): PageImage {
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(buf.toString('latin1', 0, 64));
  if (!header) throw new Error('not a binary PGM');
  const [, w, h] = header.map(Number);
  return { width: w, height: h, pixels: buf.subarray(header[0].length, header[0].length + w * h) };
}

/** Variance of the grey levels: ~0 for a blank page. */
export function pixelVariance(page: PageImage): number {
  let sum = 0;
  let sq = 0;
  for (const v of page.pixels) {
    sum += v;
    sq += v * v;
  }
  const n = page.pixels.length;
  return sq / n - (sum / n) ** 2;
}

/** Share of pixels that are not near-white: how much of a page is ink. */
export function inkShare(page: PageImage): number {
  let ink = 0;
  for (const v of page.pixels) if (v < 200) ink++;
  return ink / page.pixels.length;
}

/** Each page's text layer on its own (`pdftotext -f N -l N`), in reading layout. */
export function pdfPageTexts(pdf: Buffer, dir: string): string[] {
  const file = join(dir, `pages-${Date.now()}-${Math.random()}.pdf`);
  writeFileSync(file, pdf);
  const count = pdfPageCount(pdf, dir);
  return Array.from({ length: count }, (_, i) => execFileSync('pdftotext', ['-layout', '-f', String(i + 1), '-l', String(i + 1), file, '-'], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }));
}

/** A page's content lines: without the running header (title and date on top) and the "Page N of M" footer. */
export function pageBody(text: string): string[] {
  const lines = text
    .replace(/\f/g, '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  if (lines.length && /\d{4}-\d{2}-\d{2}$/.test(lines[0])) lines.shift();
  return lines.filter((l) => !/^Page \d+ of \d+$/.test(l));
}

/** A section heading as pdftotext writes it: its number, then the title ("3 Leaderboard", "6.2 Confusion matrix"). */
const HEADING_LINE = /^\d+(\.\d+)*\s+\S.{0,90}$/;

/**
 * Why a page is too thin to stand on its own, or null when it is not: a page must hold more than a heading and more
 * than one table row (a header and a row, or a lone row, is at most two lines), so a figure or at least three lines of
 * which one or more is not a heading.
 */
export function thinPage(text: string): string | null {
  const body = pageBody(text);
  if (!body.length) return 'an empty page';
  // A figure's text layer is its title line alone; the picture under it is the page's content.
  if (body.some((l) => /^Figure \d+: /.test(l))) return null;
  if (body.every((l) => HEADING_LINE.test(l))) return `only headings: ${body.join(' | ')}`;
  if (body.length < 3) return `only ${body.length} line(s): ${body.join(' | ')}`;
  return null;
}

/** The paragraphs of a DOCX body in order, each with its style (Heading1, Reading, …) and visible text. */
export function docxParagraphs(docx: Buffer): { style: string | null; text: string }[] {
  const xml = unzip(docx).get('word/document.xml')?.toString('utf8');
  if (!xml) throw new Error('no word/document.xml in the DOCX');
  const unescape = (t: string) =>
    t
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&');
  return [...xml.matchAll(/<w:p[ >][\s\S]*?<\/w:p>/g)].map((m) => ({
    style: /<w:pStyle w:val="([^"]+)"/.exec(m[0])?.[1] ?? null,
    text: unescape([...m[0].matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g)].map((t) => t[1]).join('')),
  }));
}
