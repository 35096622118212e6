import { Experiment, ExperimentLog, ExperimentWarning, Model } from '../../../entities';
import { AutoMLConfig, largerIsBetter, metricKey } from '../../../engine/automl';
import type { Block, Cell, Section } from '../../../engine/reports';
import { dataSummarySection } from '../data-sections';
import { fmt, heatmapAsTable, importanceHeatmap, modelSections, parametersBlock, scalarMetrics } from '../model-sections';
import { engineLogReading, HYPERPARAMETERS_READING, importanceReading, leaderboardReading, warningsReading } from '../readings';
import { inProject, KindContext, ReportKindDef } from './kind';

/** Engine-log lines quoted in the summary: the warnings and errors, at most this many. */
const MAX_LOG_LINES = 20;

/** An AutoML experiment: its data, leaderboard, trade-offs, importance across models, the best model in depth and the engine log. */
export const experimentKind: ReportKindDef = {
  kind: 'experiment',
  notFound: 'Experiment not found',
  exists: (ds, projectId, id) => inProject(ds, 'experiments', projectId, id),

  async build(ctx: KindContext) {
    const { ds, options: o } = ctx;
    const exp = await ds.getRepository(Experiment).findOneByOrFail({ id: ctx.entityId });
    const models = await ctx.experiments.leaderboard(exp);
    const config = exp.config as AutoMLConfig;
    const sortKey = metricKey(config.sort_metric);
    const best = models.find((m) => m.id === exp.bestModelId) ?? models[0] ?? null;
    const sections: Section[] = [];
    const warnings: ExperimentWarning[] = exp.warnings ?? [];

    if (warnings.length) sections.push(warningsSection(warnings));
    if (o.include_data_summary) sections.push(await dataSummarySection(ds, exp.datasetVersionId, exp.targetColumn, 'data-summary', ctx.profileVersion));
    if (!models.length) {
      sections.push({ id: 'leaderboard', title: 'Leaderboard', blocks: [{ type: 'note', text: `No model was trained (status ${exp.status}${exp.error ? `: ${exp.error}` : ''}).` }] });
    }
    if (models.length && o.include_leaderboard) {
      const blocks: Block[] = [leaderboardTable(models, sortKey, best)];
      if (o.include_charts) blocks.push(paretoChart(models, sortKey, largerIsBetter(config.sort_metric)));
      sections.push({ id: 'leaderboard', title: 'Leaderboard', reading: leaderboardReading({ models, sortKey, larger: largerIsBetter(config.sort_metric), best, warnings }), blocks });
    }
    if (models.length && o.include_feature_importance) {
      const heatmap = importanceHeatmap(models);
      if (heatmap) {
        sections.push({ id: 'importance', title: 'Variable importance', reading: importanceReading(heatmap.columnLabels, warnings), blocks: [o.include_charts ? heatmap : heatmapAsTable(heatmap)] });
      }
    }
    if (best) {
      const own = modelSections(best, o, 'best', { sortKey, warnings });
      if (own.length) sections.push({ id: 'best-model', title: `Best model: ${best.name}`, reading: bestSentence(best, sortKey, models.length), blocks: [], subsections: own });
    }
    if (models.length && o.include_hyperparameters) {
      const tables = models.map(parametersBlock).filter((b): b is Block => b !== null);
      if (tables.length) sections.push({ id: 'hyperparameters', title: 'Hyperparameters', reading: HYPERPARAMETERS_READING, blocks: tables });
    }
    sections.push(await engineLogSection(ctx, exp));

    return {
      entityName: exp.name,
      meta: [
        ['Experiment', exp.name],
        ['Target', `${exp.targetColumn} (${exp.problemKind})`],
        ['Status', exp.status],
        ['Sort metric', config.sort_metric],
        ['Budget', `${config.max_runtime_secs} s, at most ${config.max_models} models`],
      ],
      sections,
      facts: {
        experiment: exp.name,
        problem_kind: exp.problemKind,
        target: exp.targetColumn,
        sort_metric: config.sort_metric,
        models: models.length,
        warnings: warnings.map((w) => ({ kind: w.kind, column: w.column, measure: w.measure, score: w.score })),
        best_model: best ? { name: best.name, algo: best.algo, [sortKey]: best.metrics[sortKey] ?? null } : null,
        leaderboard: models.slice(0, 10).map((m) => ({ name: m.name, algo: m.algo, [sortKey]: m.metrics[sortKey] ?? null, training_time_ms: m.trainingTimeMs })),
      },
    };
  },
};

function leaderboardTable(models: Model[], sortKey: string, best: Model | null): Block {
  const keys = [
    sortKey,
    ...scalarMetrics(models[0])
      .map(([k]) => k)
      .filter((k) => k !== sortKey && k !== 'deviance'),
  ].slice(0, 6);
  const rows: Cell[][] = models.map((m, i) => [i + 1, m.name, m.algo, ...keys.map((k) => fmt(m.metrics[k])), fmt(m.trainingTimeMs / 1000, 2), fmt(m.predictTimePerRowMs, 4)]);
  const at = best ? models.indexOf(best) : -1;
  return { type: 'table', columns: ['rank', 'model', 'algorithm', ...keys, 'training s', 'predict ms/row'], rows, caption: `Ranked by ${sortKey}.`, ...(at >= 0 ? { highlightRow: at } : {}) };
}

/** Sort metric against training time; the front holds the models no other beats on both. */
function paretoChart(models: Model[], sortKey: string, larger: boolean): Block {
  const points = models.filter((m) => typeof m.metrics[sortKey] === 'number').map((m) => ({ x: m.trainingTimeMs / 1000, y: m.metrics[sortKey] as number }));
  const better = (a: number, b: number) => (larger ? a > b : a < b);
  const front = [...points].sort((a, b) => a.x - b.x).filter((p, i, sorted) => sorted.slice(0, i).every((q) => better(p.y, q.y)));
  return {
    type: 'chart',
    title: `Pareto front: ${sortKey} against training time`,
    chart: {
      type: 'scatter',
      data: {
        datasets: [
          { label: 'models', data: points },
          { label: 'Pareto front', data: front, showLine: true },
        ],
      },
      xLabel: 'training time (s)',
      yLabel: sortKey,
    },
    caption: 'A model is on the front when no faster model scores better.',
  };
}

function bestSentence(best: Model, sortKey: string, count: number): string {
  return `${best.name} (${best.algo}) leads ${count} model${count === 1 ? '' : 's'} with ${sortKey} ${fmt(best.metrics[sortKey])}, trained in ${fmt(best.trainingTimeMs / 1000, 2)} s and predicting in ${fmt(best.predictTimePerRowMs, 4)} ms a row.`;
}

async function engineLogSection(ctx: KindContext, exp: Experiment): Promise<Section> {
  const counts: { source: string; level: string; n: number }[] = await ctx.ds.query(
    'SELECT source, level, count(*)::int AS n FROM experiment_logs WHERE experiment_id = $1 GROUP BY 1, 2 ORDER BY 1, 2',
    [exp.id],
  );
  const notable = await ctx.ds
    .getRepository(ExperimentLog)
    .createQueryBuilder('l')
    .where('l.experiment_id = :id', { id: exp.id })
    .andWhere("l.level IN ('warn', 'error')")
    .orderBy('l.id', 'ASC')
    .limit(MAX_LOG_LINES)
    .getMany();
  const firstLast = await ctx.ds.query(
    `(SELECT message FROM experiment_logs WHERE experiment_id = $1 AND source = 'service' ORDER BY id ASC LIMIT 3)
     UNION ALL (SELECT message FROM experiment_logs WHERE experiment_id = $1 AND source = 'service' ORDER BY id DESC LIMIT 1)`,
    [exp.id],
  );
  const blocks: Block[] = [{ type: 'table', columns: ['source', 'level', 'lines'], rows: counts.map((c) => [c.source, c.level, c.n]) }];
  if (firstLast.length) blocks.push({ type: 'table', columns: ['service log (first and last lines)'], rows: firstLast.map((r: { message: string }) => [r.message]) });
  blocks.push(
    notable.length
      ? { type: 'table', columns: ['level', 'message'], rows: notable.map((l) => [l.level, l.message]), caption: `Warnings and errors (at most ${MAX_LOG_LINES}).` }
      : { type: 'note', text: 'The engine logged no warnings or errors.' },
  );
  const level = (l: string) => counts.filter((c) => c.level === l).reduce((a, c) => a + c.n, 0);
  return { id: 'engine-log', title: 'Engine log', reading: engineLogReading(level('warn'), level('error')), blocks };
}

/** The experiment's warnings (leakage found before training), first in the report: they change how every score reads. */
function warningsSection(warnings: ExperimentWarning[]): Section {
  return {
    id: 'warnings',
    title: 'Warnings',
    reading: warningsReading(warnings),
    blocks: [{ type: 'table', columns: ['kind', 'column', 'measure', 'score', 'message'], rows: warnings.map((w) => [w.kind, w.column, w.measure, fmt(w.score), w.message]) }],
  };
}
