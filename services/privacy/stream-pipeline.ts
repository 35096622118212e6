import type { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { detectColumns, type ProjectSecrets } from '../../engine/privacy';
import type { RuleOf } from './effective-rules';
import { applyStep, csvLine, transformPlan } from './transform-plan';

/** Rows held to decide what each column holds before the first line is answered. */
export const STREAM_SAMPLE_ROWS = 500;
/** Columns a streamed CSV may have (a dataset's own limit, MAX_DATASET_COLUMNS' default). */
export const MAX_STREAM_COLUMNS = 2000;
const MAX_SAMPLE_CELLS = 200_000;
/** A record longer than this is refused: a line is held whole while it is parsed. */
const MAX_RECORD_BYTES = 1 << 20;
/** Output lines gathered into one chunk: fewer, larger messages and writes. */
const LINES_PER_CHUNK = 256;

export interface FoundColumn {
  name: string;
  pii_type: string | null;
}

/** Why a body cannot be streamed, found before anything is answered. */
export class UnreadableCsv extends Error {}

/**
 * The streamed anonymization itself: reads the sample (rejecting a body with no header or
 * unreadable CSV there with {@link UnreadableCsv}), decides each column's plan, and returns the
 * columns found and the transformed CSV as chunks of lines, read from `body` only as fast as
 * the chunks are taken.
 */
export async function anonymizeCsvLines(
  body: Readable,
  o: { ruleOf: RuleOf; secrets: ProjectSecrets; deepScan: boolean },
): Promise<{ columns: FoundColumn[]; lines: AsyncGenerator<string>; stop(): void }> {
  const parser = body.pipe(parse({ bom: true, relax_column_count: true, skip_empty_lines: true, max_record_size: MAX_RECORD_BYTES }));
  body.on('error', (err) => parser.destroy(err));
  const records = parser[Symbol.asyncIterator]() as AsyncIterator<string[]>;

  const sample: string[][] = [];
  let header: string[];
  try {
    const first = await records.next();
    if (first.done) throw new UnreadableCsv('The body holds no CSV header');
    header = first.value;
    if (header.length > MAX_STREAM_COLUMNS) throw new UnreadableCsv(`The CSV has ${header.length} columns; at most ${MAX_STREAM_COLUMNS} are streamed`);
    // The sample is held whole: at most MAX_SAMPLE_CELLS of it, so a wide file samples fewer rows.
    const sampleRows = Math.max(1, Math.min(STREAM_SAMPLE_ROWS, Math.floor(MAX_SAMPLE_CELLS / header.length)));
    while (sample.length < sampleRows) {
      const r = await records.next();
      if (r.done) break;
      sample.push(r.value);
    }
  } catch (err) {
    parser.destroy();
    if (err instanceof CsvError) throw new UnreadableCsv(`Unreadable CSV: ${err.message}`);
    throw err;
  }

  const findings = detectColumns(
    header.map((name, j) => ({ name, values: sample.map((r) => r[j] ?? null) })),
    { deepScan: o.deepScan },
  );
  const plan = transformPlan(findings, o.ruleOf);
  const kept = header.map((name, i) => ({ name, i, step: plan.get(name) })).filter((c) => !c.step?.dropColumn);
  const line = (r: string[]) => csvLine(kept.map((c) => applyStep(c.step, r[c.i] ?? null, o.secrets)));

  async function* lines(): AsyncGenerator<string> {
    yield csvLine(kept.map((c) => c.name));
    let chunk = '';
    let n = 0;
    for (const r of sample) {
      chunk += line(r);
      if (++n % LINES_PER_CHUNK === 0) {
        yield chunk;
        chunk = '';
      }
    }
    for (;;) {
      const r = await records.next();
      if (r.done) break;
      chunk += line(r.value);
      if (++n % LINES_PER_CHUNK === 0) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk) yield chunk;
  }
  const column = new Map(findings.filter((f) => f.scope === 'column').map((f) => [f.column, f.piiType]));
  return { columns: kept.map((c) => ({ name: c.name, pii_type: column.get(c.name) ?? null })), lines: lines(), stop: () => parser.destroy() };
}
