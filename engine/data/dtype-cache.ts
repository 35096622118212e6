/**
 * Remembers the dtypes `ingestFile` inferred for the Parquet it wrote, so the profiling that usually follows
 * in the same process (upload → quality report → analyze) does not rescan the file to infer them again.
 * Entries are keyed by the file's identity (device, inode, size, mtime), not its path: a rewritten file misses,
 * while a file renamed into the artifact store (same inode, same bytes) still hits.
 */
import { statSync } from 'node:fs';
import { ColumnInfo } from './dtypes';

const MAX_ENTRIES = 64;
const cache = new Map<string, ColumnInfo[]>();

function identity(path: string): string | null {
  try {
    const s = statSync(path, { bigint: true });
    return `${s.dev}\0${s.ino}\0${s.size}\0${s.mtimeNs}`;
  } catch {
    return null;
  }
}

/** Records the dtypes of the Parquet file at `path` as it is now. */
export function rememberDtypes(path: string, columns: ColumnInfo[]): void {
  const key = identity(path);
  if (key === null) return;
  cache.delete(key);
  cache.set(key, columns.map((c) => ({ ...c })));
  // Map iteration is insertion order, so the first key is the least recently stored.
  while (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
}

/** The remembered dtypes of `path` if the file is unchanged since they were recorded, else null. */
export function recalledDtypes(path: string): ColumnInfo[] | null {
  const key = identity(path);
  const hit = key === null ? undefined : cache.get(key);
  return hit ? hit.map((c) => ({ ...c })) : null;
}
