/**
 * The held-out check of the entity tagger: trained on the training sources and the even sentences of the dev splits,
 * scored on the odd ones, against the engine without the tagger and with the tagger's two ways of joining it.
 * The shipped weights also learn from the odd half (train-tagger.ts), so this is where a change to the tagger is
 * judged; the test split stays for the final figures of independent.ts.
 *
 *   node .build-pii/bench/pii/tagger-heldout.js
 */
import { configureEntityTagger, detectText, setTaggerModelForTests, type TaggerMode } from '../../engine/privacy';
import { SOURCES } from './corpora';
import { score, type Pred } from './score';
import { EPOCHS, example, heldOutTexts, train, trainingTexts, type Example } from './tagger-training';

const texts = heldOutTexts();
const judged = texts.map((t) => new Set(Object.values(SOURCES.find((s) => s.id === t.source)?.labels ?? {}).filter((v): v is string => typeof v === 'string')));

function report(label: string): void {
  for (const src of ['all', ...new Set(texts.map((t) => t.source))]) {
    const idx = texts.flatMap((t, i) => (src === 'all' || t.source === src ? [i] : []));
    const preds: Pred[][] = idx.map((i) => detectText(texts[i].text).map((d) => ({ types: d.type === 'address' ? ['address', 'location'] : [d.type], label: d.type, start: d.start, end: d.end })));
    const m = score(
      idx.map((i) => texts[i]),
      preds,
      idx.map((i) => judged[i]),
    ).metrics;
    console.log(`| ${label} | ${src} | ${m.agnostic.f.toFixed(3)} (${m.agnostic.p.toFixed(3)} / ${m.agnostic.r.toFixed(3)}) | ${m.chars.recall.toFixed(3)} / ${m.chars.precision.toFixed(3)} |`);
  }
}

console.log(`held out: ${texts.length} odd dev sentences\n| engine | source | span F1, any type (P / R) | char recall / precision |\n|---|---|---|---|`);
configureEntityTagger('off');
report('without the tagger');
const examples = trainingTexts('even')
  .map(example)
  .filter((e): e is Example => e !== null);
setTaggerModelForTests(train(examples, EPOCHS));
for (const mode of (process.env.TAGGER_MODES ?? 'union,replace').split(',') as TaggerMode[]) {
  configureEntityTagger(mode);
  report(`tagger, ${mode}`);
}
