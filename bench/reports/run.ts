/**
 * Benchmark (not a test): time to render a 20-model experiment report (bench/reports/fixtures.ts) in each format with
 * the reports engine, median of several runs, and the peak RSS of a process doing only that. Each format runs in its
 * own child process, so one format's memory does not count against another's; every run renders a fresh copy of the
 * document, so its charts are drawn each time (the engine keeps a document's pictures: a second format of the same
 * document object reuses them, which the `all three` row measures).
 *
 * Usage: node <build>/bench/reports/run.js [models=20] [runs=5]
 * Result JSON: bench/results/reports.json.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { renderReport, ReportFormat } from '../../engine/reports';
import { experimentDocument } from './fixtures';

const TARGET_PDF_MS = 3000;

type Mode = ReportFormat | 'all';

interface ChildResult {
  mode: Mode;
  ms: number[];
  bytes: number;
  maxRssMb: number;
}

async function child(mode: Mode, models: number, runs: number): Promise<ChildResult> {
  const ms: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const doc = experimentDocument(models);
    const t0 = process.hrtime.bigint();
    if (mode === 'all') {
      bytes = 0;
      for (const format of ['html', 'pdf', 'docx'] as const) bytes += (await renderReport(doc, format)).bytes.length;
    } else {
      bytes = (await renderReport(doc, mode)).bytes.length;
    }
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return { mode, ms, bytes, maxRssMb: process.resourceUsage().maxRSS / 1024 };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

async function main(): Promise<void> {
  const [first, ...rest] = process.argv.slice(2);
  if (first === '--child') {
    const [mode, models, runs] = rest;
    process.stdout.write(JSON.stringify(await child(mode as Mode, Number(models), Number(runs))));
    return;
  }
  const models = Number(first ?? 20);
  const runs = Number(rest[0] ?? 5);
  const results: (ChildResult & { median_ms: number; first_ms: number })[] = [];
  const loadBefore = os.loadavg()[0];
  for (const mode of ['html', 'pdf', 'docx', 'all'] as const) {
    const out = execFileSync(process.execPath, [__filename, '--child', mode, String(models), String(runs)], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
    const r = JSON.parse(out) as ChildResult;
    results.push({ ...r, median_ms: median(r.ms), first_ms: r.ms[0] });
  }
  const loadAfter = os.loadavg()[0];

  const round = (x: number): number => Math.round(x);
  const label = (m: Mode): string => (m === 'all' ? 'all three (one document)' : m);
  console.log(
    `\nReports engine, ${models}-model experiment report, ${runs} runs per format, each format in its own process (${os.cpus().length} cores, load ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)})\n`,
  );
  console.log('| format | median | first run (cold) | min | max | file size | peak RSS |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(
      `| ${label(r.mode)} | ${round(r.median_ms)} ms | ${round(r.first_ms)} ms | ${round(Math.min(...r.ms))} ms | ${round(Math.max(...r.ms))} ms | ${(r.bytes / 1024).toFixed(0)} KiB | ${r.maxRssMb.toFixed(0)} MB |`,
    );
  }
  const pdf = results.find((r) => r.mode === 'pdf');
  const met = pdf !== undefined && pdf.median_ms < TARGET_PDF_MS;
  console.log(`\nexperiment PDF < 3 s: ${met ? 'met' : 'MISSED'} (median ${pdf ? round(pdf.median_ms) : '?'} ms)`);

  const dir = path.join(__dirname, '..', '..', '..', 'bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'reports.json');
  fs.writeFileSync(
    file,
    JSON.stringify({ date: new Date().toISOString(), models, runs, cores: os.cpus().length, load: [loadBefore, loadAfter], target_pdf_ms: TARGET_PDF_MS, target_met: met, results }, null, 2),
  );
  console.log(`→ ${path.relative(process.cwd(), file)}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
