import type { DataSource } from 'typeorm';
import { Artifact, Report } from '../../entities';
import { renderReport, reportFileName, type ReportDocument } from '../../engine/reports';
import type { ArtifactStore } from '../../platform/artifact-store';
import type { Config } from '../../platform/config';
import { DatasetVersions } from '../../services/dataset-versions';
import { ConflictError, NotFoundError } from '../../services/errors';
import type { ExperimentService } from '../../services/experiments';
import { REPORT_KIND_DEFS } from '../../services/reports/kinds';
import { llmInsightsSection } from '../../services/reports/llm-insights';
import type { ReportOptions } from '../../services/reports/options';
import type { JobProgress } from '../job-activity';

/** What a `report_generate` job returns (kept on its jobs row). */
export type ReportJobResult = { report_id: string; artifact_id: string; size_bytes: number; format: string };

export interface ReportWorkDeps {
  ds: DataSource;
  store: ArtifactStore;
  experiments: ExperimentService;
  config: Config;
}

const CONTENT_TYPES: Record<ReportOptions['format'], string> = {
  html: 'text/html; charset=utf-8',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

/**
 * The `report_generate` job's work: builds the document by its kind (services/reports/kinds, which the request that
 * creates a report checks against too), renders it (engine/reports, progress from inside the rendering) and stores
 * it. Idempotent per report: a retried attempt after the artifact was linked returns it. A canceled job's next
 * progress throws, and only a report still running takes the file: a canceled one keeps none.
 */
export async function generateReport({ ds, store, experiments, config }: ReportWorkDeps, reportId: string, progress: JobProgress): Promise<ReportJobResult> {
  const report = await ds.getRepository(Report).findOneBy({ id: reportId });
  if (!report) throw new NotFoundError('Report not found');
  const options = report.options as ReportOptions;
  if (report.artifactId) {
    const done = await ds.getRepository(Artifact).findOneBy({ id: report.artifactId });
    if (done) return { report_id: report.id, artifact_id: done.id, size_bytes: done.sizeBytes, format: options.format };
  }
  const def = REPORT_KIND_DEFS[report.kind];
  if (!(await def.exists(ds, report.projectId, report.entityId))) throw new NotFoundError(`${def.notFound}: it was deleted before the report was made`);

  await progress(5, `gathering the ${report.kind}'s data`);
  // Statistics missing from a version (the background profile not done yet) are computed now rather than left out.
  const versions = new DatasetVersions(ds, store);
  const built = await def.build({ ds, experiments, projectId: report.projectId, entityId: report.entityId, options, profileVersion: (id) => versions.profile(id) });
  const sections = [...built.sections];
  if (options.llm_insights) {
    await progress(30, 'writing insights');
    sections.unshift(await llmInsightsSection(config.llm, report.kind, built.facts));
  }
  if (options.comments)
    sections.unshift({
      id: 'comments',
      title: 'Comments',
      reading: 'Notes from the person who asked for this report.',
      blocks: options.comments.split(/\n\s*\n/).map((text) => ({ type: 'paragraph' as const, text })),
    });
  const [project] = await ds.query('SELECT name FROM projects WHERE id = $1', [report.projectId]);
  const doc: ReportDocument = {
    title: options.title ?? `${capitalize(report.kind)} report: ${built.entityName}`,
    subtitle: options.title ? `${capitalize(report.kind)} report: ${built.entityName}` : undefined,
    generatedAt: new Date().toISOString(),
    meta: [['Project', project?.name ?? ''], ['Kind', report.kind], ...built.meta],
    sections,
  };

  await progress(40, `rendering ${options.format.toUpperCase()}`);
  let last = 40;
  const rendered = await renderReport(doc, options.format, {
    onProgress: (f) => {
      const pct = Math.round(40 + 50 * f);
      if (pct >= last + 10) {
        last = pct;
        // A report refused by a cancel is harmless here (the write below is refused too); it must not become an
        // unhandled rejection.
        progress(pct, `rendering ${options.format.toUpperCase()}`).catch(() => undefined);
      }
    },
  });
  await progress(92, 'storing');
  const filename = reportFileName(doc, options.format);
  const stored = await store.put(report.projectId, filename, rendered.bytes);
  try {
    const artifact = await ds.transaction(async (em) => {
      const a = em.getRepository(Artifact).create({
        projectId: report.projectId,
        kind: 'report',
        ownerType: 'report',
        ownerId: report.id,
        filename,
        contentType: CONTENT_TYPES[options.format],
        sizeBytes: stored.sizeBytes,
        sha256: stored.sha256,
        storageKey: stored.storageKey,
      });
      await em.getRepository(Artifact).insert(a);
      const summary = { format: options.format, title: doc.title, sections: sections.map((s) => s.title), size_bytes: stored.sizeBytes, figures: built.facts };
      // Only a report still open takes the file: a canceled one keeps none.
      const moved = await em.query("UPDATE reports SET artifact_id = $2, summary = $3, updated_at = now() WHERE id = $1 AND status = 'running' RETURNING id", [report.id, a.id, summary]);
      if (!moved.length) throw new ConflictError('The report was closed while it was rendered');
      return a;
    });
    return { report_id: report.id, artifact_id: artifact.id, size_bytes: artifact.sizeBytes, format: options.format };
  } catch (err) {
    await store.remove(stored.storageKey);
    throw err;
  }
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
