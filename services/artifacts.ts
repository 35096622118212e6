import type { Readable } from 'node:stream';
import { Artifact } from '../entities';
import { JsonRow, preview } from '../engine/data';
import type { DataSource } from 'typeorm';
import type { ArtifactStore, ByteRange, StoredObject } from '../platform/artifact-store';
import { Access } from './access';
import { ConflictError, NotFoundError, ValidationError } from './errors';
import { artifactReadScopes, assertScopes } from './scopes';

const TEXT_PREVIEW_BYTES = 64 * 1024;

export type ArtifactPreview = { rows: JsonRow[] } | { text: string; truncated: boolean };

/**
 * Artifact files, for members of the artifact's project. An API key also needs the read scope
 * of the artifact's owner (see {@link artifactReadScopes}): `keyScopes` is the caller's key
 * scopes, or null for a cookie session.
 */
export class ArtifactService {
  constructor(
    private readonly ds: DataSource,
    private readonly files: ArtifactStore,
    private readonly access: Access,
  ) {}

  /** Streams bytes into the artifact store (hashed on the way); record the result with {@link record}. */
  store(projectId: string, filename: string, body: Readable): Promise<StoredObject> {
    return this.files.put(projectId, filename, body);
  }

  /**
   * Writes the row of a stored file; if the row cannot be written the file is removed. With `whileJobOpen`, only
   * while that job is still queued or running (its row locked meanwhile): an activity orphaned by its workflow (the
   * reconciler already failed the job, or it was canceled) keeps nothing, instead of an artifact of a failed job.
   */
  async record(
    stored: StoredObject,
    p: { projectId: string; kind: string; ownerType: string; ownerId: string; filename: string; contentType: string },
    opts: { whileJobOpen?: string } = {},
  ): Promise<Artifact> {
    const { whileJobOpen } = opts;
    try {
      return await this.ds.transaction(async (em) => {
        if (whileJobOpen) {
          const [job] = (await em.query('SELECT status FROM jobs WHERE id = $1 FOR UPDATE', [whileJobOpen])) as { status: string }[];
          if (job?.status !== 'queued' && job?.status !== 'running') throw new ConflictError(`The job ended (${job?.status ?? 'deleted'}) before its ${p.filename} was stored; it was not kept`);
        }
        const artifact = em.getRepository(Artifact).create({ ...p, sizeBytes: stored.sizeBytes, sha256: stored.sha256, storageKey: stored.storageKey });
        await em.getRepository(Artifact).insert(artifact);
        return artifact;
      });
    } catch (err) {
      await this.files.remove(stored.storageKey);
      throw err;
    }
  }

  /**
   * The artifact when the user can read it and its bytes are in the store (404 otherwise), and
   * the key, if any, has the artifact's read scopes (403 otherwise).
   */
  async forUser(userId: string, artifactId: string, keyScopes: readonly string[] | null): Promise<Artifact> {
    const a = await this.access.artifact(userId, artifactId);
    assertScopes(keyScopes, artifactReadScopes(a));
    if (!(await this.files.exists(a.storageKey))) throw new NotFoundError('Artifact not found');
    return a;
  }

  /** The artifact, and `open` to read its bytes, all or one range of them (the store reads only that range). */
  async download(userId: string, artifactId: string, keyScopes: readonly string[] | null): Promise<{ artifact: Artifact; open: (range?: ByteRange) => Readable }> {
    const artifact = await this.forUser(userId, artifactId, keyScopes);
    return { artifact, open: (range) => this.files.read(artifact.storageKey, range) };
  }

  /** First rows of a tabular artifact, or the first 64 KiB of a text artifact. */
  async preview(userId: string, artifactId: string, keyScopes: readonly string[] | null, rows: number): Promise<{ artifact: Artifact; preview: ArtifactPreview }> {
    const artifact = await this.forUser(userId, artifactId, keyScopes);
    if (artifact.contentType.includes('parquet')) {
      return { artifact, preview: { rows: await preview(await this.files.localPath(artifact.storageKey), rows) } };
    }
    if (/^text\/|json|csv|xml/.test(artifact.contentType)) {
      const want = Math.min(TEXT_PREVIEW_BYTES, artifact.sizeBytes);
      const chunks: Buffer[] = [];
      // Only the bytes shown are read (a ranged read from S3), never the whole file.
      if (want > 0) for await (const c of this.files.read(artifact.storageKey, { start: 0, end: want - 1 })) chunks.push(c as Buffer);
      const buf = Buffer.concat(chunks);
      return { artifact, preview: { text: buf.toString('utf8'), truncated: artifact.sizeBytes > buf.length } };
    }
    throw new ValidationError(`No preview for ${artifact.contentType} artifacts; download it instead`);
  }
}
