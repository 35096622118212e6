import { Readable, Transform, Writable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import type { DataSource } from 'typeorm';
import { Artifact, Project, ProjectMember, User } from '../entities';
import { type ArtifactStore, MissingObjectError } from '../platform/artifact-store';
import { ConflictError } from './errors';

export interface ArchiveProgress {
  bytesDone: number;
  bytesTotal: number;
  filesDone: number;
  filesTotal: number;
}

/** An artifact whose bytes are gone from the store: retrying cannot help. */
export class MissingArtifactError extends ConflictError {}

/** Artifacts that go into a project archive: everything but earlier archives. */
export async function archivableArtifacts(ds: DataSource, projectId: string): Promise<Artifact[]> {
  return ds
    .getRepository(Artifact)
    .createQueryBuilder('a')
    .where('a.project_id = :projectId', { projectId })
    .andWhere("a.kind <> 'project_export'")
    .orderBy('a.created_at', 'ASC')
    .addOrderBy('a.id', 'ASC')
    .getMany();
}

/**
 * Writes the project's ZIP (each artifact under `artifacts/<id>/<filename>`, then manifest.json naming exactly the
 * files written) to `out`. One implementation serves the direct download and the background export job. Aborting
 * `signal` stops it between chunks.
 *
 * Artifacts change while an export streams (a training replaces its checkpoint every few seconds): each file is opened
 * once, just before its entry, and streamed from that open handle, so it cannot vanish half-read. One that is gone
 * when its turn comes is looked up again: if its row is gone too, it was deleted or replaced meanwhile and is left
 * out; only a row whose file is missing fails the export (before the first byte, when the check at the start finds it).
 */
export async function writeProjectArchive(
  ds: DataSource,
  store: ArtifactStore,
  projectId: string,
  out: Writable,
  opts: { onProgress?: (p: ArchiveProgress) => void; signal?: AbortSignal } = {},
): Promise<{ files: number }> {
  const project = await ds.getRepository(Project).findOneByOrFail({ id: projectId });
  const artifacts: Artifact[] = [];
  for (const a of await archivableArtifacts(ds, projectId)) {
    if (await store.exists(a.storageKey)) artifacts.push(a);
    else await assertRemoved(ds, a);
  }
  const members = await ds
    .getRepository(ProjectMember)
    .createQueryBuilder('m')
    .innerJoin(User, 'u', 'u.id = m.user_id')
    .select(['m.user_id AS user_id', 'u.email AS email', 'u.name AS name', 'm.role AS role'])
    .where('m.project_id = :projectId', { projectId })
    .getRawMany();

  const progress: ArchiveProgress = {
    bytesDone: 0,
    bytesTotal: artifacts.reduce((s, a) => s + a.sizeBytes, 0),
    filesDone: 0,
    filesTotal: artifacts.length,
  };
  const zip = new yazl.ZipFile();
  const written = pipeline(zip.outputStream, out, opts.signal ? { signal: opts.signal } : {});
  // yazl listens to no entry stream's errors, and emits its own on the ZipFile: either, unheard, would crash the
  // process (an abort errors every entry's counter at once). Ending the output instead rejects `written` with it.
  const fail = (e: Error) => (zip.outputStream as Readable).destroy(e);
  zip.on('error', fail);
  // Awaited at the end; until then a failure of the output must not count as unhandled.
  written.catch(() => undefined);
  const included: Artifact[] = [];
  for (const a of artifacts) {
    let src: Readable | null;
    try {
      src = await openOnce(ds, store, a);
    } catch (err) {
      fail(err as Error); // ends the output, so nothing waits on a half archive
      throw err;
    }
    if (!src) {
      progress.bytesTotal -= a.sizeBytes;
      progress.filesTotal -= 1;
      continue;
    }
    const counter = new Transform({
      transform(chunk: Buffer, _e, cb) {
        if (opts.signal?.aborted) return cb(new Error('aborted'));
        progress.bytesDone += chunk.length;
        opts.onProgress?.(progress);
        cb(null, chunk);
      },
      flush(cb) {
        progress.filesDone += 1;
        opts.onProgress?.(progress);
        cb();
      },
    });
    src.on('error', (e) => counter.destroy(e));
    counter.on('error', fail);
    zip.addReadStream(src.pipe(counter), `artifacts/${a.id}/${a.filename}`);
    included.push(a);
    try {
      // One file open at a time: the next is opened once this one is in the archive (or the output failed).
      await Promise.race([finished(counter), written]);
    } finally {
      src.destroy();
    }
  }
  zip.addBuffer(Buffer.from(JSON.stringify(manifestOf(project, members, included), null, 2)), 'manifest.json');
  zip.end();
  await written;
  return { files: included.length };
}

/** The archive's manifest.json: the project, its members, and the artifacts written into the archive. */
function manifestOf(project: Project, members: unknown[], artifacts: Artifact[]) {
  return {
    format_version: 1,
    exported_at: new Date().toISOString(),
    project: { id: project.id, name: project.name, description: project.description, status: project.status, created_at: project.createdAt },
    members,
    artifacts: artifacts.map((a) => ({
      id: a.id,
      kind: a.kind,
      owner_type: a.ownerType,
      owner_id: a.ownerId,
      filename: a.filename,
      path: `artifacts/${a.id}/${a.filename}`,
      content_type: a.contentType,
      size_bytes: a.sizeBytes,
      sha256: a.sha256,
      created_at: a.createdAt,
    })),
  };
}

/**
 * The artifact's bytes from a handle opened now, or null when its file is gone because its row is gone too (deleted
 * or replaced since the export listed it).
 */
async function openOnce(ds: DataSource, store: ArtifactStore, a: Artifact): Promise<Readable | null> {
  try {
    return await store.open(a.storageKey);
  } catch (err) {
    if (!(err instanceof MissingObjectError)) throw err;
    await assertRemoved(ds, a);
    return null;
  }
}

/**
 * For an artifact whose file was not found: passes when its row is gone as well (deleted or replaced since the export
 * listed it, so the export leaves it out); {@link MissingArtifactError} when the row is still there, since the store
 * lost a file it should hold.
 */
async function assertRemoved(ds: DataSource, a: Artifact): Promise<void> {
  if (await ds.getRepository(Artifact).existsBy({ id: a.id, storageKey: a.storageKey })) {
    throw new MissingArtifactError(`Artifact ${a.filename} (${a.id}) is missing from the artifact store`);
  }
}
