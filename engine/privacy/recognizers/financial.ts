/** Payment cards with their brand, IBAN, SWIFT/BIC, ABA routing numbers, bank accounts, card expiry and CVV. */
import * as cs from '../checksums';
import { COUNTRY_CODES, IBAN_LENGTHS } from './countries';
import { define, NEEDS_DIGIT, NEEDS_UPPER, type Recognizer } from './define';

/** The card brand whose IIN range and length the number fits, or undefined. */
export function cardBrand(d: string): string | undefined {
  const n = d.length;
  const p2 = Number(d.slice(0, 2));
  const p4 = Number(d.slice(0, 4));
  const p6 = Number(d.slice(0, 6));
  if (d[0] === '4' && (n === 13 || n === 16 || n === 19)) return 'visa';
  if (((p2 >= 51 && p2 <= 55) || (p6 >= 222100 && p6 <= 272099)) && n === 16) return 'mastercard';
  if ((p2 === 34 || p2 === 37) && n === 15) return 'amex';
  if ((p4 === 6011 || p2 === 65 || (p4 >= 6440 && p4 <= 6499) || (p6 >= 622126 && p6 <= 622925)) && n >= 16 && n <= 19) return 'discover';
  if (p4 >= 3528 && p4 <= 3589 && n >= 16 && n <= 19) return 'jcb';
  if (((p4 >= 3000 && p4 <= 3059) || p2 === 36 || p2 === 38 || p2 === 39) && n >= 14 && n <= 19) return 'diners';
  if (p2 === 62 && n >= 16 && n <= 19) return 'unionpay';
  if ([5018, 5020, 5038, 5893, 6304, 6759, 6761, 6762, 6763].includes(p4) && n >= 12 && n <= 19) return 'maestro';
  return undefined;
}

function cardValid(d: string): boolean {
  return cardBrand(d) !== undefined && cs.luhn(d);
}

export const FINANCIAL_RECOGNIZERS: Recognizer[] = [
  define({
    id: 'credit_card',
    name: 'Payment card number',
    category: 'financial',
    pattern: '3[47]\\d{2}([ -]?)\\d{6}\\1\\d{5}|[2-6]\\d{3}([ -]?)\\d{4}\\2\\d{4}\\2\\d{4}(?:\\2?\\d{3})?|[3-6]\\d{12,18}',
    validate: cardValid,
    score: 0.92,
    contextScore: 1,
    context: ['card', 'credit', 'debit', 'visa', 'mastercard', 'amex', 'cc', 'pan', 'payment', 'charged', 'paid with'],
    negativeContext: ['order', 'invoice', 'tracking', 'reference', 'ref', 'shipment', 'serial', 'imei', 'account number', 'iccid'],
    columnHint: 'card|(^|_)cc(_|$)|(^|_)pan($|_)|credit',
    needs: NEEDS_DIGIT,
    describe: (d) => 'brand:' + cardBrand(d),
    fakeKeep: 2,
  }),
  define({
    id: 'iban',
    name: 'IBAN',
    category: 'financial',
    pattern: '[A-Z]{2}\\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?',
    validate: (d) => IBAN_LENGTHS[d.slice(0, 2)] === d.length && cs.ibanValid(d),
    score: 0.97,
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
