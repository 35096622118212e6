import type { DataSource } from 'typeorm';
import { Deployment } from '../../entities';
import type { Access } from '../access';
import type { InferenceLogs } from '../inference-logs';

/** One outcome as a label, a number (regression) or a flag; a batch predict request takes one per input row. */
export type ActualScalar = string | number | boolean;
export type Actual = ActualScalar | ActualScalar[];

export interface FeedbackItem {
  request_id: string;
  actual: Actual;
}

export interface FeedbackOutcome {
  /** Outcomes stored (new or replaced). */
  accepted: number;
  /** Of those, how many replaced an outcome sent before. */
  updated: number;
  /** Ids with no inference log of the deployment: refused, stored nowhere. */
  unknown_request_ids: string[];
}

/**
 * Ground truth: the actual outcomes of predictions, keyed by the request id predict answered (`X-Request-Id`), as
 * Seldon's feedback endpoint takes them. An outcome is stored under the deployment that served the request (a
 * staging deployment that took a share of production's traffic gets its own requests' outcomes), so each model's
 * accuracy is measured on what it predicted. Sending an id again replaces its outcome: a client may retry a batch.
 */
export class FeedbackService {
  constructor(
    private readonly ds: DataSource,
    private readonly access: Access,
    private readonly inferenceLogs: InferenceLogs,
  ) {}

  async record(userId: string, deploymentId: string, items: FeedbackItem[]): Promise<FeedbackOutcome> {
    const deployment = await this.access.deployment(userId, deploymentId);
    // The last outcome of an id repeated within one batch wins (one upsert cannot touch a row twice).
    const byId = new Map<string, Actual>();
    for (const item of items) byId.set(item.request_id, item.actual);
    const ids = [...byId.keys()];
    // A client that reports right after predicting expects its request to be known: write this process's buffer.
    await this.inferenceLogs.flush();
    const served = await this.servedBy(deployment, ids);
    const known = ids.filter((id) => served.has(id));
    let updated = 0;
    if (known.length) {
      const rows: { updated: boolean }[] = await this.ds.query(
        `INSERT INTO inference_feedback (deployment_id, request_id, project_id, actual, received_at)
         SELECT d, r, $4, a, now() FROM unnest($1::uuid[], $2::text[], $3::jsonb[]) AS t(d, r, a)
         ON CONFLICT (deployment_id, request_id) DO UPDATE SET actual = EXCLUDED.actual, received_at = EXCLUDED.received_at
         RETURNING (xmax <> 0) AS updated`,
        [known.map((id) => served.get(id)), known, known.map((id) => JSON.stringify(byId.get(id))), deployment.projectId],
      );
      updated = rows.filter((r) => r.updated).length;
    }
    return { accepted: known.length, updated, unknown_request_ids: ids.filter((id) => !served.has(id)) };
  }

  /**
   * Which deployment served each id among those addressed to `deployment` (or served by it): read through the
   * (deployment_id, request_id) index over the project's few deployments rather than a scan of the logs.
   */
  private async servedBy(deployment: Deployment, ids: string[]): Promise<Map<string, string>> {
    const project = await this.ds.getRepository(Deployment).find({ where: { projectId: deployment.projectId }, select: { id: true } });
    const rows: { request_id: string; deployment_id: string }[] = await this.ds.query(
      `SELECT DISTINCT ON (request_id) request_id, deployment_id FROM inference_logs
        WHERE deployment_id = ANY($1::uuid[]) AND request_id = ANY($2::text[]) AND (deployment_id = $3 OR requested_deployment_id = $3)
        ORDER BY request_id, id DESC`,
      [project.map((d) => d.id), ids, deployment.id],
    );
    return new Map(rows.map((r) => [r.request_id, r.deployment_id]));
  }
}
