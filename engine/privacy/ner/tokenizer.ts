/**
 * spaCy's rule-based tokenizer (spacy/tokenizer.pyx, MIT) with the English model's own data: split on whitespace,
 * then per chunk peel prefixes and suffixes (stopping at a tokenizer exception), keep URLs whole, split the rest at
 * infixes; then the "special matcher" re-applies exceptions that affix splitting cut apart. Offsets are UTF-16 code
 * units into the input, as JavaScript counts them; the affix regexes run with the `u` flag, so they see code points
 * as Python's `re` does.
 */
import { isPySpace } from './lexeme';

export interface Token {
  start: number;
  end: number;
  text: string;
  /** A NORM set by a tokenizer exception ("n't" → "not"); undefined: the lexeme's own. */
  norm?: string;
}

export interface TokenizerData {
  prefix: string;
  suffix: string;
  infix: string;
  url: string;
  specialCases: Record<string, [string, string | null][]>;
}

/** A piece of a chunk: its text and, for an exception's token, its NORM. */
type Piece = [string, string | null];

/** Chunks (whitespace-separated strings) seen before and their pieces: tokenization is a pure function of the chunk. */
const CACHE_MAX = 20_000;

export class Tokenizer {
  private readonly prefixRe: RegExp;
  private readonly suffixRe: RegExp;
  private readonly infixRe: RegExp;
  private readonly urlRe: RegExp;
  private readonly specials: Map<string, Piece[]>;
  /** Exceptions that affix splitting would cut apart, as the token texts they would be cut into, by first token. */
  private readonly matcher = new Map<string, string[][]>();
  private cache = new Map<string, Piece[]>();

  constructor(data: TokenizerData) {
    this.prefixRe = new RegExp(data.prefix, 'u');
    this.suffixRe = new RegExp(data.suffix, 'u');
    this.infixRe = new RegExp(data.infix, 'gu');
    this.urlRe = new RegExp(data.url, 'u');
    this.specials = new Map(Object.entries(data.specialCases));
    // add_special_case (faster_heuristics): only exceptions with an affix, an infix or a space go to the matcher,
    // as their tokenization without exceptions.
    for (const key of [...this.specials.keys()].sort()) {
      if (this.findPrefix(key) || this.findInfix(key).length || this.findSuffix(key) || key.includes(' ')) {
        const orths = this.tokenize(key, false).map((t) => t.text);
        if (orths.length === 0) continue;
        const list = this.matcher.get(orths[0]) ?? [];
        list.push(orths);
        this.matcher.set(orths[0], list);
      }
    }
    this.cache.clear();
  }

  /** The tokens of a text, as spaCy's `nlp.tokenizer(text)` makes them. */
  tokenize(text: string, withSpecialCases = true): Token[] {
    const tokens: Token[] = [];
    if (text.length === 0) return tokens;
    let inWs = isPySpace(text.charCodeAt(0));
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (isPySpace(c) !== inWs) {
        if (start < i) this.chunk(text, start, i, tokens, withSpecialCases);
        // One plain space after a word belongs to it (spaCy's `whitespace_`); any other run is a token.
        start = c === 0x20 ? i + 1 : i;
        inWs = !inWs;
      }
    }
    if (start < text.length) this.chunk(text, start, text.length, tokens, withSpecialCases);
    return withSpecialCases && this.matcher.size ? this.applySpecialMatcher(text, tokens) : tokens;
  }

  private chunk(text: string, start: number, end: number, out: Token[], withSpecialCases: boolean): void {
    const s = text.slice(start, end);
    let pieces: Piece[] | undefined = withSpecialCases ? this.specials.get(s) : undefined;
    if (!pieces && withSpecialCases) pieces = this.cache.get(s);
    if (!pieces) {
      pieces = this.splitChunk(s, withSpecialCases);
      if (withSpecialCases) {
        if (this.cache.size >= CACHE_MAX) this.cache = new Map();
        this.cache.set(s, pieces);
      }
    }
    let at = start;
    for (const [orth, norm] of pieces) {
      out.push(norm === null ? { start: at, end: at + orth.length, text: orth } : { start: at, end: at + orth.length, text: orth, norm });
      at += orth.length;
    }
  }

  /** `_split_affixes` then `_attach_tokens`. */
  private splitChunk(chunk: string, withSpecialCases: boolean): Piece[] {
    const prefixes: Piece[] = [];
    const suffixes: Piece[] = [];
    let s = chunk;
    let lastSize = -1;
    while (s.length > 0 && s.length !== lastSize) {
      if (withSpecialCases && this.specials.has(s)) break;
      lastSize = s.length;
      const pre = this.findPrefix(s);
      let minusPre = '';
      if (pre !== 0) {
        minusPre = s.slice(pre);
        if (minusPre && withSpecialCases && this.specials.has(minusPre)) {
          prefixes.push([s.slice(0, pre), null]);
          s = minusPre;
          break;
        }
      }
      const suf = this.findSuffix(s.slice(pre));
      let minusSuf = '';
      if (suf !== 0) {
        minusSuf = s.slice(0, s.length - suf);
        if (minusSuf && withSpecialCases && this.specials.has(minusSuf)) {
          suffixes.push([s.slice(s.length - suf), null]);
          s = minusSuf;
          break;
        }
      }
      if (pre && suf && pre + suf <= s.length) {
        prefixes.push([s.slice(0, pre), null]);
        suffixes.push([s.slice(s.length - suf), null]);
        s = s.slice(pre, s.length - suf);
      } else if (pre) {
        prefixes.push([s.slice(0, pre), null]);
        s = minusPre;
      } else if (suf) {
        suffixes.push([s.slice(s.length - suf), null]);
        s = minusSuf;
      }
    }
    const out = prefixes;
    if (s) {
      const special = withSpecialCases ? this.specials.get(s) : undefined;
      const cached = special ?? (withSpecialCases ? this.cache.get(s) : undefined);
      if (cached) out.push(...cached);
      else if (this.urlRe.test(s)) out.push([s, null]);
      else {
        const matches = this.findInfix(s);
        let start = 0;
        for (const [infixStart, infixEnd] of matches) {
          // An infix at the very start is not a split point.
          if (infixStart === 0) continue;
          if (infixStart !== start) out.push([s.slice(start, infixStart), null]);
          if (infixStart !== infixEnd) out.push([s.slice(infixStart, infixEnd), null]);
          start = infixEnd;
        }
        if (start < s.length) out.push([s.slice(start), null]);
      }
    }
    for (let i = suffixes.length - 1; i >= 0; i--) out.push(suffixes[i]);
    return out;
  }

  private findPrefix(s: string): number {
    const m = this.prefixRe.exec(s);
    return m ? m[0].length : 0;
  }

  private findSuffix(s: string): number {
    const m = this.suffixRe.exec(s);
    return m ? m[0].length : 0;
  }

  private findInfix(s: string): [number, number][] {
    const out: [number, number][] = [];
    this.infixRe.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = this.infixRe.exec(s)) !== null) {
      out.push([m.index, m.index + m[0].length]);
      if (m[0].length === 0) this.infixRe.lastIndex++;
    }
    return out;
  }

  /**
   * `_apply_special_cases`: every occurrence of a matcher pattern (by token text), the longest first (then the
   * earliest), kept when neither end overlaps one already kept; a kept span whose text (with the whitespace inside it)
   * is an exception is replaced by the exception's tokens.
   */
  private applySpecialMatcher(text: string, tokens: Token[]): Token[] {
    const found: [number, number][] = [];
    for (let i = 0; i < tokens.length; i++) {
      const patterns = this.matcher.get(tokens[i].text);
      if (!patterns) continue;
      for (const p of patterns) {
        if (i + p.length > tokens.length) continue;
        let ok = true;
        for (let k = 1; k < p.length && ok; k++) ok = tokens[i + k].text === p[k];
        if (ok) found.push([i, i + p.length]);
      }
    }
    if (found.length === 0) return tokens;
    // spaCy's len_start_cmp order, walked from the back: the longest first, then the earliest.
    found.sort((a, b) => a[1] - a[0] - (b[1] - b[0]) || b[0] - a[0]);
    const seen = new Set<number>();
    const kept: [number, number][] = [];
    for (let k = found.length - 1; k >= 0; k--) {
      const [s, e] = found[k];
      if (!seen.has(s) && !seen.has(e - 1)) kept.push([s, e]);
      for (let j = s; j < e; j++) seen.add(j);
    }
    kept.sort((a, b) => a[0] - b[0]);
    const out: Token[] = [];
    let i = 0;
    for (const [s, e] of kept) {
      while (i < s) out.push(tokens[i++]);
      const spanText = text.slice(tokens[s].start, tokens[e - 1].end);
      const pieces = this.specials.get(spanText);
      if (!pieces) {
        while (i < e) out.push(tokens[i++]);
        continue;
      }
      let at = tokens[s].start;
      for (const [orth, norm] of pieces) {
        out.push(norm === null ? { start: at, end: at + orth.length, text: orth } : { start: at, end: at + orth.length, text: orth, norm });
        at += orth.length;
      }
      i = e;
    }
    while (i < tokens.length) out.push(tokens[i++]);
    return out;
  }
}
