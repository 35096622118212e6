/**
 * Check-digit algorithms of the identifiers the recognizers validate. Each takes the identifier's characters with
 * separators already removed and answers whether the check digit(s) hold: a pattern alone matches many numbers that
 * are not identifiers, a check digit cuts the false matches of an n-digit pattern to about 1 in 10 (or 97, 11, 23...).
 */

/** Digits of a string as numbers ('' for none); separators must be removed by the caller. */
function digitsOf(s: string): number[] {
  const out = new Array<number>(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) - 48;
  return out;
}

/** Luhn (mod 10) over all digits, the last one being the check digit: cards, IMEI, SIN, NPI, Swedish personnummer. */
export function luhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return digits.length > 1 && sum % 10 === 0;
}

/** The Luhn check digit that completes `payload`. */
export function luhnCheckDigit(payload: string): number {
  for (let c = 0; c < 10; c++) if (luhn(payload + c)) return c;
  return 0;
}

/** Weighted sum of the leading digits. */
export function weightedSum(digits: string, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += (digits.charCodeAt(i) - 48) * weights[i];
  return sum;
}

/** ISO 7064 mod 97-10 of a string whose letters count as 10..35 (IBAN after moving the country and check digits to the end). */
export function mod97(s: string): number {
  let rem = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) rem = (rem * 10 + (c - 48)) % 97;
    else if (c >= 65 && c <= 90) rem = (rem * 100 + (c - 55)) % 97;
    else return -1;
  }
  return rem;
}

/** IBAN: country, two check digits, BBAN; valid when mod 97 of the rearranged string is 1. */
export function ibanValid(iban: string): boolean {
  return mod97(iban.slice(4) + iban.slice(0, 4)) === 1;
}

const VERHOEFF_D = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
  [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
  [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
const VERHOEFF_P = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
  [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
  [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
  [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
  [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];

/** Verhoeff (Aadhaar): catches every single-digit error and every adjacent transposition. */
export function verhoeff(digits: string): boolean {
  let c = 0;
  const d = digitsOf(digits);
  for (let i = 0; i < d.length; i++) c = VERHOEFF_D[c][VERHOEFF_P[i % 8][d[d.length - 1 - i]]];
  return c === 0;
}

/** ISO 7064 mod 11,10 (German Steuer-IdNr). */
export function iso7064Mod11_10(digits: string): boolean {
  let product = 10;
  for (let i = 0; i < digits.length - 1; i++) {
    let sum = (digits.charCodeAt(i) - 48 + product) % 10;
    if (sum === 0) sum = 10;
    product = (sum * 2) % 11;
  }
  let check = 11 - product;
  if (check === 10) check = 0;
  return check === digits.charCodeAt(digits.length - 1) - 48;
}

/** ISO 7064 mod 11-2 (Chinese resident identity card; check character 0-9 or X). */
export function iso7064Mod11_2(id: string): boolean {
  let sum = 0;
  for (let i = 0; i < id.length - 1; i++) sum = ((sum + (id.charCodeAt(i) - 48)) * 2) % 11;
  const check = (12 - (sum % 11)) % 11;
  const last = id[id.length - 1];
  return check === 10 ? last === 'X' || last === 'x' : check === last.charCodeAt(0) - 48;
}

/** Brazilian CPF: two mod-11 check digits. Sequences of one repeated digit pass the arithmetic but are invalid. */
export function cpfValid(cpf: string): boolean {
  if (cpf.length !== 11 || /^(\d)\1{10}$/.test(cpf)) return false;
  for (let n = 9; n <= 10; n++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += (cpf.charCodeAt(i) - 48) * (n + 1 - i);
    const check = ((sum * 10) % 11) % 10;
    if (check !== cpf.charCodeAt(n) - 48) return false;
  }
  return true;
}

/** Brazilian CNPJ: two mod-11 check digits with weights 5..2,9..2. */
export function cnpjValid(cnpj: string): boolean {
  if (cnpj.length !== 14 || /^(\d)\1{13}$/.test(cnpj)) return false;
  const w1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
  const w2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
  const d1 = weightedSum(cnpj, w1) % 11;
  const c1 = d1 < 2 ? 0 : 11 - d1;
  const d2 = weightedSum(cnpj, w2) % 11;
  const c2 = d2 < 2 ? 0 : 11 - d2;
  return c1 === cnpj.charCodeAt(12) - 48 && c2 === cnpj.charCodeAt(13) - 48;
}

/** UK NHS number: weights 10..2, check = 11 - sum mod 11 (11 → 0, 10 → invalid). */
export function nhsValid(nhs: string): boolean {
  const sum = weightedSum(nhs, [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  let check = 11 - (sum % 11);
  if (check === 11) check = 0;
  return check !== 10 && check === nhs.charCodeAt(9) - 48;
}

/** Australian TFN (9 digits): weighted sum divisible by 11. */
export function tfnValid(tfn: string): boolean {
  return tfn.length === 9 && weightedSum(tfn, [1, 4, 3, 7, 5, 8, 6, 9, 10]) % 11 === 0;
}

/** Australian Medicare card (10 or 11 digits): first digit 2-6, weighted check digit at position 9. */
export function medicareValid(m: string): boolean {
  const first = m.charCodeAt(0) - 48;
  return first >= 2 && first <= 6 && weightedSum(m, [1, 3, 7, 9, 1, 3, 7, 9]) % 10 === m.charCodeAt(8) - 48;
}

/** Australian ABN (11 digits): subtract 1 from the first digit, weighted sum divisible by 89. */
export function abnValid(abn: string): boolean {
  const w = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  let sum = 0;
  for (let i = 0; i < 11; i++) sum += (abn.charCodeAt(i) - 48 - (i === 0 ? 1 : 0)) * w[i];
  return sum % 89 === 0;
}

/** ABA routing number: weights 3,7,1 repeated, sum divisible by 10; the first two digits name a Federal Reserve range. */
export function abaValid(aba: string): boolean {
  const prefix = Number(aba.slice(0, 2));
  const inRange = prefix <= 12 || (prefix >= 21 && prefix <= 32) || (prefix >= 61 && prefix <= 72) || prefix === 80;
  return inRange && weightedSum(aba, [3, 7, 1, 3, 7, 1, 3, 7, 1]) % 10 === 0;
}

/** Singapore NRIC/FIN: S/T/F/G/M + 7 digits + check letter. */
export function nricValid(nric: string): boolean {
  const id = nric.toUpperCase();
  const prefix = id[0];
  let sum = weightedSum(id.slice(1, 8), [2, 7, 6, 5, 4, 3, 2]);
  if (prefix === 'T' || prefix === 'G') sum += 4;
  if (prefix === 'M') sum += 3;
  const r = sum % 11;
  const table = prefix === 'S' || prefix === 'T' ? 'JZIHGFEDCBA' : prefix === 'M' ? 'KLJNPQRTUWX' : 'XWUTRQPNMLK';
  return table[prefix === 'M' ? 10 - r : r] === id[8];
}

const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

/** Spanish DNI: 8 digits + the letter of their value mod 23. */
export function dniValid(dni: string): boolean {
  const id = dni.toUpperCase();
  return DNI_LETTERS[Number(id.slice(0, 8)) % 23] === id[8];
}

/** Spanish NIE: X/Y/Z (as 0/1/2) + 7 digits + the DNI letter of that number. */
export function nieValid(nie: string): boolean {
  const id = nie.toUpperCase();
  const lead = 'XYZ'.indexOf(id[0]);
  return lead >= 0 && DNI_LETTERS[Number(lead + id.slice(1, 8)) % 23] === id[8];
}

const CF_ODD: Record<string, number> = {};
{
  const odd = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];
  for (let i = 0; i < 26; i++) CF_ODD[String.fromCharCode(65 + i)] = odd[i];
  for (let i = 0; i < 10; i++) CF_ODD[String(i)] = odd[i];
}

/** Italian codice fiscale: 15 characters then a check letter from odd/even position tables. */
export function codiceFiscaleValid(cf: string): boolean {
  const id = cf.toUpperCase();
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const ch = id[i];
    if (i % 2 === 0) sum += CF_ODD[ch] ?? 0;
    else sum += ch >= '0' && ch <= '9' ? ch.charCodeAt(0) - 48 : ch.charCodeAt(0) - 65;
  }
  return String.fromCharCode(65 + (sum % 26)) === id[15];
}

/** French INSEE/NIR: 13 digits (Corsica's 2A/2B as 19/18 less) + key = 97 - (number mod 97). */
export function inseeValid(nir: string): boolean {
  const body = nir.slice(0, 13).toUpperCase();
  let n = body.replace('2A', '19').replace('2B', '18');
  if (body.includes('2A')) n = String(BigInt(n) - 1000000n);
  else if (body.includes('2B')) n = String(BigInt(n) - 2000000n);
  return 97 - Number(BigInt(n) % 97n) === Number(nir.slice(13));
}

/** Dutch BSN: 11-proof with weights 9..2 and -1. */
export function bsnValid(bsn: string): boolean {
  const sum = weightedSum(bsn, [9, 8, 7, 6, 5, 4, 3, 2, -1]);
  return sum % 11 === 0 && sum !== 0;
}

/** Polish PESEL: weights 1,3,7,9 repeated; check = (10 - sum mod 10) mod 10. */
export function peselValid(p: string): boolean {
  return (10 - (weightedSum(p, [1, 3, 7, 9, 1, 3, 7, 9, 1, 3]) % 10)) % 10 === p.charCodeAt(10) - 48;
}

/** Finnish HETU: DDMMYY, century sign, 3-digit individual number, check character of the 9 digits mod 31. */
export function hetuValid(h: string): boolean {
  const n = Number(h.slice(0, 6) + h.slice(7, 10));
  return '0123456789ABCDEFHJKLMNPRSTUVWXY'[n % 31] === h[10].toUpperCase();
}

/** Norwegian fødselsnummer: two mod-11 check digits. */
export function fnrValid(f: string): boolean {
  const k1 = 11 - (weightedSum(f, [3, 7, 6, 1, 8, 9, 4, 5, 2]) % 11);
  const k2 = 11 - (weightedSum(f, [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) % 11);
  const c1 = k1 === 11 ? 0 : k1;
  const c2 = k2 === 11 ? 0 : k2;
  return c1 !== 10 && c2 !== 10 && c1 === f.charCodeAt(9) - 48 && c2 === f.charCodeAt(10) - 48;
}

/** Belgian national register number: 97 - (first 9 digits mod 97), with '2' prefixed for people born from 2000. */
export function belgianNnValid(n: string): boolean {
  const check = Number(n.slice(9));
  const body = n.slice(0, 9);
  return 97 - (Number(body) % 97) === check || 97 - (Number('2' + body) % 97) === check;
}

/** Irish PPS: 7 digits, a check letter (weights 8..2, plus 9 × a second letter's value), mod 23. */
export function ppsValid(p: string): boolean {
  const id = p.toUpperCase();
  let sum = weightedSum(id, [8, 7, 6, 5, 4, 3, 2]);
  if (id.length === 9 && id[8] !== 'W') sum += (id.charCodeAt(8) - 64) * 9;
  return 'WABCDEFGHIJKLMNOPQRSTUV'[sum % 23] === id[7];
}

/** EAN-13 style check digit (weights 1,3) over 13 digits: Swiss AHV/AVS numbers. */
export function ean13Valid(d: string): boolean {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (d.charCodeAt(i) - 48) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10 === d.charCodeAt(12) - 48;
}

/** South African ID: Luhn over 13 digits, the first six a YYMMDD date. */
export function zaIdValid(d: string): boolean {
  const mm = Number(d.slice(2, 4));
  const dd = Number(d.slice(4, 6));
  return mm >= 1 && mm <= 12 && dd >= 1 && dd <= 31 && luhn(d);
}

/** Korean resident registration number: weights 2..9,2..5, check = (11 - sum mod 11) mod 10. */
export function rrnValid(d: string): boolean {
  const sum = weightedSum(d, [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5]);
  return (11 - (sum % 11)) % 10 === d.charCodeAt(12) - 48;
}

/** Japanese My Number (12 digits): weights 6..2,7..2 from the left over the 11-digit payload. */
export function myNumberValid(d: string): boolean {
  let sum = 0;
  for (let n = 1; n <= 11; n++) sum += (d.charCodeAt(11 - n) - 48) * (n <= 6 ? n + 1 : n - 5);
  const r = sum % 11;
  return (r <= 1 ? 0 : 11 - r) === d.charCodeAt(11) - 48;
}

/** Mexican CURP: 17 characters then a check digit, characters valued in '0-9A-NÑO-Z' order. */
export function curpValid(c: string): boolean {
  const alphabet = '0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ';
  const id = c.toUpperCase();
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += alphabet.indexOf(id[i]) * (18 - i);
  return (10 - (sum % 10)) % 10 === id.charCodeAt(17) - 48;
}

/** India GSTIN: 14 characters then a mod-36 check character (Luhn mod N over base 36). */
export function gstinValid(g: string): boolean {
  const chars = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const id = g.toUpperCase();
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    const p = chars.indexOf(id[i]) * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(p / 36) + (p % 36);
  }
  return chars[(36 - (sum % 36)) % 36] === id[14];
}

/** DEA registration number: 2 letters + 7 digits; (d1+d3+d5) + 2(d2+d4+d6) ends in d7. */
export function deaValid(dea: string): boolean {
  const d = dea.slice(2);
  const sum = weightedSum(d, [1, 2, 1, 2, 1, 2]);
  return sum % 10 === d.charCodeAt(6) - 48;
}

/** US NPI: Luhn over '80840' + the 10 digits. */
export function npiValid(npi: string): boolean {
  return luhn('80840' + npi);
}

const VIN_VALUES: Record<string, number> = {};
{
  const map = 'A1B2C3D4E5F6G7H8J1K2L3M4N5P7R9S2T3U4V5W6X7Y8Z9';
  for (let i = 0; i < map.length; i += 2) VIN_VALUES[map[i]] = Number(map[i + 1]);
  for (let i = 0; i < 10; i++) VIN_VALUES[String(i)] = i;
}

/** VIN (North American check digit in position 9: weighted sum mod 11, 10 written X). */
export function vinValid(vin: string): boolean {
  const id = vin.toUpperCase();
  const w = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const v = VIN_VALUES[id[i]];
    if (v === undefined) return false;
    sum += v * w[i];
  }
  const r = sum % 11;
  return (r === 10 ? 'X' : String(r)) === id[8];
}

/** Canadian SIN: Luhn over 9 digits; 8 starts business numbers, not people (0 is unassigned but used in examples). */
export function sinValid(sin: string): boolean {
  return sin[0] !== '8' && luhn(sin);
}

/** Swedish personnummer (10 digits YYMMDDNNNC): Luhn over the 10 digits. */
export function personnummerValid(p: string): boolean {
  return luhn(p.length === 12 ? p.slice(2) : p);
}

/** German Personalausweis serial (9 chars + check digit): weights 7,3,1 over the ICAO character values. */
export function icaoCheck(s: string): number {
  const w = [7, 3, 1];
  let sum = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const v = c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 90 ? c - 55 : 0;
    sum += v * w[i % 3];
  }
  return sum % 10;
}
