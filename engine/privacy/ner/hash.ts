/**
 * The two hash functions the spaCy model's inputs go through, bit for bit: spaCy's string ids (MurmurHash64A of the
 * UTF-8 bytes, seed 1) and thinc's HashEmbed bucket keys (MurmurHash3 x86_128 of one uint64 id with the layer's
 * seed). JavaScript has no uint64 arithmetic short of BigInt, which is ~20x slower here, so 64-bit values travel as
 * two uint32 halves and products are built from 16-bit limbs.
 */

/** A 64-bit result as its two uint32 halves (returned through module state to avoid allocating per call). */
let rHi = 0;
let rLo = 0;

/** (aHi:aLo) × (bHi:bLo) mod 2^64 into rHi:rLo. */
function mul64(aHi: number, aLo: number, bHi: number, bLo: number): void {
  const a0 = aLo & 0xffff;
  const a1 = aLo >>> 16;
  const b0 = bLo & 0xffff;
  const b1 = bLo >>> 16;
  const mid = a0 * b1 + a1 * b0;
  // Below 2^34: exact in a double, as are all the sums here.
  const low = a0 * b0 + (mid % 0x10000) * 0x10000;
  rLo = low >>> 0;
  const carry = Math.floor(low / 0x100000000);
  rHi = (a1 * b1 + Math.floor(mid / 0x10000) + carry + Math.imul(aHi, bLo) + Math.imul(aLo, bHi)) >>> 0;
}

/** (aHi:aLo) + (bHi:bLo) mod 2^64 into rHi:rLo. */
function add64(aHi: number, aLo: number, bHi: number, bLo: number): void {
  const lo = aLo + bLo;
  rLo = lo >>> 0;
  rHi = (aHi + bHi + (lo > 0xffffffff ? 1 : 0)) >>> 0;
}

const M_HI = 0xc6a4a793;
const M_LO = 0x5bd1e995;

/** x ^= x >> 47 on a 64-bit value. */
function xorShift47(hi: number, lo: number): void {
  rLo = (lo ^ (hi >>> 15)) >>> 0;
  rHi = hi;
}

/** MurmurHash64A (Austin Appleby) of bytes[0..len), as spaCy's `hash_string` uses with seed 1. */
export function murmurHash64A(bytes: Uint8Array, len: number, seedLo: number): { hi: number; lo: number } {
  // h = seed ^ (len * m)
  mul64(0, len, M_HI, M_LO);
  let hHi = rHi >>> 0;
  let hLo = (rLo ^ seedLo) >>> 0;
  const blocks = len >>> 3;
  for (let b = 0; b < blocks; b++) {
    const o = b * 8;
    const kLo = (bytes[o] | (bytes[o + 1] << 8) | (bytes[o + 2] << 16) | (bytes[o + 3] << 24)) >>> 0;
    const kHi = (bytes[o + 4] | (bytes[o + 5] << 8) | (bytes[o + 6] << 16) | (bytes[o + 7] << 24)) >>> 0;
    mul64(kHi, kLo, M_HI, M_LO);
    xorShift47(rHi, rLo);
    mul64(rHi, rLo, M_HI, M_LO);
    hHi = (hHi ^ rHi) >>> 0;
    hLo = (hLo ^ rLo) >>> 0;
    mul64(hHi, hLo, M_HI, M_LO);
    hHi = rHi;
    hLo = rLo;
  }
  const rest = len & 7;
  if (rest > 0) {
    const o = blocks * 8;
    let tLo = 0;
    let tHi = 0;
    for (let i = rest - 1; i >= 0; i--) {
      if (i >= 4) tHi |= bytes[o + i] << ((i - 4) * 8);
      else tLo |= bytes[o + i] << (i * 8);
    }
    hHi = (hHi ^ tHi) >>> 0;
    hLo = (hLo ^ tLo) >>> 0;
    mul64(hHi, hLo, M_HI, M_LO);
    hHi = rHi;
    hLo = rLo;
  }
  xorShift47(hHi, hLo);
  mul64(rHi, rLo, M_HI, M_LO);
  xorShift47(rHi, rLo);
  return { hi: rHi, lo: rLo };
}

/** fmix64 of MurmurHash3 on rHi:rLo in place. */
function fmix64(hi: number, lo: number): void {
  // k ^= k >> 33; k *= 0xff51afd7ed558ccd; k ^= k >> 33; k *= 0xc4ceb9fe1a85ec53; k ^= k >> 33
  lo = (lo ^ (hi >>> 1)) >>> 0;
  mul64(hi, lo, 0xff51afd7, 0xed558ccd);
  hi = rHi;
  lo = (rLo ^ (rHi >>> 1)) >>> 0;
  mul64(hi, lo, 0xc4ceb9fe, 0x1a85ec53);
  rLo = (rLo ^ (rHi >>> 1)) >>> 0;
}

/**
 * thinc's `MurmurHash3_x86_128_uint64(val, seed)` (numpy_ops.pyx): despite its name a 64-bit mix of one key into
 * four uint32 words, which HashEmbed takes modulo its row count as the four rows it sums.
 */
export function hashIdWithSeed(valHi: number, valLo: number, seed: number, out: Uint32Array, at: number): void {
  // h1 = val * c1; h1 = rotl64(h1, 31); h1 *= c2
  mul64(valHi, valLo, 0x87c37b91, 0x114253d5);
  const rotHi = ((rHi << 31) | (rLo >>> 1)) >>> 0;
  const rotLo = ((rLo << 31) | (rHi >>> 1)) >>> 0;
  mul64(rotHi, rotLo, 0x4cf5ad43, 0x2745937f);
  // h1 ^= seed; h1 ^= 8; h2 = seed ^ 8
  let h1Hi = rHi;
  let h1Lo = (rLo ^ seed ^ 8) >>> 0;
  let h2Hi = 0;
  let h2Lo = (seed ^ 8) >>> 0;
  add64(h1Hi, h1Lo, h2Hi, h2Lo);
  h1Hi = rHi;
  h1Lo = rLo;
  add64(h2Hi, h2Lo, h1Hi, h1Lo);
  h2Hi = rHi;
  h2Lo = rLo;
  fmix64(h1Hi, h1Lo);
  h1Hi = rHi;
  h1Lo = rLo;
  fmix64(h2Hi, h2Lo);
  h2Hi = rHi;
  h2Lo = rLo;
  add64(h1Hi, h1Lo, h2Hi, h2Lo);
  h1Hi = rHi;
  h1Lo = rLo;
  add64(h2Hi, h2Lo, h1Hi, h1Lo);
  out[at] = h1Lo;
  out[at + 1] = h1Hi;
  out[at + 2] = rLo;
  out[at + 3] = rHi;
}

const encoder = new TextEncoder();
let scratch = new Uint8Array(256);

/** spaCy's `hash_string`: MurmurHash64A of the string's UTF-8 bytes with seed 1. */
export function hashString(s: string): { hi: number; lo: number } {
  if (scratch.length < s.length * 3) scratch = new Uint8Array(s.length * 3);
  const { written } = encoder.encodeInto(s, scratch);
  return murmurHash64A(scratch, written, 1);
}
