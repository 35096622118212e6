import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { PassThrough } from 'node:stream';
import type { DataSource } from 'typeorm';
import { Artifact, Job, Project } from '../entities';
import type { ArtifactStore } from '../platform/artifact-store';
import { MissingArtifactError, writeProjectArchive } from '../platform/project-archive';
import { createProgressWriter } from './jobs';

export interface ExportActivities {
  buildProjectExport(input: { jobId: string; projectId: string }): Promise<{ artifact_id: string; size_bytes: number; files: number }>;
}

/** The project export job: ZIP streamed into the artifact store, progress by bytes. */
export function createExportActivities(ds: DataSource, store: ArtifactStore): ExportActivities {
  return {
    async buildProjectExport({ jobId, projectId }) {
      const ctx = Context.current();
      const project = await ds.getRepository(Project).findOneBy({ id: projectId });
      if (!project) throw ApplicationFailure.nonRetryable(`Project ${projectId} no longer exists`, 'NotFoundError');
      await ds.getRepository(Job).update({ id: jobId }, { attempt: ctx.info.attempt });
      const report = createProgressWriter(ds, jobId, (d) => ctx.heartbeat(d));
      await report(0, `attempt ${ctx.info.attempt}: archiving`, true);

      const abort = new AbortController();
      const onCancel = () => abort.abort();
      ctx.cancellationSignal.addEventListener('abort', onCancel);
      const sink = new PassThrough();
      const filename = `${project.name.replace(/[^A-Za-z0-9_-]+/g, '_') || 'project'}-export.zip`;
      const stored = store.put(projectId, filename, sink);
      try {
        const { files } = await writeProjectArchive(ds, store, projectId, sink, {
          signal: abort.signal,
          onProgress: (p) => {
            const pct = p.bytesTotal > 0 ? (99 * p.bytesDone) / p.bytesTotal : 50;
            void report(pct, `archived ${p.filesDone}/${p.filesTotal} files`);
          },
        });
        const obj = await stored;
        const artifact = await ds.getRepository(Artifact).save(
          ds.getRepository(Artifact).create({
            projectId,
            kind: 'project_export',
            ownerType: 'job',
            ownerId: jobId,
            filename,
            contentType: 'application/zip',
            sizeBytes: obj.sizeBytes,
            sha256: obj.sha256,
            storageKey: obj.storageKey,
          }),
        );
        return { artifact_id: artifact.id, size_bytes: obj.sizeBytes, files };
      } catch (err) {
        sink.destroy();
        await stored.catch(() => undefined);
        if (abort.signal.aborted) throw ctx.cancellationSignal.reason ?? err;
        if (err instanceof MissingArtifactError) throw ApplicationFailure.nonRetryable(err.message, 'DataError');
        throw err;
      } finally {
        ctx.cancellationSignal.removeEventListener('abort', onCancel);
      }
    },
  };
}
