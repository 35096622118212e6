/**
 * Throughput of the named-entity model (engine/privacy/ner) on one core: `nerEntities` and `detectText` (rules and
 * model) on the 333 sentences of the spaCy cross-check fixture, warm (each sentence seen before: the tokenizer and
 * token caches hold them, as they do for a service's recurring vocabulary) and cold (caches cleared by a fresh load).
 *
 *   npx tsc -p tsconfig.json && node dist/bench/pii/ner-speed.js [rounds=5]
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { configureNer, detectText, nerEntities } from '../../engine/privacy';

// dist/bench/pii → the repository's copy of the fixture.
const golden = JSON.parse(readFileSync(join(__dirname, '../../../engine/privacy/ner/spacy-golden.json'), 'utf8')) as { sentences: { text: string }[] };
const texts = golden.sentences.map((s) => s.text).filter((t) => t.trim());
const rounds = Number(process.argv[2] ?? 5);

function rate(label: string, f: (t: string) => unknown, n = rounds): void {
  const t0 = process.hrtime.bigint();
  for (let r = 0; r < n; r++) for (const t of texts) f(t);
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  console.log(`${label.padEnd(34)} ${((n * texts.length) / s).toFixed(0).padStart(6)} sentences/s`);
}

const chars = texts.reduce((n, t) => n + t.length, 0);
console.log(`${texts.length} sentences, ${(chars / texts.length).toFixed(0)} characters each; ${os.cpus()[0]?.model}, load average ${os.loadavg()[0].toFixed(1)}`);
configureNer({});
const t0 = Date.now();
nerEntities('Loading the model.');
console.log(`model load: ${Date.now() - t0} ms`);
rate('nerEntities, cold (first pass)', nerEntities, 1);
rate('nerEntities, warm', nerEntities);
rate('detectText (rules + model), warm', (t) => detectText(t));
