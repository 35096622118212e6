/**
 * The shape of a recognizer and the one way they are declared. A recognizer is data: a precompiled pattern, an
 * optional validator (a check digit, a date, a country list), the confidence with and without context words near the
 * match, and a column-name hint. detect-text and detect-columns run them all the same way.
 */
import type { PiiCategory, PiiTypeInfo } from '../types';

/** Cheap character-class flags computed once per text: a recognizer whose needs are missing is not run at all. */
export const NEEDS_DIGIT = 1;
export const NEEDS_AT = 2;
export const NEEDS_UPPER = 4;
export const NEEDS_COLON = 8;
export const NEEDS_LETTER = 16;

/** The flags of a string in one pass over its code units. */
export function textFlags(text: string): number {
  let f = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) f |= NEEDS_DIGIT;
    else if (c >= 65 && c <= 90) f |= NEEDS_UPPER | NEEDS_LETTER;
    else if (c >= 97 && c <= 122) f |= NEEDS_LETTER;
    else if (c === 64) f |= NEEDS_AT;
    else if (c === 58) f |= NEEDS_COLON;
    if (f === 31) break;
  }
  return f;
}

/** A candidate span before scoring (custom finders return these). */
export interface RawMatch {
  start: number;
  end: number;
  /** Score decided by the finder itself (gazetteer and NER finders), replacing the recognizer's. */
  score?: number;
  /**
   * The finder could not vouch for it (a card number whose Luhn digit fails, a masked one): kept only at the
   * recognizer's `labelledScore`, where a context word says what it is.
   */
  unchecked?: boolean;
  evidence?: string[];
}

/** A validator answers false (reject), true (keep the recognizer's scores) or a number (the base score to use). */
export type Validator = (compact: string, raw: string) => boolean | number;

export interface Recognizer extends PiiTypeInfo {
  /** Global pattern over free text; its whole match is the value. */
  pattern?: RegExp;
  /** The same pattern anchored to a whole cell (built from `pattern`). */
  cellPattern?: RegExp;
  /** A finder for what a regular expression cannot say (phone numbers, names). Must return matches in text order. */
  find?: (text: string) => RawMatch[];
  /** Whether a whole cell is this type (custom finders; defaults to `cellPattern` + validate). */
  matchCell?: (value: string) => RawMatch | null;
  validate?: Validator;
  /** Confidence without context words. */
  score: number;
  /** Confidence when a context word (or a column-name hint) is present. */
  contextScore: number;
  /**
   * Confidence of a match its validator rejects (or its finder marks unchecked) when a context word is next to it:
   * a mistyped, made-up or masked number the text itself calls a card, an IBAN, an SSN. Without it they are dropped.
   */
  labelledScore?: number;
  /** Lower-cased context words as one regex over a window around the match. */
  context?: RegExp;
  /** Words that argue against the type near a match ("order number" near a card-like number). */
  negativeContext?: RegExp;
  /** Words right after a match that argue against the type ("Chinese food" is no nationality). */
  negativeAfter?: RegExp;
  /** Column names that announce this type. */
  columnHint?: RegExp;
  needs: number;
  /** Extra evidence of a validated match (a card's brand). */
  describe?: (compact: string) => string | undefined;
  /** Leading characters a pseudonym keeps (an IBAN's country, a card's brand digit). */
  fakeKeep?: number;
  /** Positions a pseudonym keeps because the format fixes them (a GSTIN's 'Z' at position 14). */
  fakeKeepAt?: readonly number[];
  /** A pseudonym changes digits only (letters encode sex, region...). */
  fakeDigitsOnly?: boolean;
  /** The birth date inside the identifier, by digit position, which a pseudonym replaces with another real date. */
  fakeDate?: FakeDate;
}

export interface FakeDate {
  /** Index among the value's digits. */
  at: number;
  format: 'YYMMDD' | 'DDMMYY' | 'YYYYMMDD' | 'YYMM';
}

export interface RecognizerSpec {
  id: string;
  name: string;
  category: PiiCategory;
  country?: string;
  /** Source of a regular expression (no flags); word boundaries are added unless `bare`. */
  pattern?: string;
  bare?: boolean;
  ignoreCase?: boolean;
  find?: (text: string) => RawMatch[];
  matchCell?: (value: string) => RawMatch | null;
  validate?: Validator;
  score: number;
  contextScore?: number;
  labelledScore?: number;
  context?: readonly string[];
  negativeContext?: readonly string[];
  /** Words right after a match that argue against the type. */
  negativeAfter?: RegExp;
  columnHint?: string;
  needs: number;
  describe?: (compact: string) => string | undefined;
  fakeKeep?: number;
  fakeKeepAt?: readonly number[];
  fakeDigitsOnly?: boolean;
  fakeDate?: FakeDate;
  evidence?: string;
}

const escape = (w: string): string => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A regex of whole words or phrases, tested against a lower-cased window. */
export function wordsRegex(words: readonly string[]): RegExp {
  return new RegExp(`(?:^|[^a-z0-9])(?:${words.map(escape).join('|')})(?:$|[^a-z0-9])`);
}

/** An identifier is not glued to letters, digits or the inside of an email or a longer number. */
export const bounded = (src: string): string => `(?<![\\w@+\\-./])(?:${src})(?![\\w@]|[\\-./]\\w)`;

/** Declare a recognizer: compile its patterns once. */
export function define(spec: RecognizerSpec): Recognizer {
  const flags = spec.ignoreCase ? 'i' : '';
  const src = spec.pattern === undefined ? undefined : spec.bare ? spec.pattern : bounded(spec.pattern);
  return {
    id: spec.id,
    name: spec.name,
    category: spec.category,
    country: spec.country,
    evidence: spec.evidence ?? (spec.validate ? 'checksum' : spec.context && spec.score < 0.5 ? 'context' : 'format'),
    pattern: src === undefined ? undefined : new RegExp(src, 'g' + flags),
    cellPattern: spec.pattern === undefined ? undefined : new RegExp(`^(?:${spec.pattern})$`, flags),
    find: spec.find,
    matchCell: spec.matchCell,
    validate: spec.validate,
    score: spec.score,
    contextScore: spec.contextScore ?? Math.min(1, spec.score + 0.1),
    labelledScore: spec.labelledScore,
    context: spec.context ? wordsRegex(spec.context) : undefined,
    negativeContext: spec.negativeContext ? wordsRegex(spec.negativeContext) : undefined,
    negativeAfter: spec.negativeAfter,
    columnHint: spec.columnHint ? new RegExp(spec.columnHint, 'i') : undefined,
    needs: spec.needs,
    describe: spec.describe,
    fakeKeep: spec.fakeKeep,
    fakeKeepAt: spec.fakeKeepAt,
    fakeDigitsOnly: spec.fakeDigitsOnly,
    fakeDate: spec.fakeDate,
  };
}

/** Separators people write inside identifiers. */
const SEPARATORS = /[\s.\-/]/g;

/** An identifier without its separators, upper-cased. */
export function compact(raw: string): string {
  return raw.replace(SEPARATORS, '').toUpperCase();
}

/** Whether YYMMDD / DDMMYY style fields form a real calendar date. */
export function validDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const days = [31, year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return day <= days[month - 1];
}
