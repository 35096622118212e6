/** Cryptocurrency wallet addresses: Bitcoin (base58check or bech32/bech32m checksums) and Ethereum. */
import { createHash } from 'node:crypto';
import { define, NEEDS_DIGIT, type Recognizer } from './define';

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Base58check: the last 4 bytes are the first 4 of the double SHA-256 of the rest. */
export function base58CheckValid(s: string): boolean {
  let n = 0n;
  for (const ch of s) {
    const v = B58.indexOf(ch);
    if (v < 0) return false;
    n = n * 58n + BigInt(v);
  }
  let hex = n.toString(16);
  if (hex.length % 2) hex = '0' + hex;
  let zeros = 0;
  while (s[zeros] === '1') zeros++;
  const bytes = Buffer.concat([Buffer.alloc(zeros), Buffer.from(hex, 'hex')]);
  if (bytes.length !== 25) return false;
  const body = bytes.subarray(0, 21);
  const check = createHash('sha256').update(createHash('sha256').update(body).digest()).digest();
  return check.subarray(0, 4).equals(bytes.subarray(21));
}

const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const GEN = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];

function polymod(hrp: string, data: readonly number[]): number {
  const values: number[] = [];
  for (let i = 0; i < hrp.length; i++) values.push(hrp.charCodeAt(i) >> 5);
  values.push(0);
  for (let i = 0; i < hrp.length; i++) values.push(hrp.charCodeAt(i) & 31);
  values.push(...data);
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = (((chk & 0x1ffffff) << 5) ^ v) >>> 0;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk = (chk ^ GEN[i]) >>> 0;
  }
  return chk;
}

/** Bech32 (BIP 173, constant 1) or bech32m (BIP 350, constant 0x2bc830a3) over the `bc` human-readable part. */
export function bech32Valid(addr: string): boolean {
  const s = addr.toLowerCase();
  const sep = s.lastIndexOf('1');
  const data: number[] = [];
  for (const ch of s.slice(sep + 1)) {
    const v = BECH32.indexOf(ch);
    if (v < 0) return false;
    data.push(v);
  }
  const chk = polymod(s.slice(0, sep), data);
  return chk === 1 || chk === 0x2bc830a3;
}

/** A bech32 address of 5-bit data values (checksum appended), for pseudonyms. */
export function bech32Encode(hrp: string, data: readonly number[]): string {
  const mod = polymod(hrp, [...data, 0, 0, 0, 0, 0, 0]) ^ 1;
  const check = [0, 1, 2, 3, 4, 5].map((i) => (mod >>> (5 * (5 - i))) & 31);
  return hrp + '1' + [...data, ...check].map((v) => BECH32[v]).join('');
}

/** A base58check string of a payload (version byte included), for pseudonyms. */
export function base58CheckEncode(payload: Buffer): string {
  const check = createHash('sha256').update(createHash('sha256').update(payload).digest()).digest().subarray(0, 4);
  const bytes = Buffer.concat([payload, check]);
  let n = BigInt('0x' + bytes.toString('hex'));
  let out = '';
  while (n > 0n) {
    out = B58[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (let i = 0; i < bytes.length && bytes[i] === 0; i++) out = '1' + out;
  return out;
}

export const CRYPTO_RECOGNIZERS: Recognizer[] = [
  define({
    id: 'btc_address',
    name: 'Bitcoin wallet address',
    category: 'crypto',
    pattern: 'bc1[ac-hj-np-z02-9]{11,71}|[13][a-km-zA-HJ-NP-Z1-9]{25,34}',
    validate: (_d, raw) => (raw.startsWith('bc1') ? bech32Valid(raw) : base58CheckValid(raw)),
    score: 0.97,
    context: ['bitcoin', 'btc', 'wallet', 'address', 'crypto'],
    columnHint: 'btc|bitcoin|wallet',
    needs: NEEDS_DIGIT,
  }),
  define({
    id: 'eth_address',
    name: 'Ethereum wallet address',
    category: 'crypto',
    pattern: '0x[0-9a-fA-F]{40}',
    // The EIP-55 mixed-case checksum needs Keccak-256, which node:crypto lacks: the 0x + 40 hex format is the evidence.
    evidence: 'format',
    score: 0.85,
    contextScore: 0.97,
    context: ['ethereum', 'eth', 'wallet', 'address', 'erc20', 'metamask'],
    columnHint: 'eth|wallet',
    needs: NEEDS_DIGIT,
  }),
];
