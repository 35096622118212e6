import type { Readable } from 'node:stream';
import type { DataSource } from 'typeorm';
import { Artifact, Job, Report, REPORT_KINDS, ReportKind } from '../../entities';
import type { ArtifactStore, ByteRange } from '../../platform/artifact-store';
import type { Access } from '../access';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import type { JobService } from '../jobs';
import type { Page, PageQuery } from '../lists';
import { REPORT_KIND_DEFS } from './kinds';
import { ReportOptions, resolveOptions } from './options';

export const REPORT_NOT_READY = 'Report has no artifact yet (still processing)';

export interface CreateReport {
  project_id: string;
  kind: string;
  entity_id: string;
  options?: Partial<ReportOptions>;
}

/**
 * Reports: a document about one entity of a project, built by its kind (services/reports/kinds)
 * and rendered by engine/reports in a `report_generate` job on the io queue (its work is in
 * activities/report-generate/). The artifact and the report's link to it are written together;
 * a failed render leaves neither.
 */
export class ReportService {
  constructor(
    private readonly ds: DataSource,
    private readonly access: Access,
    private readonly jobs: JobService,
    private readonly store: ArtifactStore,
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
}
