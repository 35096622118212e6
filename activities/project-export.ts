import { Context } from '@temporalio/activity';
import { PassThrough } from 'node:stream';
import type { Services } from '../services';
import { domainFailures } from './failures';

export interface ProjectExportActivities {
  buildProjectExport(input: { jobId: string; projectId: string }): Promise<{ artifact_id: string; size_bytes: number; files: number }>;
}

/** The project export job: the ZIP streamed into the artifact store, progress by bytes. */
export function createProjectExportActivities({ jobs, projects, artifacts }: Services): ProjectExportActivities {
  return {
    buildProjectExport: ({ jobId, projectId }) =>
      domainFailures(async () => {
        const ctx = Context.current();
        const project = await projects.byId(projectId);
        await jobs.recordAttempt(jobId, ctx.info.attempt);
        const report = jobs.progressWriter(jobId, (d) => ctx.heartbeat(d));
        await report(0, `attempt ${ctx.info.attempt}: archiving`, true);

        const abort = new AbortController();
        const onCancel = () => abort.abort();
        ctx.cancellationSignal.addEventListener('abort', onCancel);
        const sink = new PassThrough();
        const filename = `${project.name.replace(/[^A-Za-z0-9_-]+/g, '_') || 'project'}-export.zip`;
        const stored = artifacts.store(projectId, filename, sink);
        try {
          const { files } = await projects.writeArchive(projectId, sink, {
            signal: abort.signal,
            onProgress: (p) => {
              const pct = p.bytesTotal > 0 ? (99 * p.bytesDone) / p.bytesTotal : 50;
              // A lost progress write is harmless; it must not become an unhandled rejection.
              report(pct, `archived ${p.filesDone}/${p.filesTotal} files`).catch(() => undefined);
            },
          });
          const artifact = await artifacts.record(
            await stored,
            { projectId, kind: 'project_export', ownerType: 'job', ownerId: jobId, filename, contentType: 'application/zip' },
            { whileJobOpen: jobId },
          );
          return { artifact_id: artifact.id, size_bytes: artifact.sizeBytes, files };
        } catch (err) {
          sink.destroy();
          await stored.catch(() => undefined);
          if (abort.signal.aborted) throw ctx.cancellationSignal.reason ?? err;
          throw err;
        } finally {
          ctx.cancellationSignal.removeEventListener('abort', onCancel);
        }
      }),
  };
}
