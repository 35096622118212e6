/**
 * The entity tagger's training (engine/privacy/tagger), shared by train-tagger.ts (the shipped weights) and
 * tagger-heldout.ts (the held-out check of a change). Each sentence is read by the engine as it is (the spaCy model
 * and the rules: detectionsBeforeTagger), so the tagger learns what the engine's readings are worth on real text.
 * Deterministic: one seeded shuffle per epoch.
 */
import { TAGGER_TAGS as TAGS, TaggerTrainer, detectionsBeforeTagger, taggerInputs as tokenInputs, taggerTokens as tokenize, type TaggerModel, type TokenInput } from '../../engine/privacy';
import { seeded } from '../support/seeded';
import { SOURCES, sourceTexts, type CorpusText } from './corpora';

export const EPOCHS = 15;
const LABEL_OF: Record<string, string> = { name: 'PER', organization: 'ORG', location: 'LOC' };

export interface Example {
  inputs: TokenInput[];
  gold: number[];
}

/**
 * The training sentences: every source's train split, and the dev split of the sources independent.ts scores (all of
 * it, or its even sentences when the odd ones are held out). Never a test split.
 */
export function trainingTexts(dev: 'all' | 'even'): CorpusText[] {
  const out: CorpusText[] = [];
  for (const source of SOURCES) {
    if (source.files.train) out.push(...sourceTexts(source, 'train'));
    if (source.files.dev && source.sample > 0) out.push(...sourceTexts(source, 'dev').filter((_, i) => dev === 'all' || i % 2 === 0));
  }
  return out.filter((t) => t.text.trim());
}

/** The dev sentences the held-out check scores: the odd ones. */
export function heldOutTexts(): CorpusText[] {
  return SOURCES.flatMap((s) => (s.files.dev && s.sample > 0 ? sourceTexts(s, 'dev').filter((_, i) => i % 2 === 1) : [])).filter((t) => t.text.trim());
}

export function example(t: CorpusText): Example | null {
  const tokens = tokenize(t.text);
  if (tokens.length === 0) return null;
  const { found, resolved } = detectionsBeforeTagger(t.text, 0.3, 0.5);
  const gold = tokens.map(() => 0);
  for (const s of t.spans) {
    let first = true;
    for (let i = 0; i < tokens.length; i++) {
      if (tokens[i].end <= s.start || tokens[i].start >= s.end) continue;
      gold[i] = TAGS.indexOf(`${first ? 'B' : 'I'}-${LABEL_OF[s.type]}` as (typeof TAGS)[number]);
      first = false;
    }
  }
  return { inputs: tokenInputs(t.text, tokens, found, resolved), gold };
}

export function train(examples: Example[], epochs: number, log: (line: string) => void = () => {}): TaggerModel {
  const trainer = new TaggerTrainer();
  const rand = seeded(20261128);
  const order = examples.map((_, i) => i);
  for (let epoch = 1; epoch <= epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    let right = 0;
    for (const i of order) if (trainer.learn(examples[i].inputs, examples[i].gold)) right++;
    log(`epoch ${epoch}: ${((100 * right) / examples.length).toFixed(1)}% of sentences right before their update`);
  }
  return trainer.averaged();
}

/** The margin scale of span confidences: the median margin of the tokens the model tags as entities in training. */
export function marginScale(model: TaggerModel, examples: Example[]): number {
  const margins: number[] = [];
  for (const e of examples) {
    const d = model.decode(e.inputs);
    d.tags.forEach((tag, i) => tag !== 0 && margins.push(d.margins[i]));
  }
  margins.sort((a, b) => a - b);
  return margins.length ? Math.max(1e-6, margins[Math.floor(margins.length / 2)]) : 1;
}
