/**
 * The converted spaCy model, read once per process (synchronously: detection is synchronous) on first use: the
 * manifest, the float32 tensors, and from them the tokenizer, the network and the decoder. Token features are
 * memoised per distinct token (its embedded vector depends on the token's text alone), which makes repeated words
 * nearly free.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Decoder } from './decoder';
import { hashIdWithSeed } from './hash';
import { isSpaceString, lexemeNorm, prefixOf, stringId, suffixOf, wordShape } from './lexeme';
import { NER_FORMAT_VERSION, NER_MODEL_NAME, type NerManifest } from './model-files';
import { NerNetwork } from './network';
import { Tokenizer, type Token } from './tokenizer';

const WIDTH = 96;
/** Distinct tokens whose embedded vectors are kept (~0.5 KB each). */
const LEXEME_CACHE_MAX = 20_000;

export interface NerModel {
  manifest: NerManifest;
  tokenizer: Tokenizer;
  network: NerNetwork;
  decoder: Decoder;
  /** The tokens' context-free vectors (n × 96) and which tokens are whitespace. */
  embedTokens(tokens: Token[]): { embedded: Float32Array; isSpace: Uint8Array };
}

export function modelPaths(dir: string): { manifest: string; weights: string } {
  return { manifest: path.join(dir, `${NER_MODEL_NAME}.json`), weights: path.join(dir, `${NER_MODEL_NAME}.bin`) };
}

/** Reads the model from `dir`; throws when it is missing or of another format. */
export function loadNerModel(dir: string, opts: { simd?: boolean } = {}): NerModel {
  const paths = modelPaths(dir);
  const manifest = JSON.parse(fs.readFileSync(paths.manifest, 'utf8')) as NerManifest;
  if (manifest.format !== NER_FORMAT_VERSION) throw new Error(`NER model in ${dir} has format ${manifest.format}, this build reads ${NER_FORMAT_VERSION}`);
  const bytes = fs.readFileSync(paths.weights);
  // A copy aligned for Float32Array (a Buffer's offset into Node's pool may not be a multiple of 4).
  const floats = new Float32Array(bytes.byteLength / 4);
  new Uint8Array(floats.buffer).set(bytes);
  const network = new NerNetwork(manifest, floats, opts);
  const decoder = new Decoder(manifest.moves, network);
  const tokenizer = new Tokenizer({ ...manifest.tokenizer, specialCases: manifest.specialCases });
  const norms = new Map(Object.entries(manifest.lexemeNorm));

  const getters = {
    NORM: (t: Token) => t.norm ?? lexemeNorm(t.text, norms),
    PREFIX: (t: Token) => prefixOf(t.text),
    SUFFIX: (t: Token) => suffixOf(t.text),
    SHAPE: (t: Token) => wordShape(t.text),
  };
  let lexemes = new Map<string, { vec: Float32Array; space: boolean }>();
  const keys = new Uint32Array(4);
  /** The summed embedding rows of a token, concatenated over the four attributes, into concat[at..]. */
  const embedSums = (token: Token, concat: Float32Array, at: number): void => {
    for (let a = 0; a < 4; a++) {
      const id = stringId(getters[manifest.embed[a].attr](token));
      const table = network.embed[a];
      hashIdWithSeed(id.hi, id.lo, table.seed, keys, 0);
      const o = at + a * WIDTH;
      for (let j = 0; j < 4; j++) {
        const e = (keys[j] % table.rows) * WIDTH;
        for (let k = 0; k < WIDTH; k++) concat[o + k] += table.E[e + k];
      }
    }
  };
  const embedTokens = (tokens: Token[]): { embedded: Float32Array; isSpace: Uint8Array } => {
    const n = tokens.length;
    const embedded = new Float32Array(n * WIDTH);
    const isSpace = new Uint8Array(n);
    const missing: number[] = [];
    const keyOf = (t: Token): string => (t.norm === undefined ? t.text : `${t.text}\u0000${t.norm}`);
    for (let i = 0; i < n; i++) {
      const lex = lexemes.get(keyOf(tokens[i]));
      if (lex) {
        embedded.set(lex.vec, i * WIDTH);
        isSpace[i] = lex.space ? 1 : 0;
      } else missing.push(i);
    }
    if (missing.length) {
      // New tokens (first seen, or repeated within this text): their vectors in one product, then memoised.
      const unique = [...new Map(missing.map((i) => [keyOf(tokens[i]), i])).values()];
      const concat = new Float32Array(unique.length * WIDTH * 4);
      unique.forEach((i, j) => embedSums(tokens[i], concat, j * WIDTH * 4));
      const vecs = new Float32Array(unique.length * WIDTH);
      network.mix(concat, unique.length, vecs);
      if (lexemes.size + unique.length > LEXEME_CACHE_MAX) lexemes = new Map();
      unique.forEach((i, j) => lexemes.set(keyOf(tokens[i]), { vec: vecs.slice(j * WIDTH, (j + 1) * WIDTH), space: isSpaceString(tokens[i].text) }));
      for (const i of missing) {
        const lex = lexemes.get(keyOf(tokens[i])) as { vec: Float32Array; space: boolean };
        embedded.set(lex.vec, i * WIDTH);
        isSpace[i] = lex.space ? 1 : 0;
      }
    }
    return { embedded, isSpace };
  };
  return { manifest, tokenizer, network, decoder, embedTokens };
}
