import { Deployment, DeploymentTransition, DriftResult, Model } from '../../../entities';
import type { Block, Cell, Section } from '../../../engine/reports';
import { fmt } from '../model-sections';
import { driftReading, TRANSITIONS_READING, trafficReading } from '../readings';
import { inProject, KindContext, ReportKindDef } from './kind';

/** The traffic window a deployment report covers, ending now. */
const TRAFFIC_DAYS = 7;
/** Drift runs charted (the newest), and features followed across them (the most drifted). */
const DRIFT_RUNS = 30;
const DRIFT_FEATURES = 8;
/** Features listed with their latest PSI, the most drifted first. */
const MAX_FEATURES_LISTED = 50;

/** A deployment in production: traffic, latency percentiles, errors, drift per feature over time and its transitions. */
export const deploymentKind: ReportKindDef = {
  kind: 'deployment',
  notFound: 'Deployment not found',
  exists: (ds, projectId, id) => inProject(ds, 'deployments', projectId, id),

  async build(ctx: KindContext) {
    const { ds, options: o } = ctx;
    const d = await ds.getRepository(Deployment).findOneByOrFail({ id: ctx.entityId });
    const model = await ds.getRepository(Model).findOneBy({ id: d.modelId });
    const until = new Date();
    const since = new Date(until.getTime() - TRAFFIC_DAYS * 86_400_000);
    const hours: { hour: Date; requests: number; errors: number; p50: number; p95: number; p99: number }[] = await ds.query(
      `SELECT date_trunc('hour', created_at) AS hour, count(*)::int AS requests, (count(*) FILTER (WHERE status_code >= 400))::int AS errors,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY latency_ms) AS p50, percentile_cont(0.95) WITHIN GROUP (ORDER BY latency_ms) AS p95,
              percentile_cont(0.99) WITHIN GROUP (ORDER BY latency_ms) AS p99
         FROM inference_logs WHERE deployment_id = $1 AND created_at >= $2 AND created_at < $3 GROUP BY 1 ORDER BY 1`,
      [d.id, since, until],
    );
    const requests = hours.reduce((n, h) => n + h.requests, 0);
    const errors = hours.reduce((n, h) => n + h.errors, 0);
    const [overall] = await ds.query(
      `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY latency_ms) AS p50, percentile_cont(0.95) WITHIN GROUP (ORDER BY latency_ms) AS p95,
              percentile_cont(0.99) WITHIN GROUP (ORDER BY latency_ms) AS p99
         FROM inference_logs WHERE deployment_id = $1 AND created_at >= $2 AND created_at < $3`,
      [d.id, since, until],
    );
    const sections: Section[] = [];

    const trafficBlocks: Block[] = [
      {
        type: 'keyValues',
        items: [
          ['window', `${since.toISOString().slice(0, 16)} to ${until.toISOString().slice(0, 16)} UTC`],
          ['requests', requests],
          ['errors', errors],
          ['error rate', requests ? fmt(errors / requests) : null],
          ['latency p50 ms', fmt(overall?.p50, 3)],
          ['latency p95 ms', fmt(overall?.p95, 3)],
          ['latency p99 ms', fmt(overall?.p99, 3)],
        ],
      },
    ];
    if (!hours.length) trafficBlocks.push({ type: 'note', text: `No requests in the last ${TRAFFIC_DAYS} days.` });
    else {
      const labels = hours.map((h) => new Date(h.hour).toISOString().slice(5, 13).replace('T', ' ') + 'h');
      if (o.include_charts) {
        trafficBlocks.push({
          type: 'chart',
          title: 'Requests and errors per hour',
          chart: {
            type: 'bar',
            data: {
              labels,
              datasets: [
                { label: 'requests', data: hours.map((h) => h.requests) },
                { label: 'errors', data: hours.map((h) => h.errors) },
              ],
            },
            yLabel: 'requests',
          },
        });
        trafficBlocks.push({
          type: 'chart',
          title: 'Latency percentiles per hour',
          chart: { type: 'line', data: { labels, datasets: (['p50', 'p95', 'p99'] as const).map((p) => ({ label: p, data: hours.map((h) => fmt(h[p], 3) as number) })) }, yLabel: 'ms' },
        });
      }
      const table: Cell[][] = hours.slice(-48).map((h) => [new Date(h.hour).toISOString().slice(0, 13) + ':00', h.requests, h.errors, fmt(h.p50, 3), fmt(h.p95, 3), fmt(h.p99, 3)]);
      trafficBlocks.push({
        type: 'table',
        columns: ['hour (UTC)', 'requests', 'errors', 'p50 ms', 'p95 ms', 'p99 ms'],
        rows: table,
        caption: hours.length > 48 ? 'The last 48 hours with traffic.' : undefined,
      });
    }
    const p95 = overall?.p95 === null || overall?.p95 === undefined ? null : Number(overall.p95);
    sections.push({ id: 'traffic', title: 'Traffic, latency and errors', reading: trafficReading({ requests, errors, p95, days: TRAFFIC_DAYS }), blocks: trafficBlocks });

    const runs = (await ds.getRepository(DriftResult).find({ where: { deploymentId: d.id }, order: { computedAt: 'DESC', id: 'DESC' }, take: DRIFT_RUNS })).reverse();
    const newest = runs[runs.length - 1];
    const drifted = newest
      ? Object.entries(newest.features as Record<string, { psi: number; status: string }>)
          .filter(([, v]) => v.status !== 'low')
          .sort((a, b) => b[1].psi - a[1].psi)
          .map(([f]) => f)
      : [];
    sections.push({
      id: 'drift',
      title: 'Drift',
      reading: driftReading({ status: newest?.overallStatus ?? null, maxPsi: newest?.maxPsi ?? null, drifted }),
      blocks: driftBlocks(runs, o.include_charts),
    });

    const transitions = await ds.getRepository(DeploymentTransition).find({ where: { deploymentId: d.id }, order: { at: 'ASC', id: 'ASC' } });
    sections.push({
      id: 'history',
      title: 'Transition history',
      reading: TRANSITIONS_READING,
      blocks: [
        {
          type: 'table',
          columns: ['when (UTC)', 'from', 'to', 'model', 'reason'],
          rows: transitions.map((t) => [t.at.toISOString().slice(0, 19).replace('T', ' '), t.fromStage, t.toStage, t.modelId === model?.id ? model.name : t.modelId, t.reason]),
        },
      ],
    });

    const latest = runs[runs.length - 1];
    return {
      entityName: d.name,
      meta: [
        ['Deployment', d.name],
        ['Stage', `${d.stage}${d.isActive ? '' : ' (inactive)'}`],
        ['Model', model ? `${model.name} (${model.algo})` : d.modelId],
        ['Traffic share', `${d.trafficPercent}%`],
      ],
      sections,
      facts: {
        deployment: d.name,
        stage: d.stage,
        requests_last_7_days: requests,
        error_rate: requests ? errors / requests : null,
        latency_ms: overall ? { p50: overall.p50, p95: overall.p95, p99: overall.p99 } : null,
        latest_drift: latest ? { overall_status: latest.overallStatus, max_psi: latest.maxPsi, computed_at: latest.computedAt } : null,
      },
    };
  },
};

function driftBlocks(runs: DriftResult[], charts: boolean): Block[] {
  if (!runs.length) return [{ type: 'note', text: 'No drift run yet.' }];
  const latest = runs[runs.length - 1];
  const features = Object.entries(latest.features as Record<string, { psi: number; status: string }>).sort((a, b) => b[1].psi - a[1].psi);
  const blocks: Block[] = [
    {
      type: 'keyValues',
      items: [
        ['latest run', latest.computedAt.toISOString().slice(0, 19).replace('T', ' ')],
        ['overall', latest.overallStatus],
        ['max PSI', fmt(latest.maxPsi)],
        ['inference rows', latest.inferenceRows],
      ],
    },
    {
      type: 'table',
      columns: ['feature', 'PSI', 'status'],
      rows: features.slice(0, MAX_FEATURES_LISTED).map(([f, v]) => [f, fmt(v.psi), v.status]),
      caption: `PSI below 0.1 is low, below 0.25 moderate, above that high.${features.length > MAX_FEATURES_LISTED ? ` The ${MAX_FEATURES_LISTED} most drifted of ${features.length} features.` : ''}`,
    },
  ];
  if (charts && runs.length > 1) {
    const followed = features.slice(0, DRIFT_FEATURES).map(([f]) => f);
    blocks.push({
      type: 'chart',
      title: 'PSI per feature over time',
      chart: {
        type: 'line',
        data: {
          labels: runs.map((r) => r.computedAt.toISOString().slice(5, 16).replace('T', ' ')),
          datasets: followed.map((f) => ({ label: f, data: runs.map((r) => (r.features as Record<string, { psi: number }>)[f]?.psi ?? null) })),
        },
        yLabel: 'PSI',
      },
    });
  }
  return blocks;
}
