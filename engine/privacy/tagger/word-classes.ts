/**
 * Word classes: each word's cluster of distributional word vectors at three granularities (64, 256 and 1,024
 * classes), so the tagger generalises from the words it saw labelled to words it never did ("kolkatta" sits with
 * the cities it read). The classes of the 20,000 vectors of spaCy's en_core_web_md are ./vector-classes.json
 * (bench/pii/word_classes.py); the setup (platform/word-classes.ts) maps the model's 684,830 words onto them and
 * writes one table into the named-entity model's directory, read here once per process. Without that table no word
 * has a class and the tagger reads the rest of its features alone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { hashString } from '../ner/hash';
import { defaultNerModelDir } from '../ner/model-files';
import vectorClasses from './vector-classes.json';

/** Bumped when the table's layout or its classes change meaning: an older table is then rebuilt, not misread. */
export const WORD_CLASSES_FILE = 'word-classes-1.bin';
const MAGIC = 0x314c4357; // "WCL1"
const HEADER = 16;

export const wordClassesPath = (dir: string): string => path.join(dir, WORD_CLASSES_FILE);

/** FNV-1a over UTF-16 code units: the table's key of a lower-cased word. */
export function wordKey(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) {
    h ^= word.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** An open-addressing table of word keys and their packed classes (+1, so that 0 is an empty slot). */
export interface WordClassTable {
  keys: Uint32Array;
  values: Uint32Array;
}

/** The table's bytes: a 16-byte header (magic, slots, words), the keys, then the values, little-endian. */
export function encodeWordClasses(words: Map<string, number>): Buffer {
  let slots = 1;
  while (slots < words.size * 2) slots <<= 1;
  const keys = new Uint32Array(slots);
  const values = new Uint32Array(slots);
  for (const [word, packed] of words) {
    const k = wordKey(word);
    let at = k & (slots - 1);
    while (values[at] !== 0 && keys[at] !== k) at = (at + 1) & (slots - 1);
    if (values[at] !== 0) continue; // two words with one key: the first keeps it
    keys[at] = k;
    values[at] = packed + 1;
  }
  const out = Buffer.alloc(HEADER + slots * 8);
  out.writeUInt32LE(MAGIC, 0);
  out.writeUInt32LE(slots, 4);
  out.writeUInt32LE(words.size, 8);
  Buffer.from(keys.buffer).copy(out, HEADER);
  Buffer.from(values.buffer).copy(out, HEADER + slots * 4);
  return out;
}

export function decodeWordClasses(bytes: Buffer): WordClassTable {
  if (bytes.length < HEADER || bytes.readUInt32LE(0) !== MAGIC) throw new Error('not a word-class table');
  const slots = bytes.readUInt32LE(4);
  if ((slots & (slots - 1)) !== 0 || bytes.length !== HEADER + slots * 8) throw new Error('word-class table of the wrong size');
  const copy = new Uint8Array(slots * 8);
  copy.set(bytes.subarray(HEADER));
  return { keys: new Uint32Array(copy.buffer, 0, slots), values: new Uint32Array(copy.buffer, slots * 4, slots) };
}

let table: WordClassTable | null | undefined;

function load(): WordClassTable | null {
  try {
    return decodeWordClasses(fs.readFileSync(wordClassesPath(defaultNerModelDir())));
  } catch {
    return null;
  }
}

/** Whether the word classes are available to this process. */
export function wordClassesLoaded(): boolean {
  if (table === undefined) table = load();
  return table !== null;
}

/** The classes of a lower-cased word (a leading @ or # dropped), packed as c64 | c256 << 6 | c1024 << 14; -1 if none. */
export function wordClass(lower: string): number {
  if (table === undefined) table = load();
  if (table === null) return -1;
  const w = lower.charCodeAt(0) === 35 || lower.charCodeAt(0) === 64 ? lower.slice(1) : lower;
  const k = wordKey(w);
  const mask = table.keys.length - 1;
  for (let at = k & mask; ; at = (at + 1) & mask) {
    const v = table.values[at];
    if (v === 0) return -1;
    if (table.keys[at] === k) return v - 1;
  }
}

/** Tests and the tagger's training choose the table (null: none) instead of the one on disk. */
export function setWordClassesForTests(t: WordClassTable | null | undefined): void {
  table = t;
}

/** The packed classes of each of the md model's 20,000 vector rows (./vector-classes.json). */
export function vectorRowClasses(): Uint32Array {
  const bytes = Buffer.from(vectorClasses.packed, 'base64');
  const rows = new Uint32Array(bytes.length / 4);
  for (let i = 0; i < rows.length; i++) rows[i] = bytes.readUInt32LE(i * 4);
  return rows;
}

/**
 * Each lower-cased word of a spaCy vocabulary (`strings`, and `key2row`: its string hashes as "hi:lo" → vector row)
 * with its row's classes: a word written in lower case keeps its own row, another casing of it lends its row only
 * when the lower-case word has none.
 */
export function classesOfWords(strings: readonly string[], key2row: ReadonlyMap<string, number>, rowClasses: Uint32Array = vectorRowClasses()): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of strings) {
    if (s.length === 0 || s.length > 40 || /\s/.test(s)) continue;
    const h = hashString(s);
    const r = key2row.get(`${h.hi >>> 0}:${h.lo >>> 0}`);
    if (r === undefined || r >= rowClasses.length) continue;
    const lower = s.toLowerCase();
    if (s !== lower && out.has(lower)) continue;
    out.set(lower, rowClasses[r]);
  }
  return out;
}
