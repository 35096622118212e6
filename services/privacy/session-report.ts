import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { confidenceBucket } from '../../engine/privacy';
import { Artifact, type PrivacyResult, type PrivacySession } from '../../entities';
import { renderReportInThread, reportFileName, type Block, type ReportDocument, type Section } from '../../engine/reports';
import { SingleFlight } from '../../platform/single-flight';
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
 * the session's counts from finding-counts.ts, the same its page and its policy's page show), stored as an artifact of the session. A content is rendered
 * once: the file is keyed by everything it shows (the session's results, the policy's figures,
 * whether AI insights were asked for), later calls, a viewer's too, answer the stored artifact,
 * and calls that arrive while it renders wait for that one rendering.
 */
export class PrivacySessionReports {
  /** Renders in progress in this process, by session and content. */
  private readonly rendering = new SingleFlight<string>();

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
      findings: results.slice(0, 50).map((r) => ({ column: r.column, pii_type: r.piiType, confidence: r.confidence, action: sessionAction(r), transformed: r.transformed })),
      counts: view.counts,
    };
    const sections: Section[] = [];
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
            // The session's counts as its page and its policy's page show them (finding-counts.ts).
            ['findings', view.counts.findings],
            ['transformed', view.counts.transformed],
            ['pending', view.counts.pending],
            ['pending without an action', view.counts.without_action],
            ['excluded for this session', view.counts.excluded],
            ['compliance score', `${view.counts.compliance_score}%`],
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
                sessionAction(r) ?? 'none',
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
    // Everything the file shows but the time it was made, and what AI insights would be written from.
    const key = createHash('sha256')
      .update(JSON.stringify({ v: 2, aiInsights, facts, doc: { ...doc, generatedAt: null } }))
      .digest('hex');
    const artifactId = (await this.storedReport(s.id, key)) ?? (await this.rendering.run(`${s.id}:${key}`, () => this.render(s, key, doc, aiInsights, facts)));
    return { artifact_id: artifactId, download_url: `/api/artifacts/${artifactId}/download` };
  }

  /** The artifact already made for this content of the session's report, if any. */
  private async storedReport(sessionId: string, key: string): Promise<string | null> {
    const [row] = await this.ds.query('SELECT artifact_id FROM privacy_session_reports WHERE session_id = $1 AND content_key = $2', [sessionId, key]);
    return row ? (row.artifact_id as string) : null;
  }

  /**
   * Renders the report in a thread of its own (not on the API's event loop) and stores it as the
   * one file of this content. Another API process may have stored the same content meanwhile: the
   * key's primary key lets one win, and the loser keeps no file.
   */
  private async render(s: PrivacySession, key: string, doc: ReportDocument, aiInsights: boolean, facts: object): Promise<string> {
    const again = await this.storedReport(s.id, key);
    if (again) return again;
    if (aiInsights) doc = { ...doc, sections: [await llmInsightsSection(this.config.llm, 'privacy session', facts), ...doc.sections] };
    const rendered = await renderReportInThread(doc, 'pdf');
    const filename = reportFileName(doc, 'pdf');
    const stored = await this.store.put(s.projectId, filename, rendered.bytes);
    try {
      const kept = await this.ds.transaction(async (em) => {
        const artifact = em.getRepository(Artifact).create({
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
        await em.getRepository(Artifact).insert(artifact);
        const won = await em.query(
          'INSERT INTO privacy_session_reports (session_id, content_key, artifact_id) VALUES ($1, $2, $3) ON CONFLICT (session_id, content_key) DO NOTHING RETURNING artifact_id',
          [s.id, key, artifact.id],
        );
        if (!won.length) throw new LostRace();
        return artifact.id;
      });
      return kept;
    } catch (err) {
      await this.store.remove(stored.storageKey);
      if (!(err instanceof LostRace)) throw err;
      const winner = await this.storedReport(s.id, key);
      if (!winner) throw new Error('privacy report stored by another process is gone', { cause: err });
      return winner;
    }
  }
}

/** What the session does to a finding: excluded, its override, or the policy's action (null: none). */
function sessionAction(r: PrivacyResult): string | null {
  return r.excluded ? 'excluded' : (r.actionOverride ?? r.action);
}

/** Another process stored this content's report first (rolls back this one's artifact row). */
class LostRace extends Error {}
