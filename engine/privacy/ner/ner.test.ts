/**
 * The TypeScript port against spaCy itself: spacy-golden.json holds what spaCy 3.8 with en_core_web_sm 3.8.0 makes
 * of 333 sentences (written by bench/pii/spacy_golden.py). The model comes from NER_MODEL_DIR (default
 * ~/.cache/mlsvc/ner), which `node dist/scripts/ensure-ner-model.js` fills; CI runs it before the tests.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configureNer, defaultNerModelDir, nerAvailable, nerEntities, nerTokens } from '.';
import { Arena } from './arena';
import { hashIdWithSeed, hashString } from './hash';
import { loadNerModel } from './model';
import golden from './spacy-golden.json';

interface GoldSentence {
  text: string;
  /** [start, end, start, end, ...] */
  tokens: number[];
  ents: [string, number, number][];
  nerOnly: [string, number, number][];
}
const SENTENCES = golden.sentences as GoldSentence[];

const key = (e: [string, number, number] | { label: string; start: number; end: number }): string => (Array.isArray(e) ? e.join('|') : `${e.label}|${e.start}|${e.end}`);

beforeAll(() => {
  if (!nerAvailable()) throw new Error(`the NER model is missing from ${defaultNerModelDir()}: run \`node dist/scripts/ensure-ner-model.js\` (CI does)`);
});

describe('named-entity model (spaCy en_core_web_sm, ported)', () => {
  it('hashes strings as spaCy and ids as thinc do', () => {
    // Values printed by spacy.strings.hash_string and thinc's NumpyOps().hash.
    const h = hashString('Łukasz');
    expect(((BigInt(h.hi) << 32n) | BigInt(h.lo)).toString()).toBe('14505655596005345176');
    const g = hashString('The quick brown fox jumps');
    expect(((BigInt(g.hi) << 32n) | BigInt(g.lo)).toString()).toBe('10202897253744459974');
    const out = new Uint32Array(4);
    hashIdWithSeed(0xdeadbeef, 0x12345678, 9, out, 0);
    expect(Array.from(out)).toEqual([2743887712, 2731775207, 2530849976, 24907112]);
  });

  it("reproduces spaCy's tokens on every fixture sentence", () => {
    const wrong = SENTENCES.filter((s) => JSON.stringify(nerTokens(s.text).flatMap((t) => [t.start, t.end])) !== JSON.stringify(s.tokens));
    expect(wrong.map((s) => s.text)).toEqual([]);
  });

  it("reproduces spaCy's entities (label and offsets) on at least 98% of them", () => {
    let gold = 0;
    let found = 0;
    let agreed = 0;
    for (const s of SENTENCES) {
      const want = new Set(s.nerOnly.map(key));
      const got = nerEntities(s.text);
      gold += want.size;
      found += got.length;
      agreed += got.filter((e) => want.has(key(e))).length;
    }
    // On the machine it was written on: 803 of 803 both ways.
    expect(gold).toBeGreaterThan(700);
    expect(agreed / gold).toBeGreaterThanOrEqual(0.98);
    expect(agreed / found).toBeGreaterThanOrEqual(0.98);
  });

  it('agrees as well with the full spaCy pipeline, whose parser may end an entity at a sentence end', () => {
    let gold = 0;
    let agreed = 0;
    for (const s of SENTENCES) {
      const got = new Set(nerEntities(s.text).map(key));
      gold += s.ents.length;
      agreed += s.ents.filter((e) => got.has(key(e))).length;
    }
    expect(agreed / gold).toBeGreaterThanOrEqual(0.98);
  });

  it('runs its products in WebAssembly SIMD on this Node', () => {
    expect(loadNerModel(defaultNerModelDir()).network.arena.simd).toBe(true);
  });

  it('multiplies in int16 within a thousandth of the float product', () => {
    const [nOut, nIn, nTok, stride] = [288, 288, 7, 96];
    let seed = 7;
    const rand = (): number => ((seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5) * 2;
    const a = new Arena(nOut * nIn * 2);
    const w = a.putQuantized(
      Float32Array.from({ length: nOut * nIn }, () => rand() * 0.2),
      nOut,
      nIn,
    );
    const x = a.scratch(0);
    const xs = (nTok - 1) * stride + nIn;
    const y = x + xs + 8;
    const yq = y + nTok * nOut + 8;
    const tmp = yq + nTok * nOut + 8;
    a.scratch(tmp - x + Arena.quantScratch(nOut, nIn, nTok, stride));
    a.f32.set(
      Float32Array.from({ length: xs }, () => rand() * 4),
      x,
    );
    a.gemm(w.w, x, y, nOut, nIn, nTok, stride);
    a.gemmQ(w, x, yq, nOut, nIn, nTok, stride, tmp);
    let worst = 0;
    let largest = 0;
    for (let i = 0; i < nTok * nOut; i++) {
      worst = Math.max(worst, Math.abs(a.f32[y + i] - a.f32[yq + i]));
      largest = Math.max(largest, Math.abs(a.f32[y + i]));
    }
    expect(a.simd).toBe(true);
    expect(largest).toBeGreaterThan(1);
    expect(worst / largest).toBeLessThan(1e-3);
  });

  it('computes the same entities without WebAssembly SIMD', () => {
    const model = loadNerModel(defaultNerModelDir(), { simd: false });
    expect(model.network.arena.simd).toBe(false);
    for (const s of SENTENCES.slice(0, 60)) {
      const tokens = model.tokenizer.tokenize(s.text);
      if (tokens.length === 0) continue;
      const { embedded, isSpace } = model.embedTokens(tokens);
      const { lower, closedScores } = model.network.encode(embedded, tokens.length);
      const ents = model.decoder.decode(lower, closedScores, isSpace, tokens.length);
      expect(ents.map((e) => [e.label, tokens[e.start].start, tokens[e.end - 1].end])).toEqual(s.nerOnly);
    }
  });

  it('scores each entity by its least sure move', () => {
    const [e] = nerEntities('Angela Merkel served as Chancellor of Germany.');
    expect(e).toMatchObject({ label: 'PERSON', start: 0, end: 13 });
    expect(e.score).toBeGreaterThan(0.5);
    expect(e.score).toBeLessThanOrEqual(1);
  });

  it('reads a long text in pieces and finds what it finds sentence by sentence', () => {
    const sentences = SENTENCES.filter((s) => s.text.trim() && !s.text.includes('\n')).map((s) => s.text);
    const text = sentences.join('\n');
    expect(text.length).toBeGreaterThan(3 * 4000);
    const whole = new Set(nerEntities(text).map(key));
    let at = 0;
    let expected = 0;
    let kept = 0;
    for (const s of sentences) {
      for (const e of nerEntities(s)) {
        expected++;
        if (whole.has(key({ ...e, start: e.start + at, end: e.end + at }))) kept++;
      }
      at += s.length + 1;
    }
    expect(kept / expected).toBeGreaterThanOrEqual(0.95);
  });

  it('finds nothing and warns once when the model is missing', () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'ner-missing-'));
    const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      configureNer({ modelDir: empty });
      expect(nerEntities('Angela Merkel visited Paris.')).toEqual([]);
      expect(nerEntities('Barack Obama visited Rome.')).toEqual([]);
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      warn.mockRestore();
      configureNer({});
      fs.rmSync(empty, { recursive: true, force: true });
    }
    expect(nerEntities('Angela Merkel visited Paris.').map((e) => e.label)).toEqual(['PERSON', 'GPE']);
  });
});
