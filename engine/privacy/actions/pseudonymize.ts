/**
 * pseudonymize: the same input always gets the same realistic fake of the same type within a project. Every random
 * choice comes from HMAC-SHA256(project secret, type + NUL + value) in counter mode, so the mapping is stable across
 * runs and machines but cannot be reversed or recomputed without the secret. Fakes keep the value's shape (its
 * separators, letter case, a kept prefix such as an IBAN's country or a VIN's manufacturer, the characters the format
 * fixes such as a GSTIN's 'Z') and, where the type has a check digit, are drawn until the recognizer accepts them: a
 * Luhn-valid card of the same brand, an IBAN with a valid mod-97 key.
 */
import { createHmac } from 'node:crypto';
import { lexicon } from '../lexicon';
import { base58CheckEncode, bech32Encode } from '../recognizers/crypto-wallets';
import { compact, type FakeDate } from '../recognizers/define';
import { recognizer } from '../recognizers';
import { cellConfidence } from '../detect-columns';
import { formatDate, parseDate, shiftDate } from './dates';

/** A deterministic stream of random numbers from HMAC(secret, seed) blocks. */
export class KeyedRandom {
  private block: Buffer = Buffer.alloc(0);
  private offset = 0;
  private counter = 0;

  constructor(
    private readonly secret: string | Buffer,
    private readonly seed: string,
  ) {}

  /** An integer in [0, n). */
  int(n: number): number {
    if (this.offset + 4 > this.block.length) {
      this.block = createHmac('sha256', this.secret).update(`${this.counter++}\u0000${this.seed}`).digest();
      this.offset = 0;
    }
    const x = this.block.readUInt32BE(this.offset);
    this.offset += 4;
    return x % n;
  }

  pick(items: readonly string[] | string): string {
    return items[this.int(items.length)];
  }
}

const capital = (w: string): string => w.replace(/(^|[\s\-'])([a-z])/g, (_m, a: string, b: string) => a + b.toUpperCase());

let lists: { first: string[]; last: string[]; places: string[] } | undefined;
/** Sorted name lists, so a secret maps a value to the same fake whatever the lexicon's insertion order. */
function nameLists(): { first: string[]; last: string[]; places: string[] } {
  if (!lists) {
    const lex = lexicon();
    const clean = (s: Set<string>): string[] => [...s].filter((w) => /^[a-z][a-z'-]{2,}$/.test(w)).sort();
    lists = {
      first: clean(lex.firstNames).map(capital),
      last: clean(lex.lastNames).map(capital),
      places: [...lex.places]
        .filter((w) => /^[a-z ]+$/.test(w))
        .sort()
        .map(capital),
    };
  }
  return lists;
}

const ORG_SUFFIXES = ['Holdings', 'Group', 'Partners', 'Industries', 'Labs', 'Logistics', 'Systems', 'Consulting'];
const STREETS = ['Street', 'Avenue', 'Road', 'Lane', 'Drive', 'Court', 'Place', 'Way'];
const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
];
const HEX = '0123456789abcdef';
const DIGITS = '0123456789';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';

/**
 * Replace every digit by a digit and every letter by a letter of the same case, after `keep` leading characters and
 * except at the positions in `keepAt` (indexes among the value's letters and digits, separators not counted).
 */
function reshape(value: string, keep: number, rng: KeyedRandom, hexLetters = false, digitsOnly = false, keepAt?: readonly number[]): string {
  let out = value.slice(0, keep);
  let alnum = 0;
  for (let i = 0; i < keep; i++) if (/[0-9A-Za-z]/.test(value[i])) alnum++;
  for (let i = keep; i < value.length; i++) {
    const ch = value[i];
    const isAlnum = /[0-9A-Za-z]/.test(ch);
    const fixed = isAlnum && keepAt !== undefined && keepAt.includes(alnum);
    if (isAlnum) alnum++;
    if (fixed) out += ch;
    else if (ch >= '0' && ch <= '9') out += rng.pick(DIGITS);
    else if (digitsOnly) out += ch;
    else if (ch >= 'A' && ch <= 'Z') out += hexLetters && ch <= 'F' ? rng.pick('ABCDEF') : rng.pick(UPPER);
    else if (ch >= 'a' && ch <= 'z') out += hexLetters && ch <= 'f' ? rng.pick('abcdef') : rng.pick(LOWER);
    else out += ch;
  }
  return out;
}

/** Write a random real birth date (1940-1999) over the identifier's date digits. */
function withDate(value: string, date: FakeDate, rng: KeyedRandom): string {
  const p = (n: number): string => String(n).padStart(2, '0');
  const y = 1940 + rng.int(60);
  const m = 1 + rng.int(12);
  const d = 1 + rng.int(28);
  const yy = p(y % 100);
  const digits = date.format === 'YYYYMMDD' ? `${y}${p(m)}${p(d)}` : date.format === 'YYMMDD' ? `${yy}${p(m)}${p(d)}` : date.format === 'DDMMYY' ? `${p(d)}${p(m)}${yy}` : `${yy}${p(m)}`;
  const chars = value.split('');
  let seen = 0;
  let k = 0;
  for (let i = 0; i < chars.length && k < digits.length; i++) {
    if (chars[i] < '0' || chars[i] > '9') continue;
    if (seen++ >= date.at) chars[i] = digits[k++];
  }
  return chars.join('');
}

/** A valid-looking Bitcoin address of the same kind: base58check P2PKH/P2SH or bech32 segwit. */
function fakeBtc(value: string, rng: KeyedRandom): string {
  if (value.toLowerCase().startsWith('bc1')) {
    const n = value.length - 4 - 6;
    return bech32Encode('bc', [0, ...Array.from({ length: n }, () => rng.int(32))]);
  }
  const payload = Buffer.alloc(21);
  payload[0] = value.startsWith('3') ? 5 : 0;
  for (let i = 1; i < 21; i++) payload[i] = rng.int(256);
  return base58CheckEncode(payload);
}

/** Draws of reshape() until the type's own recognizer accepts the fake as a whole cell (check digits included). */
function validFake(value: string, type: string, rng: KeyedRandom): string {
  const r = recognizer(type);
  const keep = Math.min(r?.fakeKeep ?? 0, value.length);
  const hex = type === 'mac_address' || type === 'ipv6_address' || type === 'eth_address' || type === 'unique_identifier';
  const draw = (): string => {
    const shaped = reshape(value, keep, rng, hex, r?.fakeDigitsOnly, r?.fakeKeepAt);
    return r?.fakeDate ? withDate(shaped, r.fakeDate, rng) : shaped;
  };
  let fake = draw();
  if (!r) return fake;
  // The fake must be as well supported as the original (a VIN with a valid check digit gets one too).
  const original = cellConfidence(r, value, false);
  for (let i = 0; original > 0 && i < 3000; i++) {
    if (fake !== value && cellConfidence(r, fake, false) >= original) return fake;
    fake = draw();
  }
  return fake;
}

function fakeName(value: string, rng: KeyedRandom): string {
  const { first, last } = nameLists();
  const tokens = value.trim().split(/\s+/);
  const title = /^(Dr|Mr|Mrs|Ms|Miss|Prof)\.?$/.test(tokens[0]) ? tokens[0] + ' ' : '';
  const words = tokens.length - (title ? 1 : 0);
  if (words <= 1) return title + (title ? rng.pick(last) : rng.pick(first));
  return `${title}${rng.pick(first)} ${rng.pick(last)}`;
}

const WORDY = new Set(['name', 'organization', 'location', 'address', 'email', 'url', 'domain_name', 'user_agent', 'username']);

/**
 * What makes two values "the same input": names and other words ignore case and spacing ("john  smith" is John
 * Smith), identifiers ignore their separators ("4111 1111 1111 1111" is 4111111111111111).
 */
export function pseudonymKey(value: string, type: string): string {
  return WORDY.has(type) ? value.trim().replace(/\s+/g, ' ').toLowerCase() : compact(value);
}

/** A fake of the value's type; unknown types keep their shape with other characters. */
export function pseudonymizeValue(value: string, type: string, secret: string | Buffer): string {
  if (!secret || secret.length === 0) throw new RangeError('pseudonymize needs the project secret');
  const rng = new KeyedRandom(secret, `${type}\u0000${pseudonymKey(value, type)}`);
  const names = (): { first: string[]; last: string[]; places: string[] } => nameLists();
  switch (type) {
    case 'name':
      return fakeName(value, rng);
    case 'email': {
      const { first, last } = names();
      return `${rng.pick(first).toLowerCase()}.${rng
        .pick(last)
        .toLowerCase()
        .replace(/[^a-z]/g, '')}${rng.int(100)}@${rng.pick(['example.com', 'example.org', 'example.net'])}`;
    }
    case 'organization':
      return `${rng.pick(names().last)} ${rng.pick(ORG_SUFFIXES)}`;
    case 'location':
      return rng.pick(names().places);
    case 'address':
      return `${1 + rng.int(9899)} ${rng.pick(names().last)} ${rng.pick(STREETS)}`;
    case 'date':
    case 'date_of_birth': {
      const d = parseDate(value);
      // A shift of 1..365 days either way keeps the fake a plausible date of the same era.
      return d ? formatDate(shiftDate(d, (1 + rng.int(365)) * (rng.int(2) ? 1 : -1))) : reshape(value, 0, rng);
    }
    case 'age': {
      const age = Number(value.trim());
      return Number.isFinite(age) ? String(Math.max(0, Math.floor(age / 10) * 10 + rng.int(10))) : reshape(value, 0, rng);
    }
    case 'ip_address':
      return `${1 + rng.int(223)}.${rng.int(256)}.${rng.int(256)}.${1 + rng.int(254)}`;
    case 'url':
      return `https://example.com/${Array.from({ length: 8 }, () => rng.pick(HEX)).join('')}`;
    case 'domain_name':
      return `${Array.from({ length: 8 }, () => rng.pick(LOWER)).join('')}.example`;
    case 'user_agent':
      return rng.pick(USER_AGENTS);
    case 'btc_address':
      return fakeBtc(value, rng);
    case 'username':
      return `user_${Array.from({ length: 6 }, () => rng.pick(HEX)).join('')}`;
    default:
      return validFake(value, type, rng);
  }
}
