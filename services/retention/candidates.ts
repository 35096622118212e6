import type { EntityManager } from 'typeorm';
import type { RetentionAction, RetentionKind } from '../../entities';

/**
 * What a retention policy would take, as SQL: the one definition the dry run counts and the job works through, so a
 * run takes exactly what a dry run at the same moment said (given the same rows). Every rule of what must stay is
 * here, in the query, not in the code that applies it.
 */

/** The rule of one policy, at one moment (`asOf`: the job's creation, so a retried attempt cuts at the same time). */
export interface RetentionRule {
  kind: RetentionKind;
  action: RetentionAction;
  keepDays: number | null;
  keepLatest: number | null;
  asOf: Date;
}

/**
 * The newest logged payloads of a deployment that a drift run compares (MAX_DRIFT_ROWS in
 * activities/drift-compute/compute.ts, which services cannot import; a test keeps the two equal): an active
 * deployment's drift window, never deleted nor anonymized.
 */
export const DRIFT_WINDOW_LOGS = 50_000;

/** Which kinds a policy may anonymize rather than delete: those with personal parts to blank (README, Retention). */
export const ANONYMIZABLE: Record<RetentionKind, string | null> = {
  inference_logs: "the request's input rows (`inputs`)",
  audit_entries: 'the client address and user agent',
  experiment_logs: null,
  dataset_versions: null,
  reports: null,
  synthetic_outputs: null,
};

interface Query {
  /** SELECT of the candidates' `id` (and `at`, the time they are ordered by), in their table's own types. */
  sql: string;
  params: unknown[];
}

function cutoff(r: RetentionRule): Date {
  return new Date(r.asOf.getTime() - (r.keepDays ?? 0) * 86_400_000);
}

/**
 * `alias.id` beyond the newest `keepLatest` of each owner (`partition`), or older than `keepDays`: `$1` is the bound
 * value. `order` ranks newest first within an owner.
 */
function ageClause(r: RetentionRule, table: string, alias: string, partition: string, order: string, createdAt = 'created_at'): { clause: string; value: unknown } {
  if (r.keepLatest !== null) {
    return {
      clause: `${alias}.id IN (SELECT ranked.id FROM (SELECT id, row_number() OVER (PARTITION BY ${partition} ORDER BY ${order}) AS rn FROM ${table}) ranked WHERE ranked.rn > $1)`,
      value: r.keepLatest,
    };
  }
  return { clause: `${alias}.${createdAt} < $1`, value: cutoff(r) };
}

/** Dataset versions something still uses: an experiment (so its models), a synthesizer, a privacy session, a drift result, a registry version, a retraining. */
const USED_VERSIONS = `SELECT dataset_version_id FROM experiments
  UNION SELECT dataset_version_id FROM synthgen_models
  UNION SELECT dataset_version_id FROM privacy_sessions
  UNION SELECT dataset_version_id FROM drift_results
  UNION SELECT dataset_version_id FROM registry_versions WHERE dataset_version_id IS NOT NULL
  UNION SELECT dataset_version_id FROM retraining_jobs WHERE dataset_version_id IS NOT NULL
  UNION SELECT training_version_id FROM retraining_jobs WHERE training_version_id IS NOT NULL`;

const OPEN = `('queued','running')`;

/** The candidates of every kind but audit entries (see {@link auditCutoff}). */
function candidates(r: RetentionRule): Query {
  switch (r.kind) {
    case 'inference_logs': {
      const age = ageClause(r, 'inference_logs', 'l', 'deployment_id', 'id DESC');
      return {
        sql: `SELECT l.id, l.created_at AS at FROM inference_logs l
          WHERE ${age.clause} ${r.action === 'anonymize' ? 'AND l.inputs IS NOT NULL' : ''}
            AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.kind = 'drift_compute' AND j.status IN ${OPEN} AND j.entity_id = l.deployment_id)
            AND l.id NOT IN (SELECT w.id FROM deployments d CROSS JOIN LATERAL (
              SELECT x.id FROM inference_logs x WHERE x.deployment_id = d.id AND x.inputs IS NOT NULL AND x.status_code = 200 ORDER BY x.id DESC LIMIT $2) w
              WHERE d.stage <> 'archived')`,
        params: [age.value, DRIFT_WINDOW_LOGS],
      };
    }
    case 'experiment_logs': {
      const age = ageClause(r, 'experiment_logs', 'l', 'experiment_id', 'id DESC');
      return {
        sql: `SELECT l.id, l.created_at AS at FROM experiment_logs l
          WHERE ${age.clause} AND NOT EXISTS (SELECT 1 FROM experiments e WHERE e.id = l.experiment_id AND e.status IN ${OPEN})`,
        params: [age.value],
      };
    }
    case 'dataset_versions': {
      const age = ageClause(r, 'dataset_versions', 'v', 'dataset_id', 'version DESC');
      return {
        sql: `SELECT v.id, v.created_at AS at FROM dataset_versions v
          WHERE ${age.clause}
            AND v.version < (SELECT max(y.version) FROM dataset_versions y WHERE y.dataset_id = v.dataset_id)
            AND v.id NOT IN (${USED_VERSIONS})
            AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.kind = 'dataset_profile' AND j.status IN ${OPEN} AND j.entity_id = v.id)`,
        params: [age.value],
      };
    }
    case 'reports': {
      const age = ageClause(r, 'reports', 'rp', 'project_id, kind, entity_id', 'created_at DESC, id DESC');
      return { sql: `SELECT rp.id, rp.created_at AS at FROM reports rp WHERE ${age.clause} AND rp.status NOT IN ${OPEN}`, params: [age.value] };
    }
    case 'synthetic_outputs': {
      // Generations that still hold an output; the job row stays (its download answers 409, as for any lost output).
      const age = ageClause(
        r,
        `(SELECT * FROM synthgen_jobs WHERE job_type = 'generate' AND (output_artifact_id IS NOT NULL OR parquet_artifact_id IS NOT NULL)) g`,
        's',
        'model_id',
        'created_at DESC, id DESC',
      );
      return {
        sql: `SELECT s.id, s.created_at AS at FROM synthgen_jobs s
          WHERE s.job_type = 'generate' AND (s.output_artifact_id IS NOT NULL OR s.parquet_artifact_id IS NOT NULL)
            AND s.status IN ('completed','failed') AND ${age.clause}`,
        params: [age.value],
      };
    }
    case 'audit_entries':
      throw new Error('Audit entries are selected through auditCutoff');
  }
}

/**
 * Audit entries go by time only (services/audit/retention.ts deletes those before a time), so both rules become one
 * cutoff: `keep_days` before `asOf`, `keep_latest` the time of the newest entry not kept, to the millisecond (what a
 * Date holds; entries in that millisecond stay, so at least `keep_latest` are kept). Null: nothing goes.
 */
export async function auditCutoff(em: EntityManager, r: RetentionRule): Promise<Date | null> {
  if (r.keepLatest === null) return cutoff(r);
  const [row] = (await em.query(`SELECT date_trunc('milliseconds', created_at) AS at FROM audit_log ORDER BY created_at DESC OFFSET $1 - 1 LIMIT 1`, [r.keepLatest])) as { at: Date }[];
  return row?.at ?? null;
}

async function query(em: EntityManager, r: RetentionRule): Promise<Query> {
  if (r.kind !== 'audit_entries') return candidates(r);
  const before = await auditCutoff(em, r);
  const anonymize = r.action === 'anonymize' ? 'AND (a.ip IS NOT NULL OR a.user_agent IS NOT NULL)' : '';
  return { sql: `SELECT a.id, a.created_at AS at FROM audit_log a WHERE a.created_at < $1 ${anonymize}`, params: [before ?? new Date(0)] };
}

/** How many rows the rule takes, and the first `sample` of their ids (oldest first). */
export async function countCandidates(em: EntityManager, r: RetentionRule, sample: number): Promise<{ count: number; sample_ids: string[] }> {
  const q = await query(em, r);
  const [{ n }] = (await em.query(`SELECT count(*)::int AS n FROM (${q.sql}) c`, q.params)) as { n: number }[];
  const ids = (await em.query(`SELECT c.id::text AS id FROM (${q.sql}) c ORDER BY c.at, c.id LIMIT ${Math.floor(sample)}`, q.params)) as { id: string }[];
  return { count: n, sample_ids: ids.map((x) => x.id) };
}

/** The next `limit` candidates, oldest first: a batch the job applies in one transaction. */
export async function nextCandidates(em: EntityManager, r: RetentionRule, limit: number): Promise<{ id: string; at: Date }[]> {
  const q = await query(em, r);
  return (await em.query(`SELECT c.id::text AS id, c.at FROM (${q.sql}) c ORDER BY c.at, c.id LIMIT ${Math.floor(limit)}`, q.params)) as { id: string; at: Date }[];
}
