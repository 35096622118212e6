/**
 * Trains the entity tagger (engine/privacy/tagger) and writes engine/privacy/tagger/weights.json.
 *
 *   node .build-pii/bench/pii/train-tagger.js [--epochs 15]
 *
 * Training data (./tagger-training.ts): WNUT-17's training tweets and the Broad Twitter Corpus (both CC BY 4.0), and
 * the dev splits of UNER English-EWT (CC BY-SA 4.0) and WNUT-17, from the pinned cache (fetch-corpora.js). Never a
 * test split, and nothing of Microsoft's presidio-research. The dev split being training data, choices about the
 * tagger are checked with tagger-heldout.ts. Retrain when the rules or the model change: the tagger reads them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SOURCES } from './corpora';
import { EPOCHS, example, marginScale, train, trainingTexts, type Example } from './tagger-training';

function main(): void {
  const epochsArg = process.argv.indexOf('--epochs');
  const epochs = epochsArg > 0 ? Number(process.argv[epochsArg + 1]) : EPOCHS;
  const t0 = Date.now();
  const examples = trainingTexts('all')
    .map(example)
    .filter((e): e is Example => e !== null);
  console.log(`${examples.length} training sentences read by the engine in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const model = train(examples, epochs, console.log);
  const trainedOn = SOURCES.flatMap((s) => [s.files.train, s.sample > 0 ? s.files.dev : undefined].filter((f) => f !== undefined).map((f) => `${s.repo}@${s.commit}:${f.path}`));
  const out = { ...model.serialize(), marginScale: marginScale(model, examples), trainedOn, sentences: examples.length, epochs };
  const path = join(__dirname, '../../../engine/privacy/tagger/weights.json');
  writeFileSync(path, JSON.stringify(out) + '\n');
  console.log(`wrote ${path} (${(JSON.stringify(out).length / 1e6).toFixed(2)} MB, margin scale ${out.marginScale.toFixed(3)})`);
}

main();
