/**
 * What the entity tagger (./index.ts) sees of each token: the word, its shape and affixes, its neighbours, the
 * gazetteers that know it, and what the rest of the engine said about it (the model's spans, the rules' candidates
 * and the resolved detections, with their evidence). The tagger learns when to trust each of those readings, so the
 * features are the engine's own opinions as much as the words.
 *
 * Features are strings (`l=paris`, `pl|sh=in|Xx`) hashed into a fixed table (./model.ts) as they are written, from
 * a hashed prefix on: no feature string is built. A token's static features are computed once and scored against every
 * tag. The tokenizer is this module's own (words with inner apostrophes, hyphens and dots,
 * handles and hashtags, other characters one by one) so the tagger works the same with or without the spaCy model.
 */
import { fold, lexicon } from '../lexicon';
import type { Detection } from '../types';
import { featureRowOf as row } from './model';
import { wordClass, wordClassesLoaded } from './word-classes';

export interface Token {
  start: number;
  end: number;
  text: string;
}

const TOKEN = /[@#][\p{L}\p{M}\p{N}_]+|[\p{L}\p{M}\p{N}_]+(?:['’\-.&][\p{L}\p{M}\p{N}_]+)*|\S/gu;

export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m !== null; m = TOKEN.exec(text)) out.push({ start: m.index, end: m.index + m[0].length, text: m[0] });
  return out;
}

/** "McDonald's" → "XxXx'x": upper X, lower x, digit d, anything else itself, runs of one class written once. */
export function shape(word: string): string {
  let out = '';
  let last = '';
  for (const ch of word) {
    const c = /\p{Lu}/u.test(ch) ? 'X' : /\p{Ll}|\p{Lo}|\p{M}/u.test(ch) ? 'x' : /\p{N}/u.test(ch) ? 'd' : ch;
    if (c !== last) out += c;
    last = c;
  }
  return out.length > 8 ? out.slice(0, 8) : out;
}

/** Entity-like types of the engine the tagger reads as their own feature; every other type is `other`. */
const READ_TYPES = new Set(['name', 'organization', 'location', 'nrp', 'address', 'title', 'email', 'url', 'username', 'domain_name']);
const kind = (type: string): string => (READ_TYPES.has(type) ? type : 'other');
const bucket = (c: number): string => (c >= 0.9 ? 'h' : c >= 0.7 ? 'm' : c >= 0.5 ? 'l' : 'u');

/** Token index → the detections covering it, as (kind, position B/I, detection). */
function cover(tokens: Token[], spans: readonly Detection[]): { d: Detection; first: boolean }[][] {
  const out: { d: Detection; first: boolean }[][] = tokens.map(() => []);
  let from = 0;
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  for (const d of sorted) {
    while (from < tokens.length && tokens[from].end <= d.start) from++;
    let first = true;
    for (let i = from; i < tokens.length && tokens[i].start < d.end; i++) {
      if (tokens[i].end <= d.start) continue;
      out[i].push({ d, first });
      first = false;
    }
  }
  return out;
}

function lexFlags(word: string): string[] {
  const lex = lexicon();
  const key = fold(word.replace(/^[@#]/, ''));
  const out: string[] = [];
  if (lex.firstNames.has(key)) out.push('fn');
  if (lex.lastNames.has(key)) out.push('sn');
  if (lex.places.has(key)) out.push('pl');
  if (lex.organizations.has(key)) out.push('org');
  if (lex.orgWords.has(key)) out.push('ow');
  if (lex.groups.has(key)) out.push('grp');
  if (lex.common.has(key)) out.push('com');
  if (lex.jobHeads.has(key)) out.push('job');
  return out;
}

const ENDS_SENTENCE = /^[.!?:;]$/;

/** Each token's place in a run of capitalized words: `0` outside one, else the run's length (3 and more: `3`) and its position. */
function capitalRuns(tokens: Token[]): string[] {
  const out = tokens.map(() => '0');
  let i = 0;
  while (i < tokens.length) {
    if (!/^\p{Lu}/u.test(tokens[i].text)) {
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < tokens.length && /^\p{Lu}/u.test(tokens[j + 1].text)) j++;
    const n = Math.min(3, j - i + 1);
    for (let k = i; k <= j; k++) out[k] = `${n}${k === i ? 'B' : k === j ? 'E' : 'I'}`;
    i = j + 1;
  }
  return out;
}

/**
 * How the line of each token is cased: `lower` where few of its words start with a capital (chat: a capital there is
 * a name), `title` where most do (headlines, signatures: a capital says little), `mixed` otherwise.
 */
function lineCasing(text: string, tokens: Token[]): string[] {
  const out = new Array<string>(tokens.length);
  let from = 0;
  while (from < tokens.length) {
    let to = from + 1;
    while (to < tokens.length && !text.slice(tokens[to - 1].end, tokens[to].start).includes('\n')) to++;
    let words = 0;
    let capital = 0;
    for (let i = from; i < to; i++) {
      if (!/^\p{L}/u.test(tokens[i].text)) continue;
      words++;
      if (/^\p{Lu}/u.test(tokens[i].text)) capital++;
    }
    const share = words ? capital / words : 0;
    const c = words < 3 ? 'short' : share < 0.15 ? 'lower' : share > 0.6 ? 'title' : 'mixed';
    for (let i = from; i < to; i++) out[i] = c;
    from = to;
  }
  return out;
}

/**
 * The static features of every token, as their rows in the weight table: `found` is every candidate of the recognizers (model spans among them, with
 * evidence `model` and `ner:<LABEL>`), `resolved` what overlap resolution kept.
 */
export function tokenFeatures(text: string, tokens: Token[], found: readonly Detection[], resolved: readonly Detection[]): number[][] {
  const lower = tokens.map((t) => t.text.toLowerCase());
  const shapes = tokens.map((t) => shape(t.text));
  const lex = tokens.map((t) => (/\p{L}/u.test(t.text) ? lexFlags(t.text) : []));
  const model = cover(
    tokens,
    found.filter((d) => d.evidence.includes('model')),
  );
  const rules = cover(
    tokens,
    found.filter((d) => !d.evidence.includes('model') && (d.type === 'name' || d.type === 'organization' || d.type === 'location' || d.type === 'nrp')),
  );
  const kept = cover(tokens, resolved);
  const nerAt = (i: number): string => {
    const m = model[i]?.[0];
    if (!m) return 'O';
    const label = m.d.evidence.find((e) => e.startsWith('ner:'))?.slice(4) ?? m.d.type;
    return `${m.first ? 'B' : 'I'}${label}`;
  };
  const detAt = (i: number): string => {
    const k = kept[i]?.[0];
    return k ? kind(k.d.type) : 'O';
  };
  const casing = lineCasing(text, tokens);
  const runs = capitalRuns(tokens);
  const withClasses = wordClassesLoaded();
  const classes = withClasses ? lower.map(wordClass) : [];
  const c2 = (i: number): string => (i < 0 ? '<s>' : i >= tokens.length ? '</s>' : classes[i] < 0 ? '-' : String((classes[i] >> 6) & 255));
  const out: number[][] = [];
  for (let i = 0; i < tokens.length; i++) {
    const w = tokens[i].text;
    const l = lower[i];
    const sh = shapes[i];
    const f: number[] = [row('b'), row('l=', l.slice(0, 24)), row('sh=', sh), row('case=', casing[i], '|sh=', sh), row('run=', runs[i])];
    if (w !== l) f.push(row('w=', w.slice(0, 24)));
    if (l.length > 3) f.push(row('p3=', l.slice(0, 3)), row('s3=', l.slice(-3)), row('s2=', l.slice(-2)));
    // Words of up to five letters are told apart by their length too.
    if (l.length > 5) f.push(row('p4=', l.slice(0, 4)), row('s4=', l.slice(-4)));
    else f.push(row('len=', String(l.length)));
    const first = i === 0 || ENDS_SENTENCE.test(tokens[i - 1].text) || text.slice(tokens[i - 1].end, tokens[i].start).includes('\n');
    if (first) f.push(row('first'), row('first|sh=', sh));
    const pl = i > 0 ? lower[i - 1] : '<s>';
    const nl = i + 1 < tokens.length ? lower[i + 1] : '</s>';
    f.push(row('pl=', pl), row('nl=', nl), row('psh=', i > 0 ? shapes[i - 1] : '<s>'), row('nsh=', i + 1 < tokens.length ? shapes[i + 1] : '</s>'));
    f.push(row('pl2=', i > 1 ? lower[i - 2] : '<s>'), row('nl2=', i + 2 < tokens.length ? lower[i + 2] : '</s>'));
    f.push(row('pl|sh=', pl, '|', sh), row('sh|nl=', sh, '|', nl));
    for (const x of lex[i]) f.push(row('lx=', x), row('lx=', x, '|sh=', sh));
    if (i > 0) for (const x of lex[i - 1]) f.push(row('plx=', x));
    if (i + 1 < tokens.length) for (const x of lex[i + 1]) f.push(row('nlx=', x));
    const ner = nerAt(i);
    f.push(row('ner=', ner), row('pner=', i > 0 ? nerAt(i - 1) : '<s>'), row('nner=', i + 1 < tokens.length ? nerAt(i + 1) : '</s>'), row('ner|sh=', ner, '|', sh));
    const m = model[i]?.[0];
    if (m) {
      const label = ner.slice(1);
      f.push(row('nerc=', label, '|', bucket(m.d.confidence)));
      if (m.d.evidence.includes('ner_sure')) f.push(row('nersure=', label));
      if (m.d.evidence.includes('recased')) f.push(row('nerrec=', label));
    }
    for (const r of rules[i]) {
      f.push(row('cand=', r.first ? 'B' : 'I', r.d.type, '|', bucket(r.d.confidence)));
      for (const e of r.d.evidence) f.push(row('cev=', r.d.type, '|', e));
    }
    const k = kept[i]?.[0];
    if (k) {
      const t = kind(k.d.type);
      f.push(row('det=', k.first ? 'B' : 'I', t), row('detc=', t, '|', bucket(k.d.confidence)), row('det|sh=', t, '|', sh));
      for (const e of k.d.evidence) if (!e.startsWith('ner:')) f.push(row('dev=', t, '|', e));
    } else f.push(row('det=O'));
    f.push(row('pdet=', i > 0 ? detAt(i - 1) : '<s>'), row('ndet=', i + 1 < tokens.length ? detAt(i + 1) : '</s>'));
    if (withClasses) {
      // The word's vector classes (./word-classes.ts), alone and with its shape, its neighbours' and the model's label.
      const c = classes[i];
      const mid = c2(i);
      if (c < 0) f.push(row('c=none|sh=', sh));
      else
        f.push(
          row('c1=', String(c & 63)),
          row('c2=', mid),
          row('c3=', String(c >> 14)),
          row('c2|sh=', mid, '|', sh),
          row('c1|ner=', String(c & 63), '|', ner),
          row('c3|sh=', String(c >> 14), '|', sh),
        );
      f.push(row('pc2=', c2(i - 1)), row('nc2=', c2(i + 1)), row('pc2|c2=', c2(i - 1), '|', mid), row('c2|nc2=', mid, '|', c2(i + 1)), row('pc2|sh=', c2(i - 1), '|', sh));
    }
    out.push(f);
  }
  return out;
}

/** The kind of detection over each token (the transition features pair it with the previous tag). */
export function detKinds(tokens: Token[], resolved: readonly Detection[]): string[] {
  return cover(tokens, resolved).map((c) => (c[0] ? kind(c[0].d.type) : 'O'));
}
