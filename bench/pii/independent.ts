/**
 * The independent PII benchmark: engine/privacy (`detectText` at its default threshold) and Microsoft Presidio on the
 * same sentences of corpora this project did not write (corpora.ts), in one run.
 *
 *   node .build-perf/bench/pii/independent.js [--split test|dev] [--n SOURCE=COUNT ...] [--reuse-presidio | --no-presidio]
 *
 * → bench/results/pii-independent.json, bench/results/pii-independent-errors.{json,md} (`-dev` before the extension
 * for the dev split), a table on stdout.
 * `--reuse-presidio` takes Presidio's predictions and timing from the last run on the very same sample (its own date
 * and load are printed with it): for quick engine iterations; the figures to report come from a full run.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { configureEntityTagger, detectText, type TaggerMode } from '../../engine/privacy';
import { SAMPLE_SEED, SOURCES, independentSample, sha256, type Split } from './corpora';
import { errorMarkdown, errorReport } from './errors';
import { runPresidio, type PresidioRun } from './presidio';
import { score, type Metrics, type Pred } from './score';

/** Engine types → the gold types they may count as (any other type counts as itself). */
const OURS_COUNTS_AS: Record<string, string[]> = {
  address: ['address', 'location'],
  fax_number: ['phone'],
};
/** Presidio entities → gold types (generous, as in run.ts: LOCATION may be a place or an address). */
const PRESIDIO_COUNTS_AS: Record<string, string[]> = {
  PERSON: ['name'],
  LOCATION: ['location', 'address'],
  ORGANIZATION: ['organization'],
  NRP: ['nrp'],
  AGE: ['age'],
  PHONE_NUMBER: ['phone'],
  CREDIT_CARD: ['credit_card'],
  EMAIL_ADDRESS: ['email'],
  DATE_TIME: ['date'],
};

const TARGETS = { spanF1: 0.85, charRecall: 0.9, throughputRatio: 10 };
/** Timed passes over the sample, for ours and for Presidio alike; the median pass is the figure. */
const PASSES = 3;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

interface Args {
  split: Split;
  sizes: Record<string, number>;
  presidio: 'run' | 'reuse' | 'skip';
  tagger?: TaggerMode;
}

function parseArgs(argv: string[]): Args {
  const a: Args = { split: 'test', sizes: {}, presidio: 'run' };
  for (let i = 0; i < argv.length; i++) {
    const x = argv[i];
    if (x === '--split') a.split = argv[++i] === 'dev' ? 'dev' : 'test';
    else if (x === '--n') {
      const [k, v] = argv[++i].split('=');
      a.sizes[k] = Number(v);
    } else if (x === '--reuse-presidio') a.presidio = 'reuse';
    else if (x === '--no-presidio') a.presidio = 'skip';
    else if (x === '--tagger') a.tagger = argv[++i] as TaggerMode;
    else throw new Error(`unknown argument ${x}`);
  }
  return a;
}

const f3 = (x: number): string => x.toFixed(3);
const prfCell = (m: { f: number; p: number; r: number }): string => `${f3(m.f)} (${f3(m.p)} / ${f3(m.r)})`;

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  if (args.tagger) configureEntityTagger(args.tagger);
  const root = join(__dirname, '../../..');
  const outDir = join(root, 'bench/results');
  const work = join(outDir, 'pii-independent');
  mkdirSync(work, { recursive: true });
  const loadStart = loadavg();

  const texts = independentSample(args.split, args.sizes);
  const sample = sha256(JSON.stringify(texts.map((t) => [t.source, t.text, t.spans.map((s) => [s.type, s.start, s.end])])));
  const goldBySource = new Map(SOURCES.map((s) => [s.id, new Set(Object.values(s.labels).filter((v): v is string => v !== null))]));
  const judgedBy = texts.map((t) => goldBySource.get(t.source)!);
  /** The sources this split scores (a training-only source has none of its sentences here). */
  const scored = SOURCES.filter((s) => texts.some((t) => t.source === s.id));

  // Ours: one untimed pass over the sample (its detections are the ones scored) warms the lexicons and lets V8's
  // optimizing compiler finish, as in a service that has been up a while; then the timed passes, median the figure.
  // Presidio (CPython, no JIT) is timed from its first pass after a warm-up sentence, over as many passes.
  const oursRaw = texts.map((t) => detectText(t.text));
  const passes: number[] = [];
  const cpuPasses: number[] = [];
  for (let pass = 0; pass < PASSES; pass++) {
    const t0 = process.hrtime.bigint();
    const c0 = process.cpuUsage();
    for (const t of texts) detectText(t.text);
    passes.push(Number(process.hrtime.bigint() - t0) / 1e9);
    const c = process.cpuUsage(c0);
    cpuPasses.push((c.user + c.system) / 1e6);
  }
  const oursSeconds = median(passes);
  const ours: Pred[][] = oursRaw.map((ds) => ds.map((d) => ({ types: OURS_COUNTS_AS[d.type] ?? [d.type], label: d.type, start: d.start, end: d.end })));

  // Presidio: run now, or the cached run of this very sample.
  const cache = join(work, `presidio-${args.split}.json`);
  let pres: PresidioRun | null = null;
  if (args.presidio === 'reuse') {
    const old = existsSync(cache) ? (JSON.parse(readFileSync(cache, 'utf8')) as PresidioRun) : null;
    if (!old || old.sample !== sample) throw new Error(`no Presidio run of this sample in ${cache}: run without --reuse-presidio once`);
    pres = old;
  } else if (args.presidio === 'run') {
    pres = runPresidio(texts, sample, work, PASSES);
    writeFileSync(cache, JSON.stringify(pres));
  }
  const presAt = (thr: number): Pred[][] => pres!.texts.map((rs) => rs.filter((r) => r[3] >= thr).map((r) => ({ types: PRESIDIO_COUNTS_AS[r[0]] ?? [], label: r[0], start: r[1], end: r[2] })));

  const subsets: [string, number[]][] = [['all', texts.map((_, i) => i)], ...scored.map((s): [string, number[]] => [s.id, texts.flatMap((t, i) => (t.source === s.id ? [i] : []))])];
  const scoreOn = (preds: Pred[][], idx: number[]): Metrics =>
    score(
      idx.map((i) => texts[i]),
      idx.map((i) => preds[i]),
      idx.map((i) => judgedBy[i]),
    ).metrics;
  const oursAll = score(texts, ours, judgedBy);

  // Presidio is reported at whichever score threshold (0 or 0.5) gives it the better type-agnostic F1.
  let presThr = 0;
  let presPreds: Pred[][] | null = null;
  let presAll: ReturnType<typeof score> | null = null;
  if (pres) {
    const at0 = score(texts, presAt(0), judgedBy);
    const at5 = score(texts, presAt(0.5), judgedBy);
    presThr = at5.metrics.agnostic.f > at0.metrics.agnostic.f ? 0.5 : 0;
    presAll = presThr ? at5 : at0;
    presPreds = presAt(presThr);
  }

  const results: Record<string, { sentences: number; goldSpans: number; ours: Metrics; presidio: Metrics | null }> = {};
  for (const [name, idx] of subsets)
    results[name] = {
      sentences: idx.length,
      goldSpans: idx.reduce((n, i) => n + texts[i].spans.length, 0),
      ours: name === 'all' ? oursAll.metrics : scoreOn(ours, idx),
      presidio: presPreds ? (name === 'all' ? presAll!.metrics : scoreOn(presPreds, idx)) : null,
    };

  const oursSps = texts.length / oursSeconds;
  const presSps = pres ? texts.length / pres.text_seconds : null;
  // By CPU time as well: what each engine's process spent, which a neighbour's load on a shared machine moves less
  // than the wall clock (runs of Presidio cached before this was measured have none).
  const oursCpuSps = texts.length / median(cpuPasses);
  const presCpuSps = pres?.text_cpu_passes?.length ? texts.length / median(pres.text_cpu_passes) : null;
  // The fastest CPU pass of each: the pass a neighbour's load disturbed least, which moves least from run to run on a
  // shared machine (the median of three is still at its mercy: the same code read 9.6x and 16.4x by it).
  const best = (xs: number[]): number => Math.min(...xs);
  const oursBestCpuSps = texts.length / best(cpuPasses);
  const presBestCpuSps = pres?.text_cpu_passes?.length ? texts.length / best(pres.text_cpu_passes) : null;
  const loadEnd = loadavg();
  const all = results.all;
  const sharedTypes = Object.keys(all.ours.perType).filter((t) => all.presidio && all.presidio.perType[t] && all.presidio.perType[t].tp + all.presidio.perType[t].fp > 0);
  const notAbove = sharedTypes.filter((t) => all.ours.perType[t].f <= all.presidio!.perType[t].f);

  const lines: string[] = [];
  lines.push(
    `independent PII bench, split ${args.split}, seed ${SAMPLE_SEED}: ${texts.length} sentences, ${all.goldSpans} gold spans (sample ${sample.slice(0, 12)}); ours at detectText's default threshold, ${pres ? `Presidio at score threshold ${presThr}` : 'Presidio not run'}`,
    '',
    '| source | sentences | gold spans | ours span F1 (P / R), any type | Presidio span F1 (P / R), any type | ours char R / P | Presidio char R / P |',
    '|---|---|---|---|---|---|---|',
  );
  for (const [name, r] of Object.entries(results))
    lines.push(
      `| ${name} | ${r.sentences} | ${r.goldSpans} | ${prfCell(r.ours.agnostic)} | ${r.presidio ? prfCell(r.presidio.agnostic) : '—'} | ${f3(r.ours.chars.recall)} / ${f3(r.ours.chars.precision)} | ${r.presidio ? `${f3(r.presidio.chars.recall)} / ${f3(r.presidio.chars.precision)}` : '—'} |`,
    );
  lines.push('', '| source | type | gold | ours P | ours R | ours F1 | Presidio P | Presidio R | Presidio F1 |', '|---|---|---|---|---|---|---|---|---|');
  for (const [name, r] of Object.entries(results))
    for (const [t, o] of Object.entries(r.ours.perType)) {
      const p = r.presidio?.perType[t];
      lines.push(`| ${name} | ${t} | ${o.tp + o.fn} | ${f3(o.p)} | ${f3(o.r)} | ${f3(o.f)} | ${p ? f3(p.p) : '—'} | ${p ? f3(p.r) : '—'} | ${p ? f3(p.f) + (p.f >= o.f ? ' ⚠' : '') : '—'} |`);
    }
  lines.push('');
  lines.push(
    `throughput: ours ${oursSps.toFixed(0)} sentences/s (median of ${PASSES} passes), Presidio ${presSps ? presSps.toFixed(1) : '—'} sentences/s${pres && args.presidio === 'reuse' ? ` (reused run of ${pres.at}, load ${pres.loadavg.map((x) => x.toFixed(1)).join(' ')})` : ''}, ratio ${presSps ? (oursSps / presSps).toFixed(1) + 'x' : '—'}; by CPU time ours ${oursCpuSps.toFixed(0)}, Presidio ${presCpuSps ? presCpuSps.toFixed(1) : '—'} sentences per CPU-second, ratio ${presCpuSps ? (oursCpuSps / presCpuSps).toFixed(1) + 'x' : '—'}; fastest CPU pass of each: ours ${oursBestCpuSps.toFixed(0)}, Presidio ${presBestCpuSps ? presBestCpuSps.toFixed(1) : '—'}, ratio ${presBestCpuSps ? (oursBestCpuSps / presBestCpuSps).toFixed(1) + 'x' : '—'}; ${cpus().length} cores, load average ${loadStart.map((x) => x.toFixed(1)).join(' ')} → ${loadEnd.map((x) => x.toFixed(1)).join(' ')}`,
  );
  const met = (ok: boolean): string => (ok ? 'met' : 'NOT met');
  lines.push(
    `targets: type-agnostic span F1 ≥ ${TARGETS.spanF1}: ${f3(all.ours.agnostic.f)} ${met(all.ours.agnostic.f >= TARGETS.spanF1)}; char recall ≥ ${TARGETS.charRecall}: ${f3(all.ours.chars.recall)} ${met(all.ours.chars.recall >= TARGETS.charRecall)}; above Presidio on every shared type: ${all.presidio ? (notAbove.length ? `NOT met (${notAbove.join(', ')})` : 'met') : '—'}; ≥ ${TARGETS.throughputRatio}x Presidio: ${presSps ? `${met(oursSps / presSps >= TARGETS.throughputRatio)} by the clock` : '—'}${presCpuSps ? `, ${met(oursCpuSps / presCpuSps >= TARGETS.throughputRatio)} by CPU time` : ''}${presBestCpuSps ? `, ${met(oursBestCpuSps / presBestCpuSps >= TARGETS.throughputRatio)} by the fastest CPU pass` : ''}`,
  );
  console.log(lines.join('\n'));

  // The dev split's outputs sit beside the test's, so tuning runs never overwrite the reported figures.
  const suffix = args.split === 'test' ? '' : `-${args.split}`;
  const command = `node .build-perf/bench/pii/independent.js ${process.argv.slice(2).join(' ')}`.trim();
  writeFileSync(
    join(outDir, `pii-independent${suffix}.json`),
    JSON.stringify(
      {
        at: new Date().toISOString(),
        command,
        machine: { cores: cpus().length, loadavgStart: loadStart, loadavgEnd: loadEnd },
        split: args.split,
        sample: { seed: SAMPLE_SEED, sha256: sample, sentences: texts.length, perSource: Object.fromEntries(scored.map((s) => [s.id, results[s.id].sentences])) },
        sources: scored.map((s) => ({ id: s.id, title: s.title, licence: s.licence, url: s.url, commit: s.commit, file: s.files[args.split] })),
        labels: Object.fromEntries(scored.map((s) => [s.id, s.labels])),
        oursCountsAs: OURS_COUNTS_AS,
        presidioCountsAs: PRESIDIO_COUNTS_AS,
        matchRule: 'a prediction matches a gold span when they overlap by at least half of the gold span; one to one; only predictions of types the corpus labels are judged',
        presidio: pres ? { threshold: presThr, ranAt: pres.at, reused: args.presidio === 'reuse', loadavg: pres.loadavg, entities: pres.entities } : null,
        throughput: {
          oursSentencesPerSecond: oursSps,
          oursPassesSeconds: passes,
          oursCpuPassesSeconds: cpuPasses,
          presidioSentencesPerSecond: presSps,
          presidioPassesSeconds: pres?.text_passes ?? null,
          presidioCpuPassesSeconds: pres?.text_cpu_passes ?? null,
          ratio: presSps ? oursSps / presSps : null,
          cpuRatio: presCpuSps ? oursCpuSps / presCpuSps : null,
          bestCpuPassRatio: presBestCpuSps ? oursBestCpuSps / presBestCpuSps : null,
        },
        results,
        targets: { ...TARGETS, sharedTypes, notAbovePresidio: notAbove },
      },
      null,
      2,
    ),
  );
  const rep = errorReport(texts, ours, oursAll.outcome, judgedBy, presAll?.outcome ?? null);
  writeFileSync(join(outDir, `pii-independent${suffix}-errors.json`), JSON.stringify(rep, null, 2));
  writeFileSync(
    join(outDir, `pii-independent${suffix}-errors.md`),
    errorMarkdown(rep, `# Independent PII bench: error analysis of ours (split ${args.split}, ${new Date().toISOString()}, \`${command}\`)`),
  );
}

main();
