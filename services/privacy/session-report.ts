import type { DataSource } from 'typeorm';
import { confidenceBucket } from '../../engine/privacy';
import { Artifact } from '../../entities';
import { renderReport, reportFileName, type Block, type ReportDocument, type Section } from '../../engine/reports';
import type { ArtifactStore } from '../../platform/artifact-store';
import type { Config } from '../../platform/config';
import { NotFoundError } from '../errors';
import { llmInsightsSection } from '../reports/llm-insights';
import type { PrivacyPolicyService } from './policies';
import type { PrivacySessionService } from './sessions';

/** Findings listed at most (the most confident first, as results are ordered); the counts cover them all. */
const MAX_FINDINGS_LISTED = 500;

export const SESSION_REPORT_NOT_READY = 'Privacy report not available until the session is completed';

/**
 * `GET /api/privacy/sessions/{id}/report`: a PDF summary of a completed session through the
 * reports engine (what was scanned, every finding with its masked samples and the action taken,
 * the policy's compliance figures), stored as an artifact of the session.
 */
export class PrivacySessionReports {
  constructor(
    private readonly ds: DataSource,
    private readonly store: ArtifactStore,
    private readonly sessions: PrivacySessionService,
    private readonly policies: PrivacyPolicyService,
    private readonly config: Config,
  ) {}

  async make(userId: string, sessionId: string, aiInsights: boolean): Promise<{ artifact_id: string; download_url: string }> {
    const view = await this.sessions.get(userId, sessionId);
    const s = view.session;
    if (s.status !== 'completed') throw new NotFoundError(SESSION_REPORT_NOT_READY);
    const results = await this.sessions.results(userId, sessionId, {});
    const { view: policy } = await this.policies.get(userId, s.policyId);

    const byType = new Map<string, number>();
    for (const r of results) byType.set(r.piiType, (byType.get(r.piiType) ?? 0) + r.instances);
    const facts = {
      dataset: view.datasetName,
      policy: view.policyName,
      profile: policy.policy.profile,
      rows_scanned: s.rowsScanned,
      columns_analyzed: s.columnsAnalyzed,
      pii_columns: s.piiColumns,
      pii_instances: s.piiInstances,
      findings: results.slice(0, 50).map((r) => ({ column: r.column, pii_type: r.piiType, confidence: r.confidence, action: r.action, transformed: r.transformed })),
      compliance: policy.figures,
    };
    const sections: Section[] = [];
    if (aiInsights) sections.push(await llmInsightsSection(this.config.llm, 'privacy session', facts));
    sections.push({
      id: 'summary',
      title: 'Summary',
      blocks: [
        {
          type: 'keyValues',
          items: [
            ['rows scanned', s.rowsScanned],
            ['columns analyzed', s.columnsAnalyzed],
            ['columns with PII', s.piiColumns],
            ['PII instances', s.piiInstances],
            ['findings', results.length],
            ['transformed', results.filter((r) => r.transformed).length],
            ['pending (no action)', results.filter((r) => !r.action).length],
            ['compliance score', policy.figures.compliance_score === null ? null : `${policy.figures.compliance_score}%`],
          ],
        },
        { type: 'paragraph', text: `Sampled ${s.sampleSize === null ? 'every row' : `${s.sampleSize} rows`}${s.deepScan ? ', free text scanned cell by cell' : ''}.` },
      ],
    });
    const findings: Block[] = results.length
      ? [
          {
            type: 'table',
            columns: ['column', 'PII type', 'found in', 'confidence', 'bucket', 'instances', 'action', 'transformed', 'samples (masked)'],
            rows: results
              .slice(0, MAX_FINDINGS_LISTED)
              .map((r) => [
                r.column,
                r.piiType,
                r.scope === 'column' ? 'the column' : 'free text',
                r.confidence,
                confidenceBucket(r.confidence),
                r.instances,
                r.action ?? 'pending',
                r.transformed ? 'yes' : 'no',
                r.samples.join(', '),
              ]),
          },
          {
            type: 'chart',
            title: 'PII instances by type',
            chart: { type: 'bar', indexAxis: 'y', data: { labels: [...byType.keys()], datasets: [{ label: 'instances', data: [...byType.values()] }] }, xLabel: 'instances' },
          },
        ]
      : [{ type: 'note', text: 'No PII was found.' }];
    sections.push({ id: 'findings', title: 'Findings', blocks: findings });

    const doc: ReportDocument = {
      title: `Privacy report: ${view.datasetName}`,
      generatedAt: new Date().toISOString(),
      meta: [
        ['Kind', 'privacy'],
        ['Dataset', view.datasetName],
        ['Policy', `${view.policyName} (${policy.policy.profile})`],
        ['Session', s.id],
      ],
      sections,
    };
    const rendered = await renderReport(doc, 'pdf');
    const filename = reportFileName(doc, 'pdf');
    const stored = await this.store.put(s.projectId, filename, rendered.bytes);
    const repo = this.ds.getRepository(Artifact);
    const artifact = repo.create({
      projectId: s.projectId,
      kind: 'privacy_report',
      ownerType: 'privacy_session',
      ownerId: s.id,
      filename,
      contentType: rendered.contentType,
      sizeBytes: stored.sizeBytes,
      sha256: stored.sha256,
      storageKey: stored.storageKey,
    });
    try {
      await repo.insert(artifact);
    } catch (err) {
      await this.store.remove(stored.storageKey);
      throw err;
    }
    return { artifact_id: artifact.id, download_url: `/api/artifacts/${artifact.id}/download` };
  }
}
