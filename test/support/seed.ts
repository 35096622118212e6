import { randomBytes } from 'node:crypto';
import type { TestStack } from './stack';

/**
 * Puts `count` incompressible files of `bytes` each into a project's artifact store, so an
 * export takes long enough to watch, cancel or interrupt.
 */
export async function seedArtifacts(stack: TestStack, projectId: string, count: number, bytes: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const obj = await stack.store.put(projectId, `blob-${i}.bin`, randomBytes(bytes));
    const [{ id }] = await stack.ds.query(
      `INSERT INTO artifacts (id, project_id, kind, filename, content_type, size_bytes, sha256, storage_key)
       VALUES (gen_random_uuid(), $1, 'blob', $2, 'application/octet-stream', $3, $4, $5) RETURNING id`,
      [projectId, `blob-${i}.bin`, obj.sizeBytes, obj.sha256, obj.storageKey],
    );
    ids.push(id);
  }
  return ids;
}
