/**
 * PII benchmark: engine/privacy against Microsoft Presidio on the same generated, labelled data in one run.
 *
 *   node .build-perf/bench/pii/run.js [perType=30] [rows=200]   # → bench/results/pii.json
 *
 * Presidio runs in a Python venv (default ~/.cache/mlsvc/venv-pii, or $PII_PYTHON): see README.md.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { detectColumns, detectText, piiTypes } from '../../engine/privacy';
import { labelledTable, labelledTexts, type LabelledText } from './generate';

/** Presidio entity → the engine types it stands for (first one takes its false positives). */
const PRESIDIO_MAP: Record<string, string[]> = {
  EMAIL_ADDRESS: ['email'],
  PHONE_NUMBER: ['phone', 'fax_number'],
  PERSON: ['name'],
  LOCATION: ['location', 'address'],
  ORGANIZATION: ['organization'],
  DATE_TIME: ['date', 'date_of_birth'],
  AGE: ['age'],
  NRP: ['nrp'],
  CREDIT_CARD: ['credit_card'],
  IBAN_CODE: ['iban'],
  IP_ADDRESS: ['ip_address', 'ipv6_address'],
  MAC_ADDRESS: ['mac_address'],
  URL: ['url', 'domain_name'],
  CRYPTO: ['btc_address'],
  US_SSN: ['ssn'],
  US_ITIN: ['us_itin'],
  US_PASSPORT: ['us_passport'],
  US_DRIVER_LICENSE: ['us_drivers_license'],
  US_BANK_NUMBER: ['bank_account'],
  ABA_ROUTING_NUMBER: ['aba_routing'],
  MEDICAL_LICENSE: ['dea_number'],
  UK_NHS: ['uk_nhs'],
  UK_NINO: ['uk_nino'],
  UK_POSTCODE: ['uk_postcode'],
  ES_NIF: ['es_dni'],
  ES_NIE: ['es_nie'],
  IT_FISCAL_CODE: ['it_fiscal_code'],
  IN_PAN: ['in_pan'],
  IN_AADHAAR: ['in_aadhaar'],
  IN_GSTIN: ['in_gstin'],
  SG_NRIC_FIN: ['sg_nric'],
  AU_ABN: ['au_abn'],
  AU_TFN: ['au_tfn'],
  AU_MEDICARE: ['au_medicare'],
  PL_PESEL: ['pl_pesel'],
  FI_PERSONAL_IDENTITY_CODE: ['fi_hetu'],
  KR_RRN: ['kr_rrn'],
  UUID: ['unique_identifier'],
  US_NPI: ['npi'],
};

interface Pred {
  types: string[];
  start: number;
  end: number;
}
interface Counts {
  tp: number;
  fp: number;
  fn: number;
}

/** Span matching: a prediction finds a gold span of one of its types covering at least half of the gold span. */
function score(gold: LabelledText[], preds: Pred[][]): Map<string, Counts> {
  const c = new Map<string, Counts>();
  const at = (t: string): Counts => c.get(t) ?? (c.set(t, { tp: 0, fp: 0, fn: 0 }), c.get(t)!);
  gold.forEach((g, i) => {
    const used = new Set<number>();
    for (const s of g.spans) {
      const j = preds[i].findIndex((p, k) => !used.has(k) && p.types.includes(s.type) && Math.min(p.end, s.end) - Math.max(p.start, s.start) >= 0.5 * (s.end - s.start));
      if (j >= 0) {
        used.add(j);
        at(s.type).tp++;
      } else at(s.type).fn++;
    }
    preds[i].forEach((p, k) => {
      if (!used.has(k)) at(p.types[0]).fp++;
    });
  });
  return c;
}

const f1 = (x: Counts): { p: number; r: number; f: number } => {
  const p = x.tp + x.fp ? x.tp / (x.tp + x.fp) : 0;
  const r = x.tp + x.fn ? x.tp / (x.tp + x.fn) : 0;
  return { p, r, f: p + r ? (2 * p * r) / (p + r) : 0 };
};
const sum = (m: Map<string, Counts>, types: Iterable<string>): Counts => {
  const t = { tp: 0, fp: 0, fn: 0 };
  for (const k of types) {
    const x = m.get(k);
    if (!x) continue;
    t.tp += x.tp;
    t.fp += x.fp;
    t.fn += x.fn;
  }
  return t;
};
const pct = (x: number): string => x.toFixed(3);

function main(): void {
  const perType = Number(process.argv[2] ?? 30);
  const rows = Number(process.argv[3] ?? 200);
  const types = piiTypes().map((t) => t.id);
  const texts = labelledTexts(types, perType, Math.round(types.length * perType * 0.15));
  const table = labelledTable(rows);
  const outDir = join(__dirname, '../../../bench/results');
  mkdirSync(join(outDir, 'pii'), { recursive: true });

  // Ours: warm (lexicon load, JIT), then timed.
  detectText('warm up John Smith 212-555-0101');
  let t0 = process.hrtime.bigint();
  const ours = texts.map((t) => detectText(t.text));
  const oursTextSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
  t0 = process.hrtime.bigint();
  const oursColumns = detectColumns(table.map((c) => ({ name: c.name, values: c.values })));
  const oursTableSeconds = Number(process.hrtime.bigint() - t0) / 1e9;

  // Presidio, same data.
  const input = join(outDir, 'pii', 'input.json');
  const output = join(outDir, 'pii', 'presidio.json');
  writeFileSync(input, JSON.stringify({ texts: texts.map((t) => t.text), cells: table.map((c) => c.values) }));
  const python = process.env.PII_PYTHON ?? join(homedir(), '.cache/mlsvc/venv-pii/bin/python');
  const run = spawnSync(python, [join(__dirname, '../../../bench/pii/presidio_run.py'), input, output], { stdio: ['ignore', 'inherit', 'pipe'], encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`presidio failed: ${run.stderr?.slice(-2000)}`);
  const pres = JSON.parse(readFileSync(output, 'utf8')) as {
    texts: [string, number, number, number][][];
    columns: ([string, number] | null)[][];
    text_seconds: number;
    table_seconds: number;
    entities: string[];
  };

  const oursScore = score(
    texts,
    ours.map((ds) => ds.map((d) => ({ types: [d.type], start: d.start, end: d.end }))),
  );
  const presAt = (thr: number): Map<string, Counts> =>
    score(
      texts,
      pres.texts.map((rs) => rs.filter((r) => r[3] >= thr && PRESIDIO_MAP[r[0]]).map((r) => ({ types: PRESIDIO_MAP[r[0]], start: r[1], end: r[2] }))),
    );
  const shared = new Set(pres.entities.flatMap((e) => PRESIDIO_MAP[e] ?? []));
  const goldTypes = [...new Set(texts.flatMap((t) => t.spans.map((s) => s.type)))].sort();
  const sharedGold = goldTypes.filter((t) => shared.has(t));
  const pres0 = presAt(0);
  const pres5 = presAt(0.5);
  const presBest = f1(sum(pres5, sharedGold)).f >= f1(sum(pres0, sharedGold)).f ? { thr: 0.5, m: pres5 } : { thr: 0, m: pres0 };

  // Tables: a column's type, ours from detectColumns, Presidio's from the entity most of its cells get.
  const oursCol = new Map(oursColumns.filter((f) => f.scope === 'column').map((f) => [f.column, f.piiType]));
  let oursRight = 0;
  let presRight = 0;
  const colRows: string[] = [];
  table.forEach((c, i) => {
    const counts = new Map<string, number>();
    for (const cell of pres.columns[i]) if (cell && cell[1] >= presBest.thr) counts.set(cell[0], (counts.get(cell[0]) ?? 0) + 1);
    const top = [...counts.entries()].sort((a, b) => b[1] - a[1])[0];
    const presTypes = top && top[1] >= 0.5 * c.values.length ? (PRESIDIO_MAP[top[0]] ?? [top[0]]) : [];
    const mine = oursCol.get(c.name) ?? null;
    const okOurs = mine === c.type;
    const okPres = c.type === null ? presTypes.length === 0 : presTypes.includes(c.type);
    oursRight += okOurs ? 1 : 0;
    presRight += okPres ? 1 : 0;
    colRows.push(`| ${c.name} | ${c.type ?? '—'} | ${mine ?? '—'}${okOurs ? '' : ' ✗'} | ${top ? top[0] : '—'}${okPres ? '' : ' ✗'} |`);
  });

  const lines: string[] = [];
  lines.push(`texts: ${texts.length} (${goldTypes.length} types, ${perType} per type, look-alike negatives), table: ${table.length} columns x ${rows} rows`);
  lines.push('', '| type | ours P | ours R | ours F1 | Presidio F1 | gold |', '|---|---|---|---|---|---|');
  const perTypeOut: Record<string, unknown> = {};
  for (const t of goldTypes) {
    const o = f1(oursScore.get(t) ?? { tp: 0, fp: 0, fn: 0 });
    const p = shared.has(t) ? f1(presBest.m.get(t) ?? { tp: 0, fp: 0, fn: 0 }) : undefined;
    const g = oursScore.get(t)!;
    perTypeOut[t] = { ours: o, presidio: p };
    lines.push(`| ${t} | ${pct(o.p)} | ${pct(o.r)} | ${pct(o.f)} | ${p ? pct(p.f) + (p.f >= o.f ? ' ⚠' : '') : '—'} | ${g.tp + g.fn} |`);
  }
  const oAll = f1(sum(oursScore, goldTypes));
  const oShared = f1(sum(oursScore, sharedGold));
  const pShared = f1(sum(presBest.m, sharedGold));
  const beaten = sharedGold.filter((t) => f1(oursScore.get(t)!).f <= f1(presBest.m.get(t) ?? { tp: 0, fp: 0, fn: 0 }).f);
  lines.push('');
  lines.push(`overall micro F1, ours (all ${goldTypes.length} types): ${pct(oAll.f)} (P ${pct(oAll.p)}, R ${pct(oAll.r)})`);
  lines.push(
    `shared types (${sharedGold.length}): ours F1 ${pct(oShared.f)}, Presidio F1 ${pct(pShared.f)} (score threshold ${presBest.thr}; at ${presBest.thr ? 0 : 0.5}: ${pct(f1(sum(presBest.thr ? pres0 : pres5, sharedGold)).f)})`,
  );
  lines.push(`shared types where Presidio is as good or better: ${beaten.length ? beaten.join(', ') : 'none'}`);
  lines.push(
    `text throughput: ours ${(texts.length / oursTextSeconds).toFixed(0)} texts/s, Presidio ${(texts.length / pres.text_seconds).toFixed(1)} texts/s, ratio ${(pres.text_seconds / oursTextSeconds).toFixed(1)}x`,
  );
  lines.push(
    `table: ours ${oursRight}/${table.length} columns right, Presidio ${presRight}/${table.length}; rows/s ours ${(rows / oursTableSeconds).toFixed(0)}, Presidio ${(rows / pres.table_seconds).toFixed(1)}, ratio ${(pres.table_seconds / oursTableSeconds).toFixed(1)}x`,
  );
  lines.push('', '| column | gold | ours | Presidio (top entity) |', '|---|---|---|---|', ...colRows);
  console.log(lines.join('\n'));
  writeFileSync(
    join(outDir, 'pii.json'),
    JSON.stringify(
      {
        texts: texts.length,
        columns: table.length,
        rows,
        ours: { f1: oAll, shared: oShared, texts_per_s: texts.length / oursTextSeconds, rows_per_s: rows / oursTableSeconds, columns_right: oursRight },
        presidio: { threshold: presBest.thr, shared: pShared, texts_per_s: texts.length / pres.text_seconds, rows_per_s: rows / pres.table_seconds, columns_right: presRight },
        perType: perTypeOut,
        presidioAsGoodOn: beaten,
      },
      null,
      2,
    ),
  );
}

main();
