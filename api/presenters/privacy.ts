import type { PrivacyResult, PrivacyRule } from '../../entities';
import type { PolicyView } from '../../services/privacy/policies';
import type { SessionView } from '../../services/privacy/sessions';
import type { Presented } from './common.schema';
import type { policySchema, resultSchema, ruleSchema, sessionSchema, sessionSummarySchema } from './privacy.schema';

/** The spec's privacy policy with its compliance figures (see services/privacy/effective-rules.ts). */
export function presentPolicy(v: PolicyView): Presented<typeof policySchema> {
  const p = v.policy;
  return {
    id: p.id,
    project_id: p.projectId,
    project_name: v.projectName,
    name: p.name,
    description: p.description,
    profile: p.profile,
    status: p.status,
    settings: p.settings,
    rules_count: v.rulesCount,
    ...v.figures,
    counts: v.counts.counts,
    counts_session_id: v.counts.session_id,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  };
}

/** The spec's rule; `enabled` echoes `is_enabled` as rule lists do. */
export function presentRule(r: PrivacyRule): Presented<typeof ruleSchema> {
  return { id: r.id, policy_id: r.policyId, pii_type: r.piiType, action: r.action, is_enabled: r.isEnabled, enabled: r.isEnabled, priority: r.priority, config: r.config, created_at: r.createdAt };
}

/** A session as lists show it. */
export function presentSessionSummary(v: SessionView): Presented<typeof sessionSummarySchema> {
  return {
    id: v.session.id,
    policy_name: v.policyName,
    dataset_name: v.datasetName,
    status: v.session.status,
    pii_found: v.piiFound,
    transformed: v.transformed,
    pending: v.counts.pending,
    excluded: v.counts.excluded,
    created_at: v.session.createdAt,
  };
}

/** The spec's privacy session; progress and its message are those of the job now (or last) moving it. */
export function presentSession(v: SessionView): Presented<typeof sessionSchema> {
  const s = v.session;
  return {
    ...presentSessionSummary(v),
    project_id: s.projectId,
    policy_id: s.policyId,
    dataset_id: s.datasetId,
    dataset_version_id: s.datasetVersionId,
    sample_size: s.sampleSize,
    deep_scan: s.deepScan,
    counts: v.counts,
    rows_scanned: s.rowsScanned,
    columns_analyzed: s.columnsAnalyzed,
    pii_columns: s.piiColumns,
    pii_instances: s.piiInstances,
    progress: v.progress,
    progress_message: v.progressMessage,
    error: s.error,
    output_artifact_id: s.outputArtifactId,
    job_id: s.jobId,
    detect_job_id: s.detectJobId,
    transform_job_id: s.transformJobId,
    updated_at: s.updatedAt,
  };
}

/** The spec's detection result: `sample` is the first masked sample; `action` is the session's (its override, else the policy's). */
export function presentResult(r: PrivacyResult): Presented<typeof resultSchema> {
  return {
    id: r.id,
    column: r.column,
    pii_type: r.piiType,
    scope: r.scope,
    confidence: r.confidence,
    instances: r.instances,
    sample: r.samples[0] ?? null,
    samples: r.samples,
    evidence: r.evidence,
    action: r.actionOverride ?? r.action,
    policy_action: r.action,
    action_override: r.actionOverride,
    excluded: r.excluded,
    transformed: r.transformed,
  };
}
