import { Readable } from 'node:stream';
import type { DataSource, EntityManager } from 'typeorm';
import { In } from 'typeorm';
import { readTextColumns, withTextRowBatches } from '../../engine/data';
import { detectColumns, type ColumnFinding } from '../../engine/privacy';
import { Artifact, Dataset, DatasetVersion, Job, PrivacyPolicy, PrivacyResult, PrivacySession, TERMINAL_JOB_STATUSES } from '../../entities';
import type { ArtifactStore } from '../../platform/artifact-store';
import { Access, MEMBER_PROJECTS_SQL, SESSION_NOT_FOUND } from '../access';
import type { DatasetVersions } from '../dataset-versions';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import type { JobService } from '../jobs';
import type { Page, PageQuery } from '../lists';
import { effectiveRules, RuleOf } from './effective-rules';
import type { PrivacyPolicyService } from './policies';
import { projectSecrets } from './secrets';
import { applyStep, csvLine, transformPlan } from './transform-plan';

/** Cells a detection reads at most (rows × columns): memory stays bounded whatever the table's size. */
export const MAX_SCAN_CELLS = 5_000_000;

export const OUTPUT_NOT_FOUND = 'Anonymized output not found';
export const DATASET_REQUIRED = 'dataset_id or dataset_version_id is required';
export const DATASET_OTHER_PROJECT = 'Dataset must belong to the same project as the policy';

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
  progress: number;
  progressMessage: string | null;
}

export type ConfidenceBucket = 'high' | 'medium' | 'low';

/** What the privacy jobs return (kept on their jobs rows). */
export type PrivacyDetectResult = { session_id: string; rows_scanned: number; columns_analyzed: number; pii_columns: number; pii_instances: number };
export type PrivacyTransformResult = { session_id: string; artifact_id: string; rows: number; size_bytes: number };

type Progress = (percent: number, message: string) => Promise<void>;

const BUCKET_SQL: Record<ConfidenceBucket, string> = { high: 'r.confidence >= 0.9', medium: 'r.confidence >= 0.7 AND r.confidence < 0.9', low: 'r.confidence < 0.7' };

/**
 * Privacy sessions: a policy run over one dataset version. `detect` (a `privacy_detect` job)
 * stores the findings, `transform` (a `privacy_transform` job) writes the version through the
 * policy's rules into a new CSV artifact of the project; the source is never changed. One job
 * at a time per session; its status is the session's (`services/job-kinds.ts`).
 */
export class PrivacySessionService {
  constructor(
    private readonly ds: DataSource,
    private readonly access: Access,
    private readonly jobs: JobService,
    private readonly store: ArtifactStore,
    private readonly datasetVersions: DatasetVersions,
    private readonly policies: PrivacyPolicyService,
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
   * The detect job's work: reads the version (a `sample_size` sample of its rows, or all), runs
   * column detection (and cell detection with `deep_scan`), and replaces the session's findings and
   * counts in one transaction, only while this job still moves the session.
   */
  async runDetect(jobId: string, sessionId: string, progress: Progress): Promise<PrivacyDetectResult> {
    const session = await this.loadForJob(sessionId);
    const detection = await this.detection(session, progress, 0, 90);
    await progress(95, 'storing the findings');
    const ruleOf = await this.ruleOf(session.policyId);
    await this.ds.transaction(async (em) => {
      await this.claim(em, session.id, jobId, 'detecting');
      await this.storeFindings(em, session.id, detection, ruleOf);
    });
    return { session_id: session.id, ...detection.counts };
  }

  /**
   * The transform job's work: every row of the version through the policy's rules, written as
   * CSV into the artifact store while it is read (one batch in memory at a time). A session never
   * detected is detected first. The artifact row and the session's link to it are written in one
   * transaction, only while the session is still transforming under this job: a canceled or failed
   * run keeps no file.
   */
  async runTransform(jobId: string, sessionId: string, progress: Progress): Promise<PrivacyTransformResult> {
    const session = await this.loadForJob(sessionId);
    const ruleOf = await this.ruleOf(session.policyId);
    if (!session.detected) {
      const detection = await this.detection(session, progress, 0, 20);
      await this.ds.transaction(async (em) => {
        await this.claim(em, session.id, jobId, 'transforming');
        await this.storeFindings(em, session.id, detection, ruleOf);
      });
    }
    const findings = await this.ds.getRepository(PrivacyResult).findBy({ sessionId });
    const plan = transformPlan(findings, ruleOf);
    const secrets = await projectSecrets(this.ds, session.projectId);
    const version = await this.ds.getRepository(DatasetVersion).findOneBy({ id: session.datasetVersionId });
    const dataset = await this.ds.getRepository(Dataset).findOneBy({ id: session.datasetId });
    if (!version || !dataset) throw new NotFoundError('Dataset version not found');
    const filename = `${dataset.name}-v${version.version}-anonymized.csv`;

    let rows = 0;
    const stored = await withTextRowBatches(await this.datasetVersions.parquetPath(version), async (columns, batches, rowCount) => {
      const kept = columns.map((c, i) => ({ name: c.name, i, step: plan.get(c.name) })).filter((c) => !c.step?.dropColumn);
      async function* csv(): AsyncGenerator<string> {
        yield csvLine(kept.map((c) => c.name));
        for await (const batch of batches) {
          let chunk = '';
          for (const row of batch) chunk += csvLine(kept.map((c) => applyStep(c.step, row[c.i], secrets)));
          rows += batch.length;
          yield chunk;
          await progress(25 + Math.floor((70 * rows) / Math.max(1, rowCount)), `transformed ${rows} of ${rowCount} rows`);
        }
      }
      return this.store.put(session.projectId, filename, Readable.from(csv()));
    });
    await progress(97, 'storing the output');
    try {
      const artifact = await this.ds.transaction(async (em) => {
        await this.claim(em, session.id, jobId, 'transforming');
        const a = em.getRepository(Artifact).create({
          projectId: session.projectId,
          kind: 'privacy_output',
          ownerType: 'privacy_session',
          ownerId: session.id,
          filename,
          contentType: 'text/csv; charset=utf-8',
          sizeBytes: stored.sizeBytes,
          sha256: stored.sha256,
          storageKey: stored.storageKey,
        });
        await em.getRepository(Artifact).insert(a);
        await em.getRepository(PrivacySession).update({ id: session.id }, { outputArtifactId: a.id });
        const done = findings.filter((f) => plan.get(f.column)?.applies(f)).map((f) => f.id);
        await em.getRepository(PrivacyResult).update({ sessionId: session.id }, { transformed: false });
        if (done.length) await em.getRepository(PrivacyResult).update({ id: In(done) }, { transformed: true });
        return a;
      });
      return { session_id: session.id, artifact_id: artifact.id, rows, size_bytes: artifact.sizeBytes };
    } catch (err) {
      await this.store.remove(stored.storageKey);
      throw err;
    }
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

  private async loadForJob(sessionId: string): Promise<PrivacySession> {
    const session = await this.ds.getRepository(PrivacySession).findOneBy({ id: sessionId });
    if (!session) throw new NotFoundError(SESSION_NOT_FOUND);
    return session;
  }

  /** Locks the session for this job's final write; a session canceled, failed or taken by another job refuses it. */
  private async claim(em: EntityManager, sessionId: string, jobId: string, status: 'detecting' | 'transforming'): Promise<void> {
    const rows: unknown[] = await em.query('SELECT id FROM privacy_sessions WHERE id = $1 AND job_id = $2 AND status = $3 FOR UPDATE', [sessionId, jobId, status]);
    if (!rows.length) throw new ConflictError(`The session is no longer ${status} under this job`);
  }

  private async ruleOf(policyId: string): Promise<RuleOf> {
    const policy = await this.ds.getRepository(PrivacyPolicy).findOneBy({ id: policyId });
    if (!policy) throw new NotFoundError('Policy not found');
    return effectiveRules(policy, await this.policies.rulesOf(policyId));
  }

  private async detection(session: PrivacySession, progress: Progress, from: number, to: number): Promise<Detection> {
    const version = await this.ds.getRepository(DatasetVersion).findOneBy({ id: session.datasetVersionId });
    if (!version) throw new NotFoundError('Dataset version not found');
    // Detection holds the cells it scans as text: at most MAX_SCAN_CELLS of them, a row sample past that.
    const maxRows = Math.max(1, Math.floor(MAX_SCAN_CELLS / Math.max(1, version.columnCount)));
    const sampleRows = session.sampleSize ? Math.min(session.sampleSize, maxRows) : version.rowCount > maxRows ? maxRows : null;
    await progress(from + 2, sampleRows ? `reading a sample of ${sampleRows} rows` : 'reading the rows');
    const table = await readTextColumns(await this.datasetVersions.parquetPath(version), { sampleRows });
    const findings: ColumnFinding[] = [];
    for (const [i, column] of table.columns.entries()) {
      await progress(from + Math.floor(((to - from) * (i + 1)) / Math.max(1, table.columns.length)), `column ${i + 1} of ${table.columns.length}: ${column.name}`);
      findings.push(...detectColumns([{ name: column.name, values: column.values }], { deepScan: session.deepScan }));
    }
    return {
      findings,
      counts: {
        rows_scanned: table.rows,
        columns_analyzed: table.columns.length,
        pii_columns: new Set(findings.map((f) => f.column)).size,
        pii_instances: findings.reduce((n, f) => n + f.instances, 0),
      },
    };
  }

  private async storeFindings(em: EntityManager, sessionId: string, d: Detection, ruleOf: RuleOf): Promise<void> {
    await em.getRepository(PrivacyResult).delete({ sessionId });
    const rows = d.findings.map((f) =>
      em.getRepository(PrivacyResult).create({
        sessionId,
        column: f.column,
        piiType: f.piiType,
        scope: f.scope,
        confidence: f.confidence,
        instances: f.instances,
        samples: f.samples,
        evidence: f.evidence,
        action: ruleOf(f.piiType)?.action ?? null,
        transformed: false,
      }),
    );
    if (rows.length) await em.getRepository(PrivacyResult).insert(rows);
    await em.getRepository(PrivacySession).update(
      { id: sessionId },
      {
        detected: true,
        rowsScanned: d.counts.rows_scanned,
        columnsAnalyzed: d.counts.columns_analyzed,
        piiColumns: d.counts.pii_columns,
        piiInstances: d.counts.pii_instances,
      },
    );
  }

  /** Policy and dataset names, finding counts and job progress of some sessions, in a few queries. */
  private async views(sessions: PrivacySession[]): Promise<SessionView[]> {
    if (!sessions.length) return [];
    const ids = sessions.map((s) => s.id);
    const policies: { id: string; name: string }[] = await this.ds.query('SELECT id, name FROM privacy_policies WHERE id = ANY($1)', [[...new Set(sessions.map((s) => s.policyId))]]);
    const datasets: { id: string; name: string }[] = await this.ds.query('SELECT id, name FROM datasets WHERE id = ANY($1)', [[...new Set(sessions.map((s) => s.datasetId))]]);
    const counts: { session_id: string; found: number; transformed: number }[] = await this.ds.query(
      'SELECT session_id, count(*)::int AS found, count(*) FILTER (WHERE transformed)::int AS transformed FROM privacy_results WHERE session_id = ANY($1) GROUP BY session_id',
      [ids],
    );
    const jobIds = sessions.map((s) => s.jobId).filter((j): j is string => !!j);
    const jobs = jobIds.length ? await this.ds.getRepository(Job).find({ select: { id: true, progress: true, message: true }, where: { id: In(jobIds) } }) : [];
    return sessions.map((session) => {
      const c = counts.find((x) => x.session_id === session.id);
      const job = jobs.find((j) => j.id === session.jobId);
      return {
        session,
        policyName: policies.find((p) => p.id === session.policyId)?.name ?? '',
        datasetName: datasets.find((d) => d.id === session.datasetId)?.name ?? '',
        piiFound: c?.found ?? 0,
        transformed: c?.transformed ?? 0,
        progress: job?.progress ?? 0,
        progressMessage: job?.message ?? null,
      };
    });
  }
}

interface Detection {
  findings: ColumnFinding[];
  counts: Omit<PrivacyDetectResult, 'session_id'>;
}
