/**
 * The entity tagger: a second reading of names, organizations and places that learns from labelled real text when to
 * trust each of the engine's first readings (the spaCy model's spans, the gazetteers, the shape rules, the resolved
 * detections) together with the words around them. It proposes person, organization and location spans; detect-text
 * merges them with the engine's other detections (./merge.ts). Trained by bench/pii/train-tagger.ts; the weights and
 * where their training data comes from are in ./weights.json and bench/pii/README.md.
 */
import { notAnEntity, partOfLabel } from '../recognizers/statistical-ner';
import type { Detection } from '../types';
import { detKinds, shape, tokenFeatures, tokenize } from './features';
import { TAGS, TaggerModel, transitionRows, type StoredWeights, type TokenInput } from './model';
import stored from './weights.json';

export { tokenize, type Token } from './features';
export { TAGS, TaggerModel, TaggerTrainer, type TokenInput } from './model';

const TYPE_OF: Record<string, string> = { PER: 'name', ORG: 'organization', LOC: 'location' };
export const TAGGER_TYPES: ReadonlySet<string> = new Set(Object.values(TYPE_OF));

/** The tagger's inputs for a text's tokens, from the engine's candidates (`found`) and resolved detections. */
export function tokenInputs(text: string, tokens: ReturnType<typeof tokenize>, found: readonly Detection[], resolved: readonly Detection[]): TokenInput[] {
  const feats = tokenFeatures(text, tokens, found, resolved);
  const kinds = detKinds(tokens, resolved);
  return tokens.map((t, i) => ({ rows: feats[i], transitions: transitionRows(shape(t.text), kinds[i]) }));
}

let model: TaggerModel | undefined;
const weights = stored as unknown as StoredWeights & { marginScale?: number };
const marginScale = weights.marginScale ?? 1;
function getModel(): TaggerModel {
  model ??= TaggerModel.deserialize(weights);
  return model;
}

/**
 * A span's confidence from the smallest margin of its tokens: 0.5 where the tagger barely preferred it, towards
 * 0.95 as the margin grows past the training set's typical margin (`marginScale`).
 */
const confidenceOf = (margin: number): number => Math.round((0.5 + 0.45 * (1 - Math.exp(-Math.max(0, margin) / marginScale))) * 1000) / 1000;

/** Words between an identifier's name and its value: "NHS number: 605…", "the ABN is 51…", "IBAN # DE89…". */
const LABEL_GAP = /^[^\S\n]*(?:(?:[Nn]umbers?|N[Oo]\.?|[Nn]o\.?|[Nn]r\.?|#|I[Dd]|id|[Cc]ode|[Cc]ard|[Aa]ccount|[Aa]ddress|is|was|are|[A-Z]{2,6}|:|-|–)[^\S\n]*)*$/u;

/** Whether the words before `end` name the identifier the engine found right after them ("Medicare number 3163…"). */
function namesAnIdentifier(text: string, end: number, resolved: readonly Detection[]): boolean {
  const next = resolved.find((d) => d.start >= end && d.start - end <= 24 && !TAGGER_TYPES.has(d.type));
  return next !== undefined && LABEL_GAP.test(text.slice(end, next.start));
}

/** Whether the line around `at` has letters and none of them in lower case. */
function shoutedLine(text: string, at: number): boolean {
  const from = text.lastIndexOf('\n', at) + 1;
  const to = text.indexOf('\n', at);
  const line = text.slice(from, to < 0 ? text.length : to);
  return !/\p{Ll}/u.test(line);
}

/** The tagger's person, organization and location spans of a text. */
export function taggedEntities(text: string, found: readonly Detection[], resolved: readonly Detection[]): Detection[] {
  const tokens = tokenize(text);
  if (tokens.length === 0) return [];
  const { tags, margins } = getModel().decode(tokenInputs(text, tokens, found, resolved));
  const out: Detection[] = [];
  let open: { label: string; from: number; to: number; margin: number } | null = null;
  const close = (): void => {
    if (!open) return;
    const { label, margin } = open;
    const start = tokens[open.from].start;
    const end = tokens[open.to].end;
    const span = text.slice(start, end);
    open = null;
    // A file or host name, a symbol or a number is no entity, whatever the words around it say.
    if (!/\p{L}/u.test(span) || /_|\p{L}\.\p{L}{2,}/u.test(span)) return;
    // In a line written all in capitals case says nothing, and the tweets it learned from shout brand names: there the
    // engine's own re-cased reading has the say.
    if (shoutedLine(text, start)) return;
    // What the model's spans may not be (field labels and units in capitals, chat words, codes), nor the tagger's.
    if (notAnEntity(span) || partOfLabel(text, start, end) || namesAnIdentifier(text, end, resolved)) return;
    out.push({ type: TYPE_OF[label], start, end, text: span, confidence: confidenceOf(margin), evidence: ['tagger'] });
  };
  for (let i = 0; i < tokens.length; i++) {
    const tag = TAGS[tags[i]];
    if (tag === 'O') {
      close();
      continue;
    }
    const label = tag.slice(2);
    // An entity ends at a line break, whatever the tags say ("Keith Marshall\nFlat 46").
    const newLine = i > 0 && text.slice(tokens[i - 1].end, tokens[i].start).includes('\n');
    if (tag.startsWith('B-') || !open || open.label !== label || newLine) {
      close();
      open = { label, from: i, to: i, margin: margins[i] };
    } else {
      open.to = i;
      open.margin = Math.min(open.margin, margins[i]);
    }
  }
  close();
  return out;
}

/** Uses `m` instead of the shipped weights (experiments and tests). */
export function setTaggerModelForTests(m: TaggerModel): void {
  model = m;
}
