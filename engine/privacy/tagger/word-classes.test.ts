/**
 * The tagger's word classes: the table's storage and lookup and the mapping of a spaCy vocabulary onto the vector
 * rows' classes, on small inputs built here; and the table that the setup wrote for this machine (CI runs
 * `node dist/scripts/ensure-ner-model.js` before the tests). platform/word-classes.test.ts reads `key2row`.
 */
import { hashString } from '../ner/hash';
import { classesOfWords, decodeWordClasses, encodeWordClasses, setWordClassesForTests, wordClass, wordClassesLoaded } from './word-classes';

const pack = (a: number, b: number, c: number): number => a | (b << 6) | (c << 14);

afterEach(() => setWordClassesForTests(undefined));

describe('the table', () => {
  it('keeps every word through storage and answers -1 for the others', () => {
    const words = new Map<string, number>();
    for (let i = 0; i < 5000; i++) words.set(`word${i}`, pack(i % 64, i % 256, i % 1024));
    words.set('paris', 0);
    setWordClassesForTests(decodeWordClasses(encodeWordClasses(words)));
    expect(wordClass('word4321')).toBe(pack(4321 % 64, 4321 % 256, 4321 % 1024));
    expect(wordClass('paris')).toBe(0);
    expect(wordClass('#paris')).toBe(0);
    expect(wordClass('@paris')).toBe(0);
    expect(wordClass('nowhere-at-all')).toBe(-1);
  });

  it('refuses bytes that are not a table', () => {
    expect(() => decodeWordClasses(Buffer.from('PK not a table at all'))).toThrow('not a word-class table');
    const ok = encodeWordClasses(new Map([['a', 1]]));
    expect(() => decodeWordClasses(ok.subarray(0, ok.length - 4))).toThrow('wrong size');
  });

  it('gives no word a class where there is no table', () => {
    setWordClassesForTests(null);
    expect(wordClassesLoaded()).toBe(false);
    expect(wordClass('paris')).toBe(-1);
  });
});

describe('the vocabulary mapped onto the classes', () => {
  const key = (s: string): string => {
    const h = hashString(s);
    return `${h.hi >>> 0}:${h.lo >>> 0}`;
  };

  it("keeps a lower-case word's own row and lends a casing's row only to a word without one", () => {
    const rows = new Map([
      [key('Paris'), 1],
      [key('paris'), 2],
      [key('Kolkata'), 0],
    ]);
    const words = classesOfWords(['Paris', 'paris', 'Kolkata', 'KOLKATA', 'unknown', 'two words'], rows, new Uint32Array([10, 11, 12]));
    expect(words.get('paris')).toBe(12);
    expect(words.get('kolkata')).toBe(10);
    expect(words.has('unknown')).toBe(false);
    expect(words.has('two words')).toBe(false);
  });
});

describe("this machine's table", () => {
  it('is installed and puts a city with cities', () => {
    if (!wordClassesLoaded()) throw new Error('the word classes are missing: run `node dist/scripts/ensure-ner-model.js` (CI does)');
    const cls = (w: string): number => wordClass(w) & 63;
    expect(wordClass('kolkata')).toBeGreaterThanOrEqual(0);
    expect(cls('kolkata')).toBe(cls('mumbai'));
    expect(cls('kolkata')).not.toBe(cls('running'));
  });
});
