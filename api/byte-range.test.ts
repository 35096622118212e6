import { parseByteRange } from './byte-range';

describe('parseByteRange', () => {
  it('reads a first-last range, clipped to the object', () => {
    expect(parseByteRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseByteRange('bytes=90-500', 100)).toEqual({ start: 90, end: 99 });
    expect(parseByteRange('bytes=10-', 100)).toEqual({ start: 10, end: 99 });
  });

  it('reads a suffix range as the last n bytes', () => {
    expect(parseByteRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseByteRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 });
  });

  it('answers unsatisfiable for a range past the end or of no bytes', () => {
    expect(parseByteRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=-0', 100)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=0-', 0)).toBe('unsatisfiable');
  });

  it('ignores what it does not serve: no header, malformed, reversed, several ranges, other units, huge numbers', () => {
    for (const h of [undefined, '', 'bytes=', 'bytes=-', 'bytes=9-3', 'bytes=0-1,5-6', 'items=0-1', 'bytes=a-b', `bytes=${'9'.repeat(30)}-`]) {
      expect(parseByteRange(h, 100)).toBeNull();
    }
  });
});
