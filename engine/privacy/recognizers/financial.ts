/** Payment cards with their brand, IBAN, SWIFT/BIC, ABA routing numbers, bank accounts, card expiry and CVV. */
import * as cs from '../checksums';
import { COUNTRY_CODES, IBAN_LENGTHS } from './countries';
import { cardScheme } from './card-iin';
import { define, NEEDS_DIGIT, NEEDS_UPPER, type RawMatch, type Recognizer } from './define';

/** The card brand whose IIN range and length the number fits (card-iin.ts), or undefined. */
export function cardBrand(d: string): string | undefined {
  return cardScheme(d)?.brand;
}

/** A card number's base score: its scheme's, when the Luhn check digit holds. */
function cardScore(d: string): number | false {
  const s = cardScheme(d);
  return s !== undefined && cs.luhn(d) ? s.score : false;
}

/** Runs of digit groups separated by single spaces or hyphens ("4111 1111 1111 1111", "3782-822463-10005"). */
const CARD_RUN = /(?<![\w+\-./,])\d+(?:[ -]\d+)*(?![\w@]|[-./]\d)/g;
/** The groupings of printed cards: 4-4-4-4(-3), 4-6-4 and 4-6-5, or one block of 15-16 digits. */
const CARD_GROUPING = /^(?:\d{4}([ -])\d{4}\1\d{4}\1\d{4}(?:\1\d{3})?|\d{4}([ -])\d{6}\2\d{4,5}|\d{15,16})$/;
/** A card number with its middle masked ("4532 **** **** 7890", "XXXX-XXXX-XXXX-1234"), as receipts and logs print them. */
const MASKED_CARD = /(?<![\w*•#])(?=[\d*xX•#]{4}[ -]?[\d*xX•#])(?:[\d*xX•#]{2,6}[ -]?){2,5}\d{4}(?![\w*•#]|[-./]\d)/g;

/**
 * Card numbers in free text: a run of digit groups is a card when its digits (12-19) fit a scheme and pass Luhn;
 * a longer run (a CVV or an expiry written after the number) is tried at its group boundaries, longest first. A run
 * printed like a card whose Luhn digit fails, and a masked card, are unchecked: cards only where the text says so.
 */
function findCards(text: string): RawMatch[] {
  const out: RawMatch[] = [];
  CARD_RUN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = CARD_RUN.exec(text)) !== null) {
    const raw = m[0];
    if (raw.length < 12) continue;
    const digits = raw.replace(/[ -]/g, '');
    if (digits.length < 12) continue;
    // Group boundaries: the end of each digit group in the raw text, with the digits up to it.
    const ends: [number, number][] = [];
    let count = 0;
    for (let i = 0; i < raw.length; i++) {
      const c = raw.charCodeAt(i);
      if (c >= 48 && c <= 57) {
        count++;
        if (i + 1 === raw.length || raw[i + 1] === ' ' || raw[i + 1] === '-') ends.push([i + 1, count]);
      }
    }
    let found = false;
    let printed = -1;
    for (let k = ends.length - 1; k >= 0; k--) {
      const [end, n] = ends[k];
      if (n > 19) continue;
      if (n < 12) break;
      const score = cardScore(digits.slice(0, n));
      if (score === false) {
        if (printed < 0 && CARD_GROUPING.test(raw.slice(0, end)) && cardScheme(digits.slice(0, n))) printed = end;
        continue;
      }
      out.push({ start: m.index, end: m.index + end, score, evidence: ['pattern', 'checksum', 'brand:' + cardBrand(digits.slice(0, n))] });
      found = true;
      break;
    }
    if (!found && printed > 0) out.push({ start: m.index, end: m.index + printed, unchecked: true, evidence: ['pattern'] });
  }
  if (/[*xX•#]{2}/.test(text)) {
    MASKED_CARD.lastIndex = 0;
    while ((m = MASKED_CARD.exec(text)) !== null) {
      const chars = m[0].replace(/[ -]/g, '').length;
      const masked = m[0].replace(/[^*xX•#]/g, '').length;
      if (chars >= 12 && chars <= 20 && masked >= 4) out.push({ start: m.index, end: m.index + m[0].length, unchecked: true, evidence: ['pattern', 'masked'] });
    }
    out.sort((a, b) => a.start - b.start);
  }
  return out;
}

function cardCell(value: string): RawMatch | null {
  const v = value.trim();
  if (!/^\d[\d -]{10,24}\d$/.test(v)) return null;
  const d = v.replace(/[ -]/g, '');
  const score = d.length >= 12 && d.length <= 19 ? cardScore(d) : false;
  return score === false ? null : { start: 0, end: value.length, score, evidence: ['checksum', 'brand:' + cardBrand(d)] };
}

export const FINANCIAL_RECOGNIZERS: Recognizer[] = [
  define({
    id: 'credit_card',
    name: 'Payment card number',
    category: 'financial',
    find: findCards,
    matchCell: cardCell,
    evidence: 'checksum',
    score: 0.92,
    contextScore: 1,
    labelledScore: 0.7,
    context: [
      'card',
      'credit',
      'debit',
      'visa',
      'mastercard',
      'amex',
      'jcb',
      'maestro',
      'discover',
      'diners',
      'unionpay',
      'mir',
      'rupay',
      'troy',
      'elo',
      'cc',
      'pan',
      'payment',
      'charged',
      'paid with',
    ],
    negativeContext: ['order', 'invoice', 'tracking', 'reference', 'ref', 'shipment', 'serial', 'imei', 'account number', 'iccid'],
    columnHint: 'card|(^|_)cc(_|$)|(^|_)pan($|_)|credit',
    needs: NEEDS_DIGIT,
    fakeKeep: 2,
  }),
  define({
    id: 'iban',
    name: 'IBAN',
    category: 'financial',
    pattern: '[A-Z]{2}\\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?',
    validate: (d) => IBAN_LENGTHS[d.slice(0, 2)] === d.length && cs.ibanValid(d),
    score: 0.97,
    // An IBAN-shaped code the text calls an IBAN though its check digits or country fail: a mistyped or made-up one.
    labelledScore: 0.7,
    context: ['iban', 'bank account', 'account'],
    columnHint: 'iban',
    needs: NEEDS_DIGIT | NEEDS_UPPER,
    fakeKeep: 2,
  }),
  define({
    id: 'swift_bic',
    name: 'SWIFT / BIC code',
    category: 'financial',
    pattern: '[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?',
    validate: (d) => COUNTRY_CODES.has(d.slice(4, 6)) && (/\d/.test(d.slice(6)) ? 0.6 : 0.3),
    evidence: 'format',
    score: 0.6,
    contextScore: 0.95,
    context: ['swift', 'bic', 'swift code', 'bank identifier', 'wire', 'sort code', 'bank'],
    columnHint: 'swift|(^|_)bic($|_)',
    needs: NEEDS_UPPER,
    fakeKeep: 6,
  }),
  define({
    id: 'aba_routing',
    name: 'ABA routing number',
    category: 'financial',
    country: 'US',
    pattern: '\\d{9}',
    validate: (d) => cs.abaValid(d),
    score: 0.3,
    contextScore: 0.93,
    context: ['routing', 'aba', 'rtn', 'routing number', 'transit'],
    columnHint: 'routing|(^|_)aba($|_)',
    needs: NEEDS_DIGIT,
  }),
  define({
    id: 'bank_account',
    name: 'Bank account number',
    category: 'financial',
    pattern: '\\d{8,17}|\\d{2,6}-\\d{4,10}(?:-\\d{1,4})?',
    score: 0.1,
    contextScore: 0.82,
    context: ['account number', 'account no', 'acct', 'account #', 'bank account', 'checking', 'savings account', 'a/c', 'account'],
    negativeContext: ['routing', 'order', 'invoice'],
    columnHint: 'acc(oun)?t_?(no|num|number)?$|bank_?acc',
    needs: NEEDS_DIGIT,
  }),
  define({
    id: 'card_expiry',
    name: 'Card expiry date',
    category: 'financial',
    pattern: '(?:0[1-9]|1[0-2]) ?/ ?(?:\\d{2}|20\\d{2})',
    score: 0.2,
    contextScore: 0.85,
    context: ['exp', 'expiry', 'expires', 'expiration', 'valid thru', 'valid through', 'exp date'],
    columnHint: 'exp(iry|iration)?(_date)?$|valid_?thru',
    needs: NEEDS_DIGIT,
  }),
  define({
    id: 'cvv',
    name: 'Card security code (CVV/CVC)',
    category: 'financial',
    pattern: '\\d{3,4}',
    score: 0,
    contextScore: 0.85,
    context: ['cvv', 'cvc', 'cvv2', 'cid', 'security code', 'card verification'],
    columnHint: '^(cvv|cvc|cvv2|csc)$',
    needs: NEEDS_DIGIT,
  }),
];
