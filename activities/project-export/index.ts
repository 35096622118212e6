import { PassThrough } from 'node:stream';
import type { ActivityDeps } from '../deps';
import { jobActivity } from '../job-activity';

export interface ProjectExportActivities {
  buildProjectExport(input: { jobId: string; projectId: string }): Promise<{ artifact_id: string; size_bytes: number; files: number }>;
}

/** The project export job: the ZIP streamed into the artifact store, progress by bytes; a cancel stops the stream and stores nothing. */
export function createProjectExportActivities({ services: { jobs, projects, artifacts } }: ActivityDeps): ProjectExportActivities {
  return {
    buildProjectExport: ({ jobId, projectId }) =>
      jobActivity(jobs, jobId, 'archiving', async (progress, { signal }) => {
        const project = await projects.byId(projectId);
        const sink = new PassThrough();
        const filename = `${project.name.replace(/[^A-Za-z0-9_-]+/g, '_') || 'project'}-export.zip`;
        const stored = artifacts.store(projectId, filename, sink);
        try {
          const { files } = await projects.writeArchive(projectId, sink, {
            signal,
            onProgress: (p) => {
              const pct = p.bytesTotal > 0 ? (99 * p.bytesDone) / p.bytesTotal : 50;
              // A lost progress write is harmless (and a cancel stops the archive through `signal`); it must not become an unhandled rejection.
              progress(pct, `archived ${p.filesDone}/${p.filesTotal} files`).catch(() => undefined);
            },
          });
          const artifact = await artifacts.record(
            await stored,
            { projectId, kind: 'project_export', ownerType: 'job', ownerId: jobId, filename, contentType: 'application/zip' },
            { whileJobOpen: jobId },
          );
          return { artifact_id: artifact.id, size_bytes: artifact.sizeBytes, files };
        } catch (err) {
          // Nothing half-written: the partial upload is dropped (cleanup on cancel too).
          sink.destroy();
          await stored.catch(() => undefined);
          if (signal.aborted) throw signal.reason ?? err;
          throw err;
        }
      }),
  };
}

/** This kind's activities, as activities/index.ts registers every kind folder's. */
export const activities = createProjectExportActivities;
