/**
 * Puts the independent corpora's pinned files into the cache (`corporaDir()`), checking each against its sha256.
 *
 *   node .build-perf/bench/pii/fetch-corpora.js [CLONES_DIR]
 *
 * Each source is read from a git clone of its repository at the pinned commit: `CLONES_DIR/<owner>+<name>[/repo]`
 * or `CLONES_DIR/<name>` when there is one, else a fresh `git clone` from GitHub (where the network allows it).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { SOURCES, THIRD_PARTY_PII, cachedPath, corporaDir, sha256, type CorpusSource, type Split } from './corpora';

function localClone(source: CorpusSource, clonesDir: string | undefined): string | null {
  if (!clonesDir) return null;
  const [owner, name] = source.repo.split('/');
  for (const d of [join(clonesDir, `${owner}+${name}`, 'repo'), join(clonesDir, `${owner}+${name}`), join(clonesDir, name)]) if (existsSync(d)) return d;
  return null;
}

function main(): void {
  const clonesDir = process.argv[2];
  for (const source of [...SOURCES, THIRD_PARTY_PII]) {
    let dir = localClone(source, clonesDir);
    let temp: string | null = null;
    if (!dir) {
      temp = mkdtempSync(join(tmpdir(), 'pii-corpus-'));
      execFileSync('git', ['clone', '--quiet', '--no-checkout', `https://github.com/${source.repo}.git`, temp], { stdio: 'inherit' });
      dir = temp;
    }
    try {
      for (const split of Object.keys(source.files) as Split[]) {
        const file = source.files[split];
        if (!file) continue;
        const data = execFileSync('git', ['-C', dir, 'show', `${source.commit}:${file.path}`], { maxBuffer: 64 << 20 });
        const got = sha256(data);
        if (got !== file.sha256) throw new Error(`${source.repo}@${source.commit}:${file.path}: sha256 ${got}, pinned ${file.sha256}`);
        const out = cachedPath(source, split);
        mkdirSync(dirname(out), { recursive: true });
        writeFileSync(out, data);
        console.log(`${source.id} ${split}: ${out} (${data.length} bytes, sha256 ok)`);
      }
    } finally {
      if (temp) rmSync(temp, { recursive: true, force: true });
    }
  }
  console.log(`corpora in ${corporaDir()}`);
}

main();
