import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import type { DataSource } from 'typeorm';
import { Artifact, Project, ProjectMember, User } from '../entities';
import type { ArtifactStore } from '../platform/artifact-store';
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
 * Writes the project's ZIP (manifest.json first, then each artifact under
 * `artifacts/<id>/<filename>`) to `out`. One implementation serves the direct download and
 * the background export job. Aborting `signal` stops it between chunks.
 */
export async function writeProjectArchive(
  ds: DataSource,
  store: ArtifactStore,
  projectId: string,
  out: Writable,
  opts: { onProgress?: (p: ArchiveProgress) => void; signal?: AbortSignal } = {},
): Promise<{ files: number }> {
  const project = await ds.getRepository(Project).findOneByOrFail({ id: projectId });
  const artifacts = await archivableArtifacts(ds, projectId);
  for (const a of artifacts) {
    if (!(await store.exists(a.storageKey))) {
      throw new MissingArtifactError(`Artifact ${a.filename} (${a.id}) is missing from the artifact store`);
    }
  }
  const members = await ds
    .getRepository(ProjectMember)
    .createQueryBuilder('m')
    .innerJoin(User, 'u', 'u.id = m.user_id')
    .select(['m.user_id AS user_id', 'u.email AS email', 'u.name AS name', 'm.role AS role'])
    .where('m.project_id = :projectId', { projectId })
    .getRawMany();
  const manifest = {
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
  zip.addBuffer(Buffer.from(JSON.stringify(manifest, null, 2)), 'manifest.json');
  for (const a of artifacts) {
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
    const src = store.read(a.storageKey);
    src.on('error', (e) => counter.destroy(e));
    counter.on('error', fail);
    zip.addReadStream(src.pipe(counter), `artifacts/${a.id}/${a.filename}`);
  }
  zip.end();
  await written;
  return { files: artifacts.length };
}
