import type { Readable } from 'node:stream';
import type { DataSource } from 'typeorm';
import { Artifact, Job, Report, REPORT_KINDS, ReportKind } from '../../entities';
import { renderReport, reportFileName } from '../../engine/reports';
import type { ReportDocument } from '../../engine/reports';
import type { ArtifactStore, ByteRange } from '../../platform/artifact-store';
import type { Config } from '../../platform/config';
import type { Access } from '../access';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import type { ExperimentService } from '../experiments';
import type { JobService } from '../jobs';
import type { Page, PageQuery } from '../lists';
import { REPORT_KIND_DEFS } from './kinds';
import { llmInsightsSection } from './llm-insights';
import { ReportOptions, resolveOptions } from './options';

export const REPORT_NOT_READY = 'Report has no artifact yet (still processing)';

const CONTENT_TYPES: Record<ReportOptions['format'], string> = {
  html: 'text/html; charset=utf-8',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

export interface CreateReport {
  project_id: string;
  kind: string;
  entity_id: string;
  options?: Partial<ReportOptions>;
}

/** What a `report_generate` job returns (kept on its jobs row). */
export type ReportJobResult = { report_id: string; artifact_id: string; size_bytes: number; format: string };

/**
 * Reports: a document about one entity of a project, built by its kind (services/reports/kinds)
 * and rendered by engine/reports in a `report_generate` job on the io queue. The artifact and
 * the report's link to it are written together; a failed render leaves neither.
 */
export class ReportService {
  constructor(
    private readonly ds: DataSource,
    private readonly access: Access,
    private readonly jobs: JobService,
    private readonly store: ArtifactStore,
    private readonly experiments: ExperimentService,
    private readonly config: Config,
  ) {}

  /** Queues a report (editor or above: it writes an artifact into the project). */
  async create(userId: string, p: CreateReport): Promise<{ report: Report; job: Job }> {
    if (!(REPORT_KINDS as readonly string[]).includes(p.kind)) throw new ValidationError('Invalid kind');
    const def = REPORT_KIND_DEFS[p.kind as ReportKind];
    await this.access.project(userId, p.project_id, 'editor');
    if (!(await def.exists(this.ds, p.project_id, p.entity_id))) throw new NotFoundError(def.notFound);
    const options = resolveOptions(p.options ?? {});
    const { report, job } = await this.ds.transaction(async (em) => {
      const report = em.getRepository(Report).create({ projectId: p.project_id, kind: def.kind, entityId: p.entity_id, status: 'queued', options, summary: {}, createdBy: userId });
      const job = await this.jobs.create(em, { kind: 'report_generate', projectId: p.project_id, entityId: report.id, createdBy: userId, input: { reportId: report.id } });
      report.jobId = job.id;
      await em.getRepository(Report).insert(report);
      return { report, job };
    });
    await this.jobs.start(job);
    return { report, job };
  }

  async list(userId: string, q: PageQuery & { project_id: string; kind?: ReportKind; entity_id?: string }): Promise<Page<Report>> {
    await this.access.project(userId, q.project_id);
    const where = { projectId: q.project_id, ...(q.kind ? { kind: q.kind } : {}), ...(q.entity_id ? { entityId: q.entity_id } : {}) };
    const [items, total] = await this.ds.getRepository(Report).findAndCount({ where, order: { createdAt: 'DESC', id: 'DESC' }, skip: q.offset, take: q.limit });
    return { items, total, limit: q.limit, offset: q.offset };
  }

  get(userId: string, id: string): Promise<Report> {
    return this.access.report(userId, id);
  }

  /** The rendered file, with `open` to read all or one range of it; 409 until the job has stored it. */
  async file(userId: string, id: string): Promise<{ report: Report; artifact: Artifact; open: (range?: ByteRange) => Readable }> {
    const report = await this.access.report(userId, id);
    const artifact = report.status === 'succeeded' && report.artifactId ? await this.ds.getRepository(Artifact).findOneBy({ id: report.artifactId }) : null;
    if (!artifact || !(await this.store.exists(artifact.storageKey))) throw new ConflictError(REPORT_NOT_READY);
    return { report, artifact, open: (range) => this.store.read(artifact.storageKey, range) };
  }

  /**
   * The job's work: builds the document, renders it and stores it. Idempotent per report: a
   * retried attempt after the artifact was linked returns it. `progress` may throw to stop (a
   * canceled job); nothing is stored then.
   */
  async generate(reportId: string, progress: (percent: number, message: string) => Promise<void>): Promise<ReportJobResult> {
    const report = await this.ds.getRepository(Report).findOneBy({ id: reportId });
    if (!report) throw new NotFoundError('Report not found');
    const options = report.options as ReportOptions;
    if (report.artifactId) {
      const done = await this.ds.getRepository(Artifact).findOneBy({ id: report.artifactId });
      if (done) return { report_id: report.id, artifact_id: done.id, size_bytes: done.sizeBytes, format: options.format };
    }
    const def = REPORT_KIND_DEFS[report.kind];
    if (!(await def.exists(this.ds, report.projectId, report.entityId))) throw new NotFoundError(`${def.notFound}: it was deleted before the report was made`);

    await progress(5, `gathering the ${report.kind}'s data`);
    const built = await def.build({ ds: this.ds, experiments: this.experiments, projectId: report.projectId, entityId: report.entityId, options });
    const sections = [...built.sections];
    if (options.llm_insights) {
      await progress(30, 'writing insights');
      sections.unshift(await llmInsightsSection(this.config.llm, report.kind, built.facts));
    }
    if (options.comments) sections.unshift({ id: 'comments', title: 'Comments', blocks: options.comments.split(/\n\s*\n/).map((text) => ({ type: 'paragraph' as const, text })) });
    const [project] = await this.ds.query('SELECT name FROM projects WHERE id = $1', [report.projectId]);
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
          progress(pct, `rendering ${options.format.toUpperCase()}`).catch(() => undefined);
        }
      },
    });
    await progress(92, 'storing');
    const filename = reportFileName(doc, options.format);
    const stored = await this.store.put(report.projectId, filename, rendered.bytes);
    try {
      const artifact = await this.ds.transaction(async (em) => {
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
      await this.store.remove(stored.storageKey);
      throw err;
    }
  }
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
