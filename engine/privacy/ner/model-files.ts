/**
 * Where the converted spaCy model lives and what its manifest holds: shared by the loader here and the converter
 * (platform/ner-model.ts), which writes `<dir>/<MODEL_NAME>.json` (this manifest) and `<dir>/<MODEL_NAME>.bin`
 * (the float32 tensors it points into, little-endian, back to back).
 */
import os from 'node:os';
import path from 'node:path';

/** Bumped whenever the converter's output changes meaning: an older cache is then rebuilt, not misread. */
export const NER_FORMAT_VERSION = 1;
export const NER_MODEL_NAME = 'en_core_web_sm-3.8.0';

/**
 * The directory the model is read from when none is configured: NER_MODEL_DIR, else `ner` in the project's cache
 * (MLSVC_CACHE_DIR, default ~/.cache/mlsvc). Read from the environment, not from platform/config, because detection
 * runs in every process and worker thread that imports the engine, and they inherit the environment, not a config
 * object; platform/config.ts documents and validates the variable with this same default.
 */
export function defaultNerModelDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.NER_MODEL_DIR) return path.resolve(env.NER_MODEL_DIR);
  return path.join(env.MLSVC_CACHE_DIR ?? path.join(os.homedir(), '.cache', 'mlsvc'), 'ner');
}

export interface TensorRef {
  /** Offset in float32 elements into the .bin file. */
  offset: number;
  shape: number[];
}

/** A BILUO move of spaCy's `BiluoPushDown`, in the model's class order. */
export interface MoveSpec {
  /** 1 Begin, 2 In, 3 Last, 4 Unit, 5 Out (spaCy's enum; 0, Missing, is never a class). */
  move: number;
  /** Entity label; '' for Out and for the internal blocking Unit. */
  label: string;
}

export interface NerManifest {
  format: number;
  name: string;
  /** Provenance: the wheel it was converted from and the model's own licence and sources. */
  source: { package: string; version: string; wheelSha256: string; license: string; author: string; url: string; sources: string[] };
  /** The four HashEmbed tables (NORM, PREFIX, SUFFIX, SHAPE) with their hash seeds. */
  embed: { attr: 'NORM' | 'PREFIX' | 'SUFFIX' | 'SHAPE'; seed: number; tensor: string }[];
  tensors: Record<string, TensorRef>;
  moves: MoveSpec[];
  /** The tokenizer's affix and URL patterns, translated from Python `re` to JavaScript sources (flag `u`). */
  tokenizer: { prefix: string; suffix: string; infix: string; url: string };
  /** Tokenizer exceptions: the string → its tokens as [ORTH, NORM or null]. */
  specialCases: Record<string, [string, string | null][]>;
  /** The vocabulary's `lexeme_norm` table: spaCy string id (decimal uint64) → NORM. */
  lexemeNorm: Record<string, string>;
}
