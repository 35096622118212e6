/** Email addresses, phone and fax numbers (libphonenumber-js with its full metadata), street addresses. */
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { define, NEEDS_AT, NEEDS_DIGIT, NEEDS_UPPER, type RawMatch, type Recognizer } from './define';

/** Countries whose national formats are tried, in order, for numbers written without a + prefix. */
const PHONE_REGIONS: CountryCode[] = ['US', 'GB', 'DE', 'FR', 'IN'];
/** Digit groups that may be a phone number; libphonenumber then decides on each (its own text scanner is ~10x slower). */
const PHONE_CANDIDATE = /(?<![\w+\-./])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{1,5}\)[\s.-]?)?\d{1,5}(?:[\s.-]?\d{1,5}){1,5}(?![\w@]|[-./]\d)/g;

/** A phone number's score: +international is surest, a valid US number next, another country's national format least. */
function phoneScore(candidate: string): number {
  let digits = 0;
  for (let i = 0; i < candidate.length; i++) {
    const c = candidate.charCodeAt(i);
    if (c >= 48 && c <= 57) digits++;
  }
  if (digits < 7 || digits > 15) return 0;
  if (candidate[0] === '+') return parsePhoneNumberFromString(candidate)?.isValid() ? 0.85 : 0;
  for (let i = 0; i < PHONE_REGIONS.length; i++) if (parsePhoneNumberFromString(candidate, PHONE_REGIONS[i])?.isValid()) return i === 0 ? 0.75 : 0.45;
  return 0;
}

let memoText: string | undefined;
let memo: RawMatch[] = [];

/** Phone numbers libphonenumber (full metadata) accepts as valid (memoised: the fax recognizer reads the same). */
function findPhones(text: string): RawMatch[] {
  if (text === memoText) return memo;
  const out: RawMatch[] = [];
  PHONE_CANDIDATE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = PHONE_CANDIDATE.exec(text)) !== null) {
    const score = phoneScore(m[0]);
    if (score > 0) out.push({ start: m.index, end: m.index + m[0].length, score, evidence: ['libphonenumber'] });
  }
  memoText = text;
  memo = out;
  return out;
}

const PHONE_CELL = /^[+(]?\d[\d\s().\-/]{5,20}\d$/;

function phoneCell(value: string): RawMatch | null {
  const v = value.trim();
  if (!PHONE_CELL.test(v)) return null;
  const score = phoneScore(v);
  return score > 0 ? { start: 0, end: value.length, score, evidence: ['libphonenumber'] } : null;
}

const STREET_SUFFIX =
  'Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Way|Place|Pl|Terrace|Ter|Circle|Cir|Parkway|Pkwy|Highway|Hwy|Square|Sq|Trail|Trl|Close|Crescent|Row|Walk|Gardens|Plaza|Alley';
const ADDRESS =
  `\\d{1,6}[A-Z]?\\s+(?:[NSEW]\\.?\\s+)?(?:[A-Z][a-z]+\\.?\\s+|\\d{1,3}(?:st|nd|rd|th)\\s+){1,4}(?:${STREET_SUFFIX})\\.?` +
  '(?:,?\\s+(?:Apt|Apartment|Suite|Ste|Unit|Floor|Fl|Room|#)\\.?\\s*#?[A-Za-z0-9-]+)?' +
  '(?:,\\s*[A-Z][a-zA-Z]+(?:\\s[A-Z][a-zA-Z]+){0,2}(?:,?\\s+(?:[A-Z]{2}|[A-Z][a-z]+)\\s+\\d{5}(?:-\\d{4})?|\\s+[A-Z]{1,2}\\d[A-Z\\d]?\\s?\\d[A-Z]{2})?)?' +
  '|(?:P\\.?\\s?O\\.?\\s?Box|Post Office Box)\\s+\\d{1,6}';

export const CONTACT_RECOGNIZERS: Recognizer[] = [
  define({
    id: 'email',
    name: 'Email address',
    category: 'contact',
    pattern: "(?<![\\w.%+\\-])[A-Za-z0-9._%+'\\-]+@[A-Za-z0-9\\-]+(?:\\.[A-Za-z0-9\\-]+)*\\.[A-Za-z]{2,24}(?![\\w\\-])",
    bare: true,
    evidence: 'format',
    score: 0.97,
    context: ['email', 'e-mail', 'mail', 'contact'],
    columnHint: 'e_?mail',
    needs: NEEDS_AT,
  }),
  define({
    id: 'phone',
    name: 'Phone number',
    category: 'contact',
    find: findPhones,
    matchCell: phoneCell,
    evidence: 'format',
    score: 0.75,
    contextScore: 0.95,
    context: ['phone', 'tel', 'telephone', 'call', 'mobile', 'cell', 'contact', 'reach', 'text', 'whatsapp', 'sms', 'ph'],
    negativeContext: ['fax', 'order', 'invoice', 'account', 'routing', 'ssn', 'tracking', 'reference', 'ref', 'ticket', 'npi', 'nhs'],
    columnHint: 'phone|mobile|tel|cell|contact_?n',
    needs: NEEDS_DIGIT,
  }),
  define({
    id: 'fax_number',
    name: 'Fax number',
    category: 'contact',
    find: (text) => findPhones(text).map((m) => ({ ...m, score: 0.1 })),
    matchCell: (v) => (phoneCell(v) ? { start: 0, end: v.length, score: 0.1 } : null),
    evidence: 'context',
    score: 0.1,
    contextScore: 0.96,
    context: ['fax', 'facsimile'],
    columnHint: 'fax',
    needs: NEEDS_DIGIT,
  }),
  define({
    id: 'address',
    name: 'Street address',
    category: 'geography',
    pattern: ADDRESS,
    evidence: 'format',
    score: 0.88,
    contextScore: 0.95,
    context: ['address', 'lives at', 'live at', 'resides', 'ship to', 'mail to', 'located at', 'street'],
    columnHint: 'address|street|addr',
    needs: NEEDS_DIGIT | NEEDS_UPPER,
  }),
];
