import type { DataSource } from 'typeorm';
import { In } from 'typeorm';
import { isAction } from '../../engine/privacy';
import { Dataset, DatasetVersion, Job, PrivacyResult, PrivacySession, TERMINAL_JOB_STATUSES } from '../../entities';
import { Access, MEMBER_PROJECTS_SQL, SESSION_NOT_FOUND } from '../access';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import type { JobService } from '../jobs';
import type { Page, PageQuery } from '../lists';
import { type FindingCounts, privacyCounts } from './finding-counts';

export const OUTPUT_NOT_FOUND = 'Anonymized output not found';
export const DATASET_REQUIRED = 'dataset_id or dataset_version_id is required';
export const DATASET_OTHER_PROJECT = 'Dataset must belong to the same project as the policy';
export const FINDING_NOT_FOUND = 'Finding not found';

/** A per-session override of one finding: leave it out, or give it another action (null: the policy's again). */
export interface FindingOverride {
  excluded?: boolean;
  action?: string | null;
}

export interface CreateSession {
  policy_id: string;
  dataset_id?: string;
  dataset_version_id?: string;
  project_id?: string;
  sample_size?: number | null;
  deep_scan?: boolean;
}

/** A session with what lists and details show beside it. */
export interface SessionView {
  session: PrivacySession;
  policyName: string;
  datasetName: string;
  piiFound: number;
  transformed: number;
  /** The session's counts (finding-counts.ts): the same numbers its policy and its PDF show. */
  counts: FindingCounts;
  progress: number;
  progressMessage: string | null;
}

export type ConfidenceBucket = 'high' | 'medium' | 'low';

const BUCKET_SQL: Record<ConfidenceBucket, string> = { high: 'r.confidence >= 0.9', medium: 'r.confidence >= 0.7 AND r.confidence < 0.9', low: 'r.confidence < 0.7' };

/**
 * Privacy sessions: a policy run over one dataset version. `detect` (a `privacy_detect` job)
 * stores the findings, `transform` (a `privacy_transform` job) writes the version through the
 * policy's rules into a new CSV artifact of the project; the source is never changed. One job
 * at a time per session; its status is the session's (`services/job-kinds.ts`). The jobs' work is
 * in activities/privacy-detect/ and activities/privacy-transform/.
 */
export class PrivacySessionService {
  constructor(
    private readonly ds: DataSource,
    private readonly access: Access,
    private readonly jobs: JobService,
  ) {}

  async create(userId: string, p: CreateSession): Promise<PrivacySession> {
    const policy = await this.access.privacyPolicy(userId, p.policy_id, 'editor');
    if (p.project_id && p.project_id !== policy.projectId) throw ValidationError.field(['body', 'project_id'], "project_id must be the policy's project");
    let dataset: Dataset;
    let version: DatasetVersion | null;
    if (p.dataset_version_id) {
      ({ dataset, version } = await this.access.version(userId, p.dataset_version_id));
      if (p.dataset_id && p.dataset_id !== dataset.id) throw ValidationError.field(['body', 'dataset_version_id'], 'The version is not a version of dataset_id');
    } else if (p.dataset_id) {
      dataset = await this.access.dataset(userId, p.dataset_id);
      version = await this.ds.getRepository(DatasetVersion).findOne({ where: { datasetId: dataset.id }, order: { version: 'DESC' } });
      if (!version) throw new NotFoundError('Dataset version not found');
    } else {
      throw new ValidationError(DATASET_REQUIRED);
    }
    if (dataset.projectId !== policy.projectId) throw new ValidationError(DATASET_OTHER_PROJECT);
    const repo = this.ds.getRepository(PrivacySession);
    const session = repo.create({
      projectId: policy.projectId,
      policyId: policy.id,
      datasetId: dataset.id,
      datasetVersionId: version.id,
      sampleSize: p.sample_size ?? null,
      deepScan: p.deep_scan ?? false,
      status: 'created',
      error: null,
      outputArtifactId: null,
      jobId: null,
      detectJobId: null,
      transformJobId: null,
      createdBy: userId,
      startedAt: null,
      finishedAt: null,
    });
    await repo.insert(session);
    return session;
  }

  async list(userId: string, q: PageQuery & { project_id?: string; policy_id?: string }): Promise<Page<SessionView>> {
    if (q.project_id) await this.access.project(userId, q.project_id);
    const qb = this.ds.getRepository(PrivacySession).createQueryBuilder('s').where(`s.project_id IN (${MEMBER_PROJECTS_SQL})`, { userId });
    if (q.project_id) qb.andWhere('s.project_id = :projectId', { projectId: q.project_id });
    if (q.policy_id) qb.andWhere('s.policy_id = :policyId', { policyId: q.policy_id });
    const [items, total] = await qb.orderBy('s.created_at', 'DESC').addOrderBy('s.id', 'DESC').skip(q.offset).take(q.limit).getManyAndCount();
    return { items: await this.views(items), total, limit: q.limit, offset: q.offset };
  }

  async get(userId: string, id: string): Promise<SessionView> {
    const [view] = await this.views([await this.access.privacySession(userId, id)]);
    return view;
  }

  /** Queues detection (`detecting`); 409 while another job of the session is open. */
  detect(userId: string, id: string): Promise<Job> {
    return this.startJob(userId, id, 'privacy_detect');
  }

  /** Queues the transformation (`transforming`, then `completed` with the output artifact); 409 while another job of the session is open. */
  transform(userId: string, id: string): Promise<Job> {
    return this.startJob(userId, id, 'privacy_transform');
  }

  /** The session's findings, optionally of one type or confidence bucket; most confident first. */
  async results(userId: string, id: string, q: { pii_type?: string; confidence?: ConfidenceBucket }): Promise<PrivacyResult[]> {
    await this.access.privacySession(userId, id);
    const qb = this.ds.getRepository(PrivacyResult).createQueryBuilder('r').where('r.session_id = :id', { id });
    if (q.pii_type) qb.andWhere('r.pii_type = :t', { t: q.pii_type });
    if (q.confidence) qb.andWhere(BUCKET_SQL[q.confidence]);
    return qb.orderBy('r.confidence', 'DESC').addOrderBy('r.column', 'ASC').addOrderBy('r.pii_type', 'ASC').getMany();
  }

  /** The completed session's output artifact; 404 before that. */
  async output(userId: string, id: string): Promise<string> {
    const session = await this.access.privacySession(userId, id);
    if (session.status !== 'completed' || !session.outputArtifactId) throw new NotFoundError(OUTPUT_NOT_FOUND);
    return session.outputArtifactId;
  }

  /**
   * Overrides one finding for this session only (editor role): `excluded` leaves it out of the transform and of the
   * protected count, `action` replaces the policy's action for it (null: back to the policy's). A finding of another
   * session, or of a session the user cannot see, is the same 404. The next transform uses it; a new detection keeps it.
   */
  async overrideFinding(userId: string, sessionId: string, findingId: string, o: FindingOverride): Promise<PrivacyResult> {
    const patch: Partial<PrivacyResult> = {};
    if (o.excluded !== undefined) patch.excluded = o.excluded;
    if (o.action !== undefined) {
      if (o.action !== null && !isAction(o.action)) throw ValidationError.field(['body', 'action'], `Unknown action: ${o.action}`);
      patch.actionOverride = o.action;
    }
    if (!Object.keys(patch).length) throw new ValidationError('Send excluded, action or both');
    return this.ds.transaction(async (em) => {
      await this.access.privacySession(userId, sessionId, 'editor', em);
      const repo = em.getRepository(PrivacyResult);
      const finding = await repo.findOne({ where: { id: findingId, sessionId }, lock: { mode: 'pessimistic_write' } });
      if (!finding) throw new NotFoundError(FINDING_NOT_FOUND);
      await repo.update({ id: finding.id }, patch);
      return Object.assign(finding, patch);
    });
  }

  private async startJob(userId: string, id: string, kind: 'privacy_detect' | 'privacy_transform'): Promise<Job> {
    const job = await this.ds.transaction(async (em) => {
      await this.access.privacySession(userId, id, 'editor', em);
      // The session row's lock makes the open-job check and the new job one step.
      const session = await em.getRepository(PrivacySession).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
      if (!session) throw new NotFoundError(SESSION_NOT_FOUND);
      const open = session.jobId ? await em.getRepository(Job).findOneBy({ id: session.jobId }) : null;
      if (open && !TERMINAL_JOB_STATUSES.includes(open.status)) throw new ConflictError(`The session is still ${session.status}; cancel its job ${open.id} or wait for it`);
      const job = await this.jobs.create(em, { kind, projectId: session.projectId, entityId: session.id, createdBy: userId, input: { sessionId: session.id } });
      const detect = kind === 'privacy_detect';
      await em
        .getRepository(PrivacySession)
        .update({ id }, { status: detect ? 'detecting' : 'transforming', error: null, jobId: job.id, finishedAt: null, ...(detect ? { detectJobId: job.id } : { transformJobId: job.id }) });
      return job;
    });
    await this.jobs.start(job);
    return job;
  }

  /** Policy and dataset names, finding counts (finding-counts.ts) and job progress of some sessions, in a few queries. */
  private async views(sessions: PrivacySession[]): Promise<SessionView[]> {
    if (!sessions.length) return [];
    const ids = sessions.map((s) => s.id);
    const policies: { id: string; name: string }[] = await this.ds.query('SELECT id, name FROM privacy_policies WHERE id = ANY($1)', [[...new Set(sessions.map((s) => s.policyId))]]);
    const datasets: { id: string; name: string }[] = await this.ds.query('SELECT id, name FROM datasets WHERE id = ANY($1)', [[...new Set(sessions.map((s) => s.datasetId))]]);
    const { sessions: counts } = await privacyCounts(this.ds, { sessionIds: ids });
    const jobIds = sessions.map((s) => s.jobId).filter((j): j is string => !!j);
    const jobs = jobIds.length ? await this.ds.getRepository(Job).find({ select: { id: true, progress: true, message: true }, where: { id: In(jobIds) } }) : [];
    return sessions.map((session) => {
      const c = counts.get(session.id) as FindingCounts;
      const job = jobs.find((j) => j.id === session.jobId);
      return {
        session,
        policyName: policies.find((p) => p.id === session.policyId)?.name ?? '',
        datasetName: datasets.find((d) => d.id === session.datasetId)?.name ?? '',
        piiFound: c.findings,
        transformed: c.transformed,
        counts: c,
        progress: job?.progress ?? 0,
        progressMessage: job?.message ?? null,
      };
    });
  }
}
