/**
 * PII in tables, column by column. A sample of each column's cells is matched whole against the recognizers (a cell
 * is a phone number, not a cell that contains one); a column is a PII type when enough of its sampled cells are, and
 * its confidence is the cells' mean confidence scaled by that share. A column name that announces a type (`dob`,
 * `mrn`, `iban`) is context for every cell. With `deepScan`, free-text columns are also scanned cell by cell with
 * detectText (a notes column holding emails and names), reported per type found.
 */
import { detectText } from './detect-text';
import { maskValue } from './actions/mask';
import { compact, textFlags, type Recognizer } from './recognizers/define';
import { recognizersFor } from './recognizers';

export interface ColumnInput {
  name: string;
  values: readonly (string | null | undefined)[];
}

export interface DetectColumnsOptions {
  /** Cells read per column, spread evenly over it (default: all). */
  sampleSize?: number | null;
  /** Also look for PII inside free-text cells (default false). */
  deepScan?: boolean;
  /** Only these PII type ids (default: all). */
  types?: readonly string[];
  /** Share of sampled non-empty cells that must match for a column-level finding (default 0.5). */
  minShare?: number;
  /** Findings below this confidence are dropped (default 0.5). */
  minConfidence?: number;
}

export interface ColumnFinding {
  column: string;
  piiType: string;
  confidence: number;
  /** `column`: the column holds this type; `cells`: found inside free-text cells (deep scan). */
  scope: 'column' | 'cells';
  /** Matching cells (column scope) or spans (cells scope) in the scanned cells. */
  instances: number;
  /** Non-empty cells scanned. */
  scanned: number;
  /** Share of scanned cells holding this type. */
  share: number;
  evidence: string[];
  /** Up to three matched values, masked. */
  samples: string[];
}

/** Cells checked against every recognizer before the rest of the sample meets only the ones that matched. */
const PROBE = 24;
const MAX_SAMPLES = 3;

/** `patientDOB`, `Patient-DOB` → `patient_dob`, so column hints see word boundaries. */
function normalizeName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_');
}

/** Evenly spread non-empty cells of a column. */
function sample(values: readonly (string | null | undefined)[], size: number | null | undefined): string[] {
  const out: string[] = [];
  const n = values.length;
  const step = size && size < n ? n / size : 1;
  for (let x = 0; x < n && (!size || out.length < size); x += step) {
    const v = values[Math.floor(x)];
    if (v !== null && v !== undefined && v.trim() !== '') out.push(v);
  }
  return out;
}

/** A whole cell's confidence as this type (0 when it is not), with the column name as context when it hints. */
export function cellConfidence(r: Recognizer, value: string, hinted: boolean): number {
  if ((r.needs & textFlags(value)) !== r.needs) return 0;
  let base: number;
  if (r.matchCell) {
    const m = r.matchCell(value);
    if (!m) return 0;
    base = m.score ?? r.score;
  } else if (r.cellPattern) {
    const v = value.trim();
    if (!r.cellPattern.test(v)) return 0;
    base = r.score;
    if (r.validate) {
      const ok = r.validate(compact(v), v);
      if (ok === false) return 0;
      if (typeof ok === 'number') base = ok;
    }
  } else {
    const v = value.trim();
    const found = r.find?.(v) ?? [];
    if (found.length !== 1 || found[0].start !== 0 || found[0].end !== v.length) return 0;
    base = found[0].score ?? r.score;
  }
  return hinted && r.contextScore > base ? r.contextScore : base;
}

function columnLevel(name: string, cells: string[], recognizers: readonly Recognizer[], minShare: number, minConfidence: number): ColumnFinding | undefined {
  const hintName = normalizeName(name);
  const hinted = recognizers.map((r) => !!r.columnHint && r.columnHint.test(hintName));
  const probe = Math.min(PROBE, cells.length);
  // Recognizers that match at least one probe cell (or that the name announces) go on to the whole sample.
  const live: number[] = [];
  for (let i = 0; i < recognizers.length; i++) {
    for (let j = 0; j < probe; j++) {
      if (cellConfidence(recognizers[i], cells[j], hinted[i]) > 0) {
        live.push(i);
        break;
      }
    }
  }
  let best: ColumnFinding | undefined;
  for (const i of live) {
    const r = recognizers[i];
    let hits = 0;
    let sum = 0;
    const samples: string[] = [];
    for (const cell of cells) {
      const c = cellConfidence(r, cell, hinted[i]);
      if (c <= 0) continue;
      hits++;
      sum += c;
      if (samples.length < MAX_SAMPLES) samples.push(maskValue(cell.trim(), { visible: Math.min(4, Math.floor(cell.trim().length / 4)) }));
    }
    const share = hits / cells.length;
    if (share < minShare) continue;
    // Ten or more cells that all pass a check digit cannot be chance ((1/10)^10): the column is its own context.
    const mean = r.evidence === 'checksum' && share >= 0.9 && hits >= 10 ? Math.max(sum / hits, r.contextScore) : sum / hits;
    const confidence = Math.round(mean * Math.min(1, share / 0.8) * 1000) / 1000;
    if (confidence < minConfidence) continue;
    if (!best || confidence > best.confidence || (confidence === best.confidence && share > best.share)) {
      const evidence = [`${hits}/${cells.length} cells`];
      if (hinted[i]) evidence.push('column_name');
      if (r.evidence === 'checksum') evidence.push('checksum');
      best = { column: name, piiType: r.id, confidence, scope: 'column', instances: hits, scanned: cells.length, share, evidence, samples };
    }
  }
  return best;
}

/** Whether a column reads like prose (worth a cell-level scan). */
function isFreeText(cells: string[]): boolean {
  let spaced = 0;
  let length = 0;
  for (const c of cells) {
    length += c.length;
    if (c.includes(' ')) spaced++;
  }
  return cells.length > 0 && spaced / cells.length >= 0.5 && length / cells.length >= 15;
}

function cellLevel(name: string, cells: string[], types: readonly string[] | undefined, minConfidence: number, skipType?: string): ColumnFinding[] {
  const byType = new Map<string, { spans: number; cells: number; sum: number; samples: string[] }>();
  for (const cell of cells) {
    const seen = new Set<string>();
    for (const d of detectText(cell, { types, minConfidence })) {
      if (d.type === skipType) continue;
      let agg = byType.get(d.type);
      if (!agg) byType.set(d.type, (agg = { spans: 0, cells: 0, sum: 0, samples: [] }));
      agg.spans++;
      agg.sum += d.confidence;
      if (!seen.has(d.type)) {
        agg.cells++;
        seen.add(d.type);
      }
      if (agg.samples.length < MAX_SAMPLES) agg.samples.push(maskValue(d.text, { visible: Math.min(4, Math.floor(d.text.length / 4)) }));
    }
  }
  return [...byType.entries()].map(([piiType, a]) => ({
    column: name,
    piiType,
    confidence: Math.round((a.sum / a.spans) * 1000) / 1000,
    scope: 'cells' as const,
    instances: a.spans,
    scanned: cells.length,
    share: a.cells / cells.length,
    evidence: [`${a.cells}/${cells.length} cells`, 'deep_scan'],
    samples: a.samples,
  }));
}

/** PII findings of a table: at most one column-level type per column, plus cell-level types with deepScan. */
export function detectColumns(columns: readonly ColumnInput[], opts: DetectColumnsOptions = {}): ColumnFinding[] {
  const recognizers = recognizersFor(opts.types);
  const minShare = opts.minShare ?? 0.5;
  const minConfidence = opts.minConfidence ?? 0.5;
  const out: ColumnFinding[] = [];
  for (const col of columns) {
    const cells = sample(col.values, opts.sampleSize);
    if (cells.length === 0) continue;
    const found = columnLevel(col.name, cells, recognizers, minShare, minConfidence);
    if (found) out.push(found);
    if (opts.deepScan && isFreeText(cells)) out.push(...cellLevel(col.name, cells, opts.types, minConfidence, found?.piiType));
  }
  return out;
}
