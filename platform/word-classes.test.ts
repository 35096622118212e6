/** The setup's reading of spaCy's `key2row` (a msgpack map of uint64 string hashes to vector rows). */
import { hashString } from '../engine/privacy';
import { readKey2Row } from './word-classes';

/** srsly's bytes of a uint64 → row map: map32, keys as uint64 (0xcf) or a positive fixint, rows in the smallest uint. */
function msgpackMap(entries: [bigint, number][]): Buffer {
  const parts: Buffer[] = [Buffer.from([0xdf, 0, 0, 0, entries.length])];
  for (const [k, row] of entries) {
    if (k < 128n) parts.push(Buffer.from([Number(k)]));
    else {
      const b = Buffer.alloc(9);
      b[0] = 0xcf;
      b.writeBigUInt64BE(k, 1);
      parts.push(b);
    }
    if (row < 128) parts.push(Buffer.from([row]));
    else if (row < 256) parts.push(Buffer.from([0xcc, row]));
    else if (row < 65536) parts.push(Buffer.from([0xcd, row >> 8, row & 255]));
    else {
      const b = Buffer.alloc(5);
      b[0] = 0xce;
      b.writeUInt32BE(row, 1);
      parts.push(b);
    }
  }
  return Buffer.concat(parts);
}

const key = (s: string): bigint => {
  const h = hashString(s);
  return (BigInt(h.hi >>> 0) << 32n) | BigInt(h.lo >>> 0);
};

describe('readKey2Row', () => {
  it('reads uint64 keys and small and large rows from a msgpack map', () => {
    const rows = readKey2Row(
      msgpackMap([
        [key('Paris'), 3],
        [key('paris'), 70000],
        [5n, 200],
      ]),
    );
    const h = hashString('paris');
    expect(rows.get(`${h.hi >>> 0}:${h.lo >>> 0}`)).toBe(70000);
    expect(rows.get('0:5')).toBe(200);
    expect(rows.size).toBe(3);
  });

  it('refuses what is not a map of integers', () => {
    expect(() => readKey2Row(Buffer.from([0x93, 1, 2, 3]))).toThrow('not a msgpack map');
    expect(() => readKey2Row(Buffer.from([0x81, 1, 0xa1, 0x61]))).toThrow('unexpected msgpack type');
  });
});
