/** Email addresses, phone and fax numbers (libphonenumber-js with its full metadata, every region, extensions). */
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { define, NEEDS_AT, NEEDS_DIGIT, wordsRegex, type RawMatch, type Recognizer } from './define';

/** Countries whose national formats are tried, in order, for numbers written without a + prefix. */
const PHONE_REGIONS: CountryCode[] = ['US', 'GB', 'DE', 'FR', 'IN'];
/**
 * National formats tried when words near the number say it is a phone ("call", "tel", "móvil"): the most populous
 * countries and those whose formats people write in English text. Each is libphonenumber's own metadata.
 */
const CONTEXT_REGIONS: CountryCode[] = [
  ...PHONE_REGIONS,
  ...((
    'CA AU NZ IE ES PT IT NL BE LU CH AT PL CZ SK HU RO BG GR HR SI RS SE NO DK FI IS EE LV LT UA RU TR IL AE SA QA EG MA ' +
    'ZA NG KE GH PK BD LK CN HK TW JP KR VN TH MY SG ID PH MX BR AR CL CO PE VE EC UY'
  ).split(' ') as CountryCode[]),
];
/** Extensions people write after a number: "x4587", "ext. 12", "extension 3", "#22", "poste 12", "Durchwahl 5". */
const EXTENSION = '(?:\\s*,?\\s*(?:x|ext\\.?|extn\\.?|extension|#|poste|Durchwahl|DW|ramal|interno|int\\.?|wew\\.?|доб\\.?)\\s*\\d{1,6})?';
/**
 * Digit groups that may be a phone number; libphonenumber then decides on each (its own text scanner is ~10x slower).
 * Not inside a bracket ("(555) 123-4567" is read from its bracket on): BRACKETED_PHONE reads a bracket that is all
 * number; a number whose area code opens a bracket may stand in another ("Jack Cruz ((986) 298-8262 x987)").
 */
const PHONE_CANDIDATE = new RegExp(
  `(?<![\\w+\\-./])(?:(?<!\\()|(?=\\())(?:(?:\\+|00)\\d{1,3}[\\s.-]?(?:\\(0\\)[\\s.-]?)?|\\(\\+\\d{1,3}\\)[\\s.-]?|\\+\\(\\d{1,3}\\)[\\s.-]?|1[\\s.-](?=\\(\\d{3}\\)))?(?:\\(\\d{1,5}\\)[\\s.-]?)?\\d{1,5}(?:[\\s.-]?\\d{1,5}){1,5}(?!(?!x\\d|ext)[\\w@]|[-./]\\d)${EXTENSION}(?![\\w@]|[-./]\\d)`,
  'gi',
);
/** A number that fills a bracket after a name: "Jean Muller (0144066826)", "(+441144960250)". */
const BRACKETED_PHONE = /(?<=\()\+?\d[\d\s.-]{5,}\d(?:\s*x\d{1,6})?(?=\))/g;

/** Words that make a number near them a phone number (the recognizer's context). */
const PHONE_WORDS = [
  'phone',
  'tel',
  'telephone',
  'call',
  'mobile',
  'cell',
  'contact',
  'reach',
  'reached',
  'ring',
  'rang',
  'calling',
  'called',
  'phoned',
  'text',
  'whatsapp',
  'sms',
  'message',
  'messaged',
  'voicemail',
  'caller',
  'callback',
  'call back',
  'ask for',
  'ph',
  'landline',
  'hotline',
  'helpdesk',
  'telefon',
  'telefonu',
  'telefone',
  'teléfono',
  'telefono',
  'téléphone',
  'tél',
  'móvil',
  'movil',
  'celular',
  'cellulare',
  'handy',
  'portable',
  'komórka',
];
/** Words before a number that make libphonenumber try the national formats of many more countries. */
const PHONE_CUE = wordsRegex([...PHONE_WORDS, 'dial', 'dialled', 'dialed', 'fax']);

function digitsOf(s: string): number {
  let digits = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) digits++;
  }
  return digits;
}

/**
 * A phone number's score: +international (or 00) is surest, a valid US number next, another country's national
 * format least; near words that say "phone", the national formats of many more countries.
 */
function phoneScore(candidate: string, cued: boolean): number {
  const ext = /(?:x|ext|extn|extension|#|poste|durchwahl|dw|ramal|interno|int|wew|доб)\.?\s*\d{1,6}$/i.exec(candidate);
  const number = ext ? candidate.slice(0, ext.index).replace(/[\s,]+$/, '') : candidate;
  const digits = digitsOf(number);
  if (digits < 7 || digits > 15) return 0;
  const withExt = (n: string): string => (ext ? `${n} ext. ${ext[0].replace(/\D/g, '')}` : n);
  // A country code in brackets ("(+57) 329 059 54 26") is the + form.
  if (number.startsWith('(+')) return phoneScore(number.replace(/^\((\+\d{1,3})\)/, '$1 ') + (ext ? ` ${ext[0]}` : ''), cued);
  // And so is one after the plus ("+(371) 24165851").
  if (number.startsWith('+(')) return phoneScore(number.replace(/^\+\((\d{1,3})\)/, '+$1 ') + (ext ? ` ${ext[0]}` : ''), cued);
  if (number[0] === '+' || number.startsWith('00')) {
    const intl = number[0] === '+' ? number : '+' + number.slice(2);
    const p = parsePhoneNumberFromString(withExt(intl.replace('(0)', '')));
    if (p?.isValid()) return 0.85;
    // A country code and digit groups ("+54 9 3749 2056") is written as a phone number even where the country's plan
    // assigns no number of that length.
    if (!p?.isPossible()) return phoneShaped(number) ? SHAPED : 0;
    // A plus, a country code and a possible length is written as a phone number, grouped or not ("+49(0)7284022030").
    return cued ? 0.6 : SHAPED;
  }
  const shaped = digits >= 9 && digits <= 12 && phoneShaped(number) ? SHAPED : 0;
  for (let i = 0; i < PHONE_REGIONS.length; i++) if (parsePhoneNumberFromString(number, PHONE_REGIONS[i])?.isValid()) return i === 0 ? 0.75 : Math.max(0.45, shaped);
  if (!cued) return shaped;
  for (let i = PHONE_REGIONS.length; i < CONTEXT_REGIONS.length; i++) if (parsePhoneNumberFromString(number, CONTEXT_REGIONS[i])?.isValid()) return 0.45;
  // A number of a valid length for the US with an extension or in a (area) format, near words that say phone.
  if (parsePhoneNumberFromString(number, 'US')?.isPossible() && (ext || /^\(\d{3}\)/.test(number))) return 0.45;
  // Any other number written as phone numbers are, near those words: the words raise it (callback 01915727422).
  return phoneLike(number) ? UNPLANNED : 0;
}

/** A number no plan knows, written as phone numbers are; below the threshold until words or its field say phone. */
const UNPLANNED = 0.3;
/** A phone-like number alone in a field of a record ("KAI KRUNS - 0611 004841 - Oentsjerk", "…, 371122671"). */
const FIELDED = 0.6;

/** Digits in groups of two or more, with a phone's punctuation only; not a date, a quantity or an amount. */
function phoneLike(number: string): boolean {
  const n = number.replace(/^(?:\+|00)\d{1,3}[\s.-]?/, '');
  if (DATE_SHAPE.test(n) || QUANTITY_SHAPE.test(n) || /^\d+\.\d{1,2}$/.test(n)) return false;
  // A trunk or country digit may stand alone first ("1 (799) 158-9300").
  return n.split(/[\s.\-()]+/).every((g, i) => g === '' || /^\d{2,}$/.test(g) || (i === 0 && /^\d$/.test(g)));
}

/** Whether a number fills a field alone: a bar, a spaced dash, a line or a comma before it, and the field's end after it. */
function fieldAlone(text: string, start: number, end: number): boolean {
  const before = text.slice(Math.max(0, start - 4), start);
  const after = text.slice(end, end + 4);
  return (start === 0 || /(?:\s[-–—|][^\S\n]*|\n[^\S\n]*|,[^\S\n]*)$/.test(before)) && /^(?:[^\S\n]*(?:$|\n)|[^\S\n]+[-–—|][^\S\n]|\.[^\S\n]*$)/.test(after);
}

/**
 * What a number written the way people write phone numbers scores when no numbering plan knows it: above the default
 * threshold, below any validated identifier (an SSN, a card) written in the same shape. Generators and typos make
 * numbers no country assigned; a redaction must still take them.
 */
const SHAPED = 0.55;
const DATE_SHAPE = /^(?:\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{2,4})$/;
/** A quantity with thousands separators: "1 234 567", "2.500.000". */
const QUANTITY_SHAPE = /^\d{1,3}(?:[ .]\d{3})+$/;

/**
 * Written like a phone number: an area code in brackets ("(08692) 629693", "(988)348-1843"), three or more digit groups
 * ("02 53 27 91 71", "926.189.7962", "+61 442 116 047"), or a trunk 0 and two groups ("01785 578150"); never a date or
 * a quantity.
 */
function phoneShaped(number: string): boolean {
  const n = number.replace(/^(?:\+|00)\d{1,3}[\s.-]?(?:\(0\)[\s.-]?)?/, '');
  if (DATE_SHAPE.test(n) || (QUANTITY_SHAPE.test(n) && !/^\d{3}/.test(n))) return false;
  if (/^\(\d{2,5}\)/.test(n)) return true;
  const groups = n.split(/[\s.-]+/).filter((g) => g.length > 0);
  // A trunk or country digit before three groups ("1-800-555-0199"), a mobile prefix after a country code ("+54 9
  // 3749 2056").
  if (/^\d$/.test(groups[0]) && (groups.length >= 4 || (n !== number && groups.length >= 3))) groups.shift();
  if (groups.some((g) => !/^\d{2,5}$/.test(g))) return false;
  return groups.length >= 3 || (groups.length === 2 && n[0] === '0') || (groups.length >= 2 && n !== number);
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
    const raw = m[0];
    const cued = PHONE_CUE.test(text.slice(Math.max(0, m.index - 40), m.index).toLowerCase());
    const score = phoneScore(raw, cued);
    const end = m.index + raw.length;
    if (score < FIELDED && digitsOf(raw) >= 8 && phoneLike(raw) && fieldAlone(text, m.index, end)) out.push({ start: m.index, end, score: FIELDED, evidence: ['phone_field'] });
    else if (score > 0) out.push({ start: m.index, end, score, evidence: ['libphonenumber'] });
  }
  if (text.includes('(')) {
    BRACKETED_PHONE.lastIndex = 0;
    while ((m = BRACKETED_PHONE.exec(text)) !== null) {
      const at = m.index;
      if (out.some((o) => o.start === at)) continue;
      const cued = PHONE_CUE.test(text.slice(Math.max(0, at - 40), at).toLowerCase());
      const score = phoneScore(m[0], cued);
      if (score > 0) out.push({ start: at, end: at + m[0].length, score, evidence: ['libphonenumber'] });
    }
  }
  memoText = text;
  memo = out;
  return out;
}

const PHONE_CELL = /^[+(]?\d[\d\s().\-/]{5,20}\d(?:\s*(?:x|ext\.?|extension)\s*\d{1,6})?$/i;

function phoneCell(value: string): RawMatch | null {
  const v = value.trim();
  if (!PHONE_CELL.test(v)) return null;
  const score = phoneScore(v, false);
  return score > 0 ? { start: 0, end: value.length, score, evidence: ['libphonenumber'] } : null;
}

export const CONTACT_RECOGNIZERS: Recognizer[] = [
  define({
    id: 'email',
    name: 'Email address',
    category: 'contact',
    // An apostrophe may sit inside a local part (o'brien@...), not open it: "'neft_ops@kmb.com'" is quoted.
    pattern: "(?<![\\w.%+\\-])[A-Za-z0-9_%+\\-][A-Za-z0-9._%+'\\-]*@[A-Za-z0-9\\-]+(?:\\.[A-Za-z0-9\\-]+)*\\.[A-Za-z]{2,24}(?![\\w\\-])",
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
    context: PHONE_WORDS,
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
];
