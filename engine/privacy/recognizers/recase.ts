/**
 * Re-casing for the named-entity model, which learned case from edited text: in a line written all in capitals
 * ("SHIP TO: PAOLO BIANCHI, VIA ROMA 10") or all in lower case ("my name is john smith") case says nothing, so
 * the model is shown the line as an editor would have written it: common words in lower case, the other words
 * capitalized. Offsets do not move (a character whose other case has another length is left as it is).
 */
import { fold, lexicon } from '../lexicon';

export interface Recased {
  /** The text the model reads. */
  text: string;
  /** Whether [start, end) lies on a re-cased line. */
  changed(start: number, end: number): boolean;
}

const WORD = /[\p{L}\p{M}'’]+/gu;
const UPPER = /\p{Lu}/u;
const LOWER = /\p{Ll}/u;

/**
 * spaCy's English stop words (spacy/lang/en/stop_words.py, MIT) beside the lexicon's common words: function words
 * stay lower case in a re-cased line.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above across after afterwards again against all almost alone along already also although always am among amongst amount an and another any anyhow ' +
    'anyone anything anyway anywhere are around as at back be became because become becomes becoming been before beforehand behind being below beside besides ' +
    'between beyond both bottom but by ca call can cannot could did do does doing done down due during each eight either eleven else elsewhere empty enough even ' +
    'ever every everyone everything everywhere except few fifteen fifty first five for former formerly forty four from front full further get give go had has have ' +
    'he hence her here hereafter hereby herein hereupon hers herself him himself his how however hundred i if in indeed into is it its itself just keep last latter ' +
    'latterly least less made make many may me meanwhile might mine more moreover most mostly move much must my myself name namely neither never nevertheless next ' +
    'nine no nobody none noone nor not nothing now nowhere of off often on once one only onto or other others otherwise our ours ourselves out over own part per ' +
    'perhaps please put quite rather re really regarding same say see seem seemed seeming seems serious several she should show side since six sixty so some ' +
    'somehow someone something sometime sometimes somewhere still such take ten than that the their them themselves then thence there thereafter thereby ' +
    'therefore therein thereupon these they third this those though three through throughout thru thus to together too top toward towards twelve twenty two under ' +
    'unless until up upon us used using various very via was we well were what whatever when whence whenever where whereafter whereas whereby wherein whereupon ' +
    'wherever whether which while whither who whoever whole whom whose why will with within without would yet you your yours yourself yourselves'
  ).split(' '),
);

/**
 * Chat abbreviations and interjections: no names, though no dictionary holds them. The model takes them for
 * organizations in capitals ("LOL", "OMG", "SMH"); the rules would take them for surnames after a given name in lower
 * case ("sarah lol").
 */
export const CHAT_WORDS: ReadonlySet<string> = new Set(
  (
    'lol lols lmao lmfao rofl roflmao omg omfg wtf wth smh tbh tbf imo imho idk idc ikr btw brb afaik irl jk nvm thx ty tyvm pls plz af fml ftw gg iirc tldr ' +
    'yolo fomo bff nsfw ama til eli5 ootd lmk hmu ngl istg fr np ppl ya yea yeah yay yup nope ugh ahh aww haha hahaha hehe xd xoxo wow omw rip ps pps nb attn ' +
    'rn wanna gonna gotta tryna finna yall bday sry soz hbu wyd srsly hmm umm hun babe luv bae fam sis bruh fyi asap'
  ).split(' '),
);

export type RecaseStrategy = 'none' | 'title' | 'title-uncommon';

/** Whether a lower-cased word is one an editor writes in lower case mid-sentence. */
function isCommon(word: string): boolean {
  let w = word.replace(/[’']s$/, '');
  if (STOP_WORDS.has(w)) return true;
  const lex = lexicon();
  w = fold(w);
  return lex.common.has(w) && !lex.firstNames.has(w) && !lex.lastNames.has(w) && !lex.places.has(w);
}

/** One character in the other case, or itself when that changes its length. */
function sameLength(ch: string, upper: boolean): string {
  const c = upper ? ch.toUpperCase() : ch.toLowerCase();
  return c.length === ch.length ? c : ch;
}

function recaseWord(word: string, capitalize: boolean): string {
  let out = '';
  let first = true;
  for (const ch of word) {
    out += sameLength(ch, capitalize && first);
    first = false;
  }
  return out;
}

/**
 * How a line is written: 'lower' without a capital, 'upper' when capitals make at least 70% of its cased letters
 * (a form line "Patient: ŽELJKA KOVAČEVIĆ" too), else 'mixed'. Fewer than two cased letters: 'mixed'.
 */
function lineCase(line: string): 'lower' | 'upper' | 'mixed' {
  let upper = 0;
  let lower = 0;
  for (const ch of line) {
    if (UPPER.test(ch)) upper++;
    else if (LOWER.test(ch)) lower++;
  }
  if (upper + lower < 2) return 'mixed';
  if (upper === 0) return 'lower';
  return upper >= 0.7 * (upper + lower) ? 'upper' : 'mixed';
}

const ALL_UPPER = /^[^\p{Ll}]*$/u;

/** The text as the model should read it, by `strategy` ('title-uncommon' is what the recognizer uses). */
export function recase(text: string, strategy: RecaseStrategy): Recased {
  if (strategy === 'none') return { text, changed: () => false };
  const ranges: [number, number][] = [];
  let out = '';
  let at = 0;
  for (const line of text.split('\n')) {
    const kind = lineCase(line);
    if (kind !== 'mixed') {
      ranges.push([at, at + line.length]);
      // In a line of capitals, a word with small letters was written that way on purpose and stays as it is.
      out += line.replace(WORD, (w) => (kind === 'upper' && !ALL_UPPER.test(w) ? w : recaseWord(w, strategy === 'title' || !isCommon(w.toLowerCase()))));
    } else out += line;
    out += '\n';
    at += line.length + 1;
  }
  out = out.slice(0, -1);
  if (ranges.length === 0) return { text, changed: () => false };
  return { text: out, changed: (s, e) => ranges.some(([a, b]) => s < b && a < e) };
}

/** The recognizer's re-casing. */
export function recaseForModel(text: string): Recased {
  return recase(text, 'title-uncommon');
}
