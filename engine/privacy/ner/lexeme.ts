/**
 * The lexical attributes the NER model embeds (NORM, PREFIX, SUFFIX, SHAPE) and the string ids spaCy gives them,
 * as spacy/lang/lex_attrs.py and spacy/vocab.pyx compute them. Python string semantics matter here: slicing and
 * lengths count code points, `isalpha` is \p{L}, `isupper` of a letter is \p{Lu}, `isdigit` is \p{Nd} plus the
 * Numeric_Type=Digit characters (superscripts, circled digits), `isspace` has its own set.
 */
import { hashString } from './hash';
import { SYMBOLS } from './symbols';

/** A spaCy string id as two uint32 halves (symbols are small ids with hi = 0). */
export interface StringId {
  hi: number;
  lo: number;
}

/** spaCy's `StringStore.add`/`get_string_id`: '' is 0, a reserved symbol its id, anything else its hash. */
export function stringId(s: string): StringId {
  const sym = SYMBOLS.get(s);
  if (sym !== undefined) return { hi: 0, lo: sym };
  return hashString(s);
}

/** The decimal form of a string id, as the converter writes the `lexeme_norm` table's keys. */
export function stringIdKey(id: StringId): string {
  return ((BigInt(id.hi) << 32n) | BigInt(id.lo)).toString();
}

/** Python `str.isspace()` per character. */
export function isPySpace(c: number): boolean {
  return (
    (c >= 0x09 && c <= 0x0d) ||
    (c >= 0x1c && c <= 0x20) ||
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

/** Python `str.isspace()` of a whole string (false when empty). */
export function isSpaceString(s: string): boolean {
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i++) if (!isPySpace(s.charCodeAt(i))) return false;
  return true;
}

const LETTER = /\p{L}/u;
const UPPER = /\p{Lu}/u;
const DECIMAL = /\p{Nd}/u;
/** Numeric_Type=Digit code points that are not decimal (Python's isdigit accepts them; \p{Nd} does not). */
const OTHER_DIGITS =
  /[\u00b2\u00b3\u00b9\u1369-\u1371\u19da\u2070\u2074-\u2079\u2080-\u2089\u2460-\u2468\u2474-\u247c\u2488-\u2490\u24ea\u24f5-\u24fd\u24ff\u2776-\u277e\u2780-\u2788\u278a-\u2792\u{10a40}-\u{10a43}\u{10e60}-\u{10e68}\u{11052}-\u{1105a}\u{1f100}-\u{1f10a}]/u;

/** lex_attrs.word_shape: X/x/d per letter case and digit, other characters as they are, runs cut at four. */
export function wordShape(text: string): string {
  let n = 0;
  for (const _ of text) if (++n >= 100) return 'LONG';
  let shape = '';
  let last = '';
  let seq = 0;
  for (const ch of text) {
    let s: string;
    if (ch.charCodeAt(0) < 128) {
      const c = ch.charCodeAt(0);
      s = c >= 65 && c <= 90 ? 'X' : c >= 97 && c <= 122 ? 'x' : c >= 48 && c <= 57 ? 'd' : ch;
    } else if (LETTER.test(ch)) s = UPPER.test(ch) ? 'X' : 'x';
    else if (DECIMAL.test(ch) || OTHER_DIGITS.test(ch)) s = 'd';
    else s = ch;
    if (s === last) seq++;
    else {
      seq = 0;
      last = s;
    }
    if (seq < 4) shape += s;
  }
  return shape;
}

/** lex_attrs.prefix: the first code point. */
export function prefixOf(text: string): string {
  const c = text.codePointAt(0);
  return c === undefined ? '' : String.fromCodePoint(c);
}

/** lex_attrs.suffix: the last three code points. */
export function suffixOf(text: string): string {
  let i = text.length;
  for (let k = 0; k < 3 && i > 0; k++) {
    i--;
    const c = text.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff && i > 0) {
      const h = text.charCodeAt(i - 1);
      if (h >= 0xd800 && h <= 0xdbff) i--;
    }
  }
  return text.slice(i);
}

/** spacy/lang/norm_exceptions.py BASE_NORMS (MIT): the fallback norms after the vocabulary's own table. */
const BASE_NORMS: ReadonlyMap<string, string> = new Map([
  ["'s", "'s"], ["'S", "'s"], ['’s', "'s"], ['’S', "'s"], ['’', "'"], ['‘', "'"], ['´', "'"], ['`', "'"],
  ['”', '"'], ['“', '"'], ["''", '"'], ['``', '"'], ['´´', '"'], ['„', '"'], ['»', '"'], ['«', '"'], ['‘‘', '"'], ['’’', '"'],
  ['？', '?'], ['！', '!'], ['，', ','], ['；', ';'], ['：', ':'], ['。', '.'], ['।', '.'], ['…', '...'],
  ['—', '-'], ['–', '-'], ['--', '-'], ['---', '-'], ['——', '-'],
  ['€', '$'], ['£', '$'], ['¥', '$'], ['฿', '$'], ['US$', '$'], ['C$', '$'], ['A$', '$'], ['₺', '$'], ['₹', '$'], ['৳', '$'], ['₩', '$'], ['Mex$', '$'], ['₣', '$'], ['E£', '$'],
]); // prettier-ignore

/**
 * A lexeme's NORM: the vocabulary's `lexeme_norm` table (keyed by the string's id), then BASE_NORMS, then lower
 * case (vocab.pyx chains them in that order).
 */
export function lexemeNorm(orth: string, table: ReadonlyMap<string, string>): string {
  const fromTable = table.get(stringIdKey(stringId(orth)));
  if (fromTable !== undefined) return fromTable;
  return BASE_NORMS.get(orth) ?? orth.toLowerCase();
}
