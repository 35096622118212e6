import { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import type { DataSource } from 'typeorm';
import { detectColumns } from '../../engine/privacy';
import type { Access } from '../access';
import { ValidationError } from '../errors';
import { effectiveRules } from './effective-rules';
import type { PrivacyPolicyService } from './policies';
import { projectSecrets } from './secrets';
import { applyStep, csvLine, transformPlan } from './transform-plan';

/** Rows held to decide what each column holds before the first line is answered. */
export const STREAM_SAMPLE_ROWS = 500;
/** A record longer than this is refused: a line is held whole while it is parsed. */
const MAX_RECORD_BYTES = 1 << 20;
/** Output lines gathered into one chunk: fewer, larger writes. */
const LINES_PER_CHUNK = 256;

export interface StreamOptions {
  deepScan: boolean;
}

/**
 * `POST /api/anonymize/stream`: a CSV sent through a policy and answered as transformed CSV while
 * it is still arriving, in bounded memory. The first rows (at most {@link STREAM_SAMPLE_ROWS}) are
 * held to decide each column's PII type with the engine's column detection; from then on every row
 * goes out as it comes in, each cell through its column's rule (the same plan a session's transform
 * uses). Backpressure runs end to end: the parser is read only as fast as the client reads.
 */
export class AnonymizeStream {
  constructor(
    private readonly ds: DataSource,
    private readonly access: Access,
    private readonly policies: PrivacyPolicyService,
  ) {}

  /**
   * Reads the sample (so a body that is not CSV is a 422 before anything is answered), then
   * returns the transformed CSV as a stream.
   */
  async open(userId: string, policyId: string, body: Readable, o: StreamOptions): Promise<{ stream: Readable; columns: { name: string; pii_type: string | null }[] }> {
    const policy = await this.access.privacyPolicy(userId, policyId);
    const ruleOf = effectiveRules(policy, await this.policies.rulesOf(policy.id));
    const secrets = await projectSecrets(this.ds, policy.projectId);
    const parser = body.pipe(parse({ bom: true, relax_column_count: true, skip_empty_lines: true, max_record_size: MAX_RECORD_BYTES }));
    body.on('error', (err) => parser.destroy(err));
    const records = parser[Symbol.asyncIterator]() as AsyncIterator<string[]>;

    const sample: string[][] = [];
    let header: string[];
    try {
      const first = await records.next();
      if (first.done) throw new ValidationError('The body holds no CSV header');
      header = first.value;
      while (sample.length < STREAM_SAMPLE_ROWS) {
        const r = await records.next();
        if (r.done) break;
        sample.push(r.value);
      }
    } catch (err) {
      parser.destroy();
      if (err instanceof CsvError) throw new ValidationError(`Unreadable CSV: ${err.message}`);
      throw err;
    }

    const findings = detectColumns(
      header.map((name, j) => ({ name, values: sample.map((r) => r[j] ?? null) })),
      { deepScan: o.deepScan },
    );
    const plan = transformPlan(findings, ruleOf);
    const kept = header.map((name, i) => ({ name, i, step: plan.get(name) })).filter((c) => !c.step?.dropColumn);
    const line = (r: string[]) => csvLine(kept.map((c) => applyStep(c.step, r[c.i] ?? null, secrets)));

    async function* lines(): AsyncGenerator<string> {
      yield csvLine(kept.map((c) => c.name));
      let chunk = '';
      let n = 0;
      const flush = () => {
        const out = chunk;
        chunk = '';
        n = 0;
        return out;
      };
      for (const r of sample) {
        chunk += line(r);
        if (++n >= LINES_PER_CHUNK) yield flush();
      }
      for (;;) {
        const r = await records.next();
        if (r.done) break;
        chunk += line(r.value);
        if (++n >= LINES_PER_CHUNK) yield flush();
      }
      if (chunk) yield chunk;
    }
    const stream = Readable.from(lines(), { objectMode: false });
    // A client that goes away stops the parse (and so the reading of its body).
    stream.on('close', () => parser.destroy());
    const column = new Map(findings.filter((f) => f.scope === 'column').map((f) => [f.column, f.piiType]));
    return { stream, columns: kept.map((c) => ({ name: c.name, pii_type: column.get(c.name) ?? null })) };
  }
}
