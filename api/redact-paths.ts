import os from 'node:os';

/**
 * An absolute POSIX path: a `/` that does not continue a word, number or relative path ("and/or", "1/2",
 * "a/b" stay), followed by path characters. Quotes, brackets, commas and whitespace end it.
 */
const ABSOLUTE_PATH = /(?<![\w.~/-])\/[^\s"'`<>|,;()[\]{}]+/g;
const PLACEHOLDER = '<file>';

/**
 * A message from the data engine (DuckDB, the file readers) without the server's paths in it: upload and
 * artifact files are named by where they lie on disk, which is nobody's business outside the server. `roots`
 * (the data folder, say) are removed first, whole, even where they hold spaces the generic pattern would stop at.
 */
export function withoutPaths(message: string, roots: string[] = []): string {
  let out = message;
  for (const root of [...roots, os.tmpdir()].filter((r) => r.length > 1).sort((a, b) => b.length - a.length)) {
    out = out.split(root).join('\uE000');
  }
  out = out.replace(/\uE000[^\s"'`]*/g, PLACEHOLDER);
  return out.replace(ABSOLUTE_PATH, PLACEHOLDER);
}
