import type { DataSource, EntityManager } from 'typeorm';
import { readTextColumns } from '../../engine/data';
import { detectColumns, type ColumnFinding } from '../../engine/privacy';
import { DatasetVersion, PrivacyPolicy, PrivacyResult, PrivacySession } from '../../entities';
import { SESSION_NOT_FOUND } from '../../services/access';
import type { DatasetVersions } from '../../services/dataset-versions';
import { ConflictError, NotFoundError } from '../../services/errors';
import { effectiveRules, type RuleOf } from '../../services/privacy/effective-rules';
import type { PrivacyPolicyService } from '../../services/privacy/policies';
import type { JobProgress } from '../job-activity';

/** Cells a detection reads at most (rows × columns): memory stays bounded whatever the table's size. */
export const MAX_SCAN_CELLS = 5_000_000;

/** What a `privacy_detect` job returns (kept on its jobs row). */
export type PrivacyDetectResult = { session_id: string; rows_scanned: number; columns_analyzed: number; pii_columns: number; pii_instances: number };

/** What the privacy job bodies (detection here, transformation in ../privacy-transform/) read and write with. */
export interface PrivacyWorkDeps {
  ds: DataSource;
  datasetVersions: DatasetVersions;
  policies: PrivacyPolicyService;
}

export interface Detection {
  findings: ColumnFinding[];
  counts: Omit<PrivacyDetectResult, 'session_id'>;
}

/**
 * The `privacy_detect` job's work: reads the version (a `sample_size` sample of its rows, or all), runs column
 * detection (and cell detection with `deep_scan`) one column at a time, reporting each (a cancel stops it there), and
 * replaces the session's findings and counts in one transaction, only while this job still moves the session.
 */
export async function detectPii(deps: PrivacyWorkDeps, jobId: string, sessionId: string, progress: JobProgress): Promise<PrivacyDetectResult> {
  const session = await sessionForJob(deps.ds, sessionId);
  const detection = await detect(deps, session, progress, 0, 90);
  await progress(95, 'storing the findings');
  const ruleOf = await rulesOf(deps, session.policyId);
  await deps.ds.transaction(async (em) => {
    await claimSession(em, session.id, jobId, 'detecting');
    await storeFindings(em, session.id, detection, ruleOf);
  });
  return { session_id: session.id, ...detection.counts };
}

export async function sessionForJob(ds: DataSource, sessionId: string): Promise<PrivacySession> {
  const session = await ds.getRepository(PrivacySession).findOneBy({ id: sessionId });
  if (!session) throw new NotFoundError(SESSION_NOT_FOUND);
  return session;
}

/** Locks the session for this job's final write; a session canceled, failed or taken by another job refuses it. */
export async function claimSession(em: EntityManager, sessionId: string, jobId: string, status: 'detecting' | 'transforming'): Promise<void> {
  const rows: unknown[] = await em.query('SELECT id FROM privacy_sessions WHERE id = $1 AND job_id = $2 AND status = $3 FOR UPDATE', [sessionId, jobId, status]);
  if (!rows.length) throw new ConflictError(`The session is no longer ${status} under this job`);
}

/** The rule that applies to each PII type under the session's policy. */
export async function rulesOf({ ds, policies }: PrivacyWorkDeps, policyId: string): Promise<RuleOf> {
  const policy = await ds.getRepository(PrivacyPolicy).findOneBy({ id: policyId });
  if (!policy) throw new NotFoundError('Policy not found');
  return effectiveRules(policy, await policies.rulesOf(policyId));
}

/** The detection of a session's version, its progress reported from `from` to `to` percent, one column at a time. */
export async function detect({ ds, datasetVersions }: PrivacyWorkDeps, session: PrivacySession, progress: JobProgress, from: number, to: number): Promise<Detection> {
  const version = await ds.getRepository(DatasetVersion).findOneBy({ id: session.datasetVersionId });
  if (!version) throw new NotFoundError('Dataset version not found');
  // Detection holds the cells it scans as text: at most MAX_SCAN_CELLS of them, a row sample past that.
  const maxRows = Math.max(1, Math.floor(MAX_SCAN_CELLS / Math.max(1, version.columnCount)));
  const sampleRows = session.sampleSize ? Math.min(session.sampleSize, maxRows) : version.rowCount > maxRows ? maxRows : null;
  await progress(from + 2, sampleRows ? `reading a sample of ${sampleRows} rows` : 'reading the rows');
  const table = await readTextColumns(await datasetVersions.parquetPath(version), { sampleRows });
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

/** Replaces the session's findings and counts, in the caller's transaction (which holds the session's row). */
export async function storeFindings(em: EntityManager, sessionId: string, d: Detection, ruleOf: RuleOf): Promise<void> {
  // A user's per-session overrides outlive a new detection: the same column, type and scope keeps them.
  const previous = await em.getRepository(PrivacyResult).find({ select: { column: true, piiType: true, scope: true, excluded: true, actionOverride: true }, where: { sessionId } });
  const overrideOf = (f: ColumnFinding) => previous.find((p) => p.column === f.column && p.piiType === f.piiType && p.scope === f.scope);
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
      excluded: overrideOf(f)?.excluded ?? false,
      actionOverride: overrideOf(f)?.actionOverride ?? null,
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
