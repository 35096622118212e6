import { Project } from '../../../entities';
import type { Block, Section } from '../../../engine/reports';
import { fmt } from '../model-sections';
import { projectBestReading, projectDatasetsReading, projectDeploymentsReading, projectExperimentsReading } from '../readings';
import { KindContext, ReportKindDef } from './kind';

/** Datasets, experiments and deployments listed at most (the newest): a document stays readable and bounded. */
const MAX_LISTED = 200;

/** A whole project: datasets and their quality, the experiments over time, the best models, deployments and their latest drift. */
export const projectKind: ReportKindDef = {
  kind: 'project',
  notFound: 'Project not found',
  exists: async (ds, projectId, id) => projectId === id && (await ds.getRepository(Project).existsBy({ id })),

  async build(ctx: KindContext) {
    const { ds, options: o } = ctx;
    const project = await ds.getRepository(Project).findOneByOrFail({ id: ctx.projectId });
    const datasets: { name: string; versions: number; rows: number; columns: number; score: number | null; created_at: Date }[] = await ds.query(
      `SELECT d.name, (SELECT count(*)::int FROM dataset_versions v WHERE v.dataset_id = d.id) AS versions, lv.row_count::float8 AS rows, lv.column_count AS columns,
              (lv.quality->>'overall_score')::float8 AS score, d.created_at
         FROM datasets d
         LEFT JOIN LATERAL (SELECT * FROM dataset_versions v WHERE v.dataset_id = d.id ORDER BY v.version DESC LIMIT 1) lv ON true
        WHERE d.project_id = $1 ORDER BY d.created_at DESC LIMIT ${MAX_LISTED}`,
      [project.id],
    );
    const experiments: {
      name: string;
      status: string;
      problem_kind: string;
      target_column: string;
      created_at: Date;
      models: number;
      best: string | null;
      best_algo: string | null;
      metric: string;
      value: number | null;
      leaked: string[] | null;
    }[] = await ds.query(
      `SELECT e.name, e.status, (SELECT array_agg(w->>'column') FROM jsonb_array_elements(COALESCE(e.warnings, '[]'::jsonb)) w WHERE w->>'kind' = 'leakage') AS leaked, e.problem_kind, e.target_column, e.created_at, (SELECT count(*)::int FROM models m WHERE m.experiment_id = e.id) AS models,
                b.name AS best, b.algo AS best_algo, e.config->>'sort_metric' AS metric,
                (b.metrics->>(lower(CASE e.config->>'sort_metric' WHEN 'MCC' THEN 'mcc' ELSE e.config->>'sort_metric' END)))::float8 AS value
           FROM experiments e LEFT JOIN models b ON b.id = e.best_model_id
          WHERE e.project_id = $1 ORDER BY e.created_at DESC LIMIT ${MAX_LISTED}`,
      [project.id],
    );
    const deployments: { name: string; stage: string; is_active: boolean; model: string | null; status: string | null; max_psi: number | null; computed_at: Date | null }[] = await ds.query(
      `SELECT d.name, d.stage, d.is_active, m.name AS model, r.overall_status AS status, r.max_psi, r.computed_at
         FROM deployments d LEFT JOIN models m ON m.id = d.model_id
         LEFT JOIN LATERAL (SELECT * FROM drift_results r WHERE r.deployment_id = d.id ORDER BY r.computed_at DESC, r.id DESC LIMIT 1) r ON true
        WHERE d.project_id = $1 ORDER BY d.is_active DESC, d.created_at DESC LIMIT ${MAX_LISTED}`,
      [project.id],
    );

    // Newest first from the database (the bound keeps the newest); read in time order.
    datasets.reverse();
    experiments.reverse();
    const sections: Section[] = [];
    if (o.include_data_summary) {
      sections.push({
        id: 'datasets',
        title: 'Datasets and their quality',
        reading: projectDatasetsReading(datasets),
        blocks: datasets.length
          ? [{ type: 'table', columns: ['dataset', 'versions', 'rows (latest)', 'columns', 'quality score'], rows: datasets.map((d) => [d.name, d.versions, d.rows, d.columns, fmt(d.score, 1)]) }]
          : [{ type: 'note', text: 'No datasets yet.' }],
      });
    }
    const timeline: Block[] = experiments.length
      ? [
          {
            type: 'table',
            columns: ['created (UTC)', 'experiment', 'target', 'status', 'models'],
            rows: experiments.map((e) => [new Date(e.created_at).toISOString().slice(0, 16).replace('T', ' '), e.name, `${e.target_column} (${e.problem_kind})`, e.status, e.models]),
          },
        ]
      : [{ type: 'note', text: 'No experiments yet.' }];
    // One bar says nothing a table row does not: the chart is drawn once there are experiments to compare.
    if (experiments.length > 1 && o.include_charts) {
      timeline.push({
        type: 'chart',
        title: 'Models trained per experiment, in order',
        chart: { type: 'bar', data: { labels: experiments.map((e) => e.name), datasets: [{ label: 'models', data: experiments.map((e) => e.models) }] }, yLabel: 'models' },
      });
    }
    sections.push({ id: 'experiments', title: 'Experiments timeline', reading: projectExperimentsReading(experiments), blocks: timeline });
    const withBest = experiments.filter((e) => e.best);
    if (o.include_leaderboard) {
      sections.push({
        id: 'best-models',
        title: 'Best models',
        reading: projectBestReading(withBest.map((e) => ({ name: e.name, metric: e.metric, value: e.value, leaked: e.leaked ?? [] }))),
        blocks: withBest.length
          ? [
              {
                type: 'table',
                columns: ['experiment', 'best model', 'algorithm', 'sort metric', 'value', 'warnings'],
                rows: withBest.map((e) => [e.name, e.best, e.best_algo, e.metric, fmt(e.value), e.leaked?.length ? `possible leakage: ${e.leaked.join(', ')}` : null]),
              },
            ]
          : [{ type: 'note', text: 'No experiment has a best model yet.' }],
      });
    }
    sections.push({
      id: 'deployments',
      title: 'Deployments and their latest drift',
      reading: projectDeploymentsReading(deployments),
      blocks: deployments.length
        ? [
            {
              type: 'table',
              columns: ['deployment', 'stage', 'model', 'drift', 'max PSI', 'drift computed (UTC)'],
              rows: deployments.map((d) => [
                d.name,
                d.is_active ? d.stage : `${d.stage} (inactive)`,
                d.model,
                d.status ?? 'not computed',
                fmt(d.max_psi),
                d.computed_at ? new Date(d.computed_at).toISOString().slice(0, 16).replace('T', ' ') : null,
              ]),
            },
          ]
        : [{ type: 'note', text: 'Nothing deployed yet.' }],
    });
    return {
      entityName: project.name,
      // The project's name is in the shared meta already (activities/report-generate).
      meta: [
        ['Datasets', String(datasets.length)],
        ['Experiments', String(experiments.length)],
        ['Deployments', String(deployments.filter((d) => d.is_active).length) + ' active'],
      ],
      sections,
      facts: {
        project: project.name,
        datasets: datasets.map((d) => ({ name: d.name, quality_score: d.score })),
        best_models: withBest.map((e) => ({ experiment: e.name, model: e.best, [e.metric]: e.value })),
        deployments: deployments.map((d) => ({ name: d.name, stage: d.stage, drift: d.status })),
      },
    };
  },
};
