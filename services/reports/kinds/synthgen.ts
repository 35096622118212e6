import { SynthgenJob, SynthgenModel } from '../../../entities';
import { formatNumber, type Block, type Cell, type Section } from '../../../engine/reports';
import { dataSummarySection } from '../data-sections';
import { fmt } from '../model-sections';
import { inProject, KindContext, ReportKindDef } from './kind';

/** Columns and pairs listed in the tables (the worst scores first past these). */
const MAX_COLUMNS_LISTED = 60;
const MAX_PAIRS_LISTED = 60;
/** Columns drawn as real-against-synthetic charts (the job keeps at most 30 distributions). */
const MAX_CHARTS = 12;

interface Distribution {
  column: string;
  kind: string;
  labels: (string | number)[];
  real: number[];
  synthetic: number[];
  missing: { real: number; synthetic: number };
}

/**
 * A synthgen generation job: the model and its training data, the quality report (SDMetrics' column shapes and
 * column-pair trends, overall score), real against synthetic distributions per column, and the privacy check.
 */
export const synthgenKind: ReportKindDef = {
  kind: 'synthgen',
  notFound: 'Synthgen job not found',
  exists: (ds, projectId, id) => inProject(ds, 'synthgen_jobs', projectId, id),

  async build(ctx: KindContext) {
    const { ds, options: o } = ctx;
    const job = await ds.getRepository(SynthgenJob).findOneByOrFail({ id: ctx.entityId });
    const model = await ds.getRepository(SynthgenModel).findOneByOrFail({ id: job.modelId });
    const quality = job.quality as QualityDoc | null;
    const privacy = job.privacy as Record<string, unknown> | null;
    const sections: Section[] = [];

    sections.push({
      id: 'job',
      title: job.jobType === 'generate' ? 'Generation' : 'Training',
      reading:
        job.jobType === 'generate'
          ? `This job drew ${count(job.rowsGenerated)} synthetic rows from ${model.name}, a ${model.modelType} model trained on ${count(model.trainingRows)} real rows; the same seed and conditions give the same rows again.${job.error ? ` It failed: ${job.error}` : ''}`
          : `This job trained ${model.name}, a ${model.modelType} model, on ${count(model.trainingRows)} real rows, keeping ${count(model.holdoutRows)} aside to check later that synthetic rows do not copy training rows.${job.error ? ` It failed: ${job.error}` : ''}`,
      blocks: [
        {
          type: 'keyValues',
          items: [
            ['model', `${model.name} (${model.modelType})`],
            ['job type', job.jobType],
            ['status', job.status],
            ['error', job.error],
            ['rows generated', job.rowsGenerated],
            ['seed', (job.config.seed as Cell) ?? null],
            ['conditions', job.config.conditions && Object.keys(job.config.conditions).length ? JSON.stringify(job.config.conditions) : 'none'],
            ['training rows', model.trainingRows],
            ['holdout rows', model.holdoutRows],
            ['training time s', fmt(model.trainingSecs, 1)],
          ],
        },
        ...(o.include_hyperparameters ? [{ type: 'table' as const, columns: ['option', 'value'], rows: Object.entries(model.config).map(([k, v]): Cell[] => [k, JSON.stringify(v)]) }] : []),
      ],
    });

    if (o.include_data_summary) sections.push(await dataSummarySection(ds, model.datasetVersionId, null, 'training-data', ctx.profileVersion));

    if (!quality) {
      sections.push({
        id: 'quality',
        title: 'Quality',
        blocks: [{ type: 'note', text: job.jobType === 'generate' ? `No quality report: the job is ${job.status}.` : 'Training jobs have no quality report; generate rows to get one.' }],
      });
    } else {
      if (o.include_metrics) sections.push(qualitySection(quality));
      const dists = (quality.distributions ?? []) as Distribution[];
      if (o.include_charts && dists.length) sections.push(distributionSection(dists));
    }
    if (privacy) sections.push(privacySection(privacy));

    return {
      entityName: `${model.name} ${job.jobType} ${job.id.slice(0, 8)}`,
      meta: [
        ['Model', `${model.name} (${model.modelType})`],
        ['Job', `${job.jobType}, ${job.status}`],
        ['Rows', String(job.rowsGenerated ?? '')],
      ],
      sections,
      facts: {
        model: model.name,
        model_type: model.modelType,
        job_type: job.jobType,
        status: job.status,
        rows_generated: job.rowsGenerated,
        overall_score: quality?.overall_score ?? null,
        column_shapes_score: quality?.column_shapes?.score ?? null,
        column_pair_trends_score: quality?.column_pair_trends?.score ?? null,
        worst_columns: (quality?.column_shapes?.columns ?? []).slice().sort(byScore).slice(0, 5),
        privacy,
      },
    };
  },
};

/** The job's `quality` as stored (a score is null where SDMetrics gives none: a constant or empty column). */
interface QualityDoc {
  overall_score?: number | null;
  column_shapes?: { score: number | null; columns: { column: string; metric: string; score: number | null }[] };
  column_pair_trends?: {
    score: number | null;
    pairs: { columns: [string, string]; metric: string; score: number | null; real_correlation?: number | null; synthetic_correlation?: number | null; meets_threshold?: boolean }[];
  };
  real_rows?: number;
  synthetic_rows?: number;
  reference?: string;
  distributions?: unknown[];
}

/** Lowest score first; a missing score (SDMetrics' NaN) last. */
function byScore(a: { score: number | null }, b: { score: number | null }): number {
  return (a.score ?? Infinity) - (b.score ?? Infinity);
}

/** A row count for a sentence: thousands separated, "no" when unknown. */
function count(n: number | null): string {
  return n === null ? 'no' : formatNumber(n);
}

function qualitySection(q: QualityDoc): Section {
  const columns = q.column_shapes?.columns ?? [];
  const pairs = q.column_pair_trends?.pairs ?? [];
  const worstColumns = [...columns].sort(byScore).slice(0, MAX_COLUMNS_LISTED);
  const worstPairs = [...pairs].sort(byScore).slice(0, MAX_PAIRS_LISTED);
  const blocks: Block[] = [
    {
      type: 'keyValues',
      items: [
        ['overall score', fmt(q.overall_score)],
        ['column shapes', fmt(q.column_shapes?.score)],
        ['column pair trends', fmt(q.column_pair_trends?.score)],
        ['real rows compared', q.real_rows ?? null],
        ['synthetic rows compared', q.synthetic_rows ?? null],
        ['reference', q.reference ?? null],
      ],
    },
    {
      type: 'paragraph',
      text: "Scores follow SDMetrics' quality report: a column's shape is 1 minus the Kolmogorov-Smirnov statistic (numeric and datetime) or 1 minus the total variation distance (categorical); a pair's trend is 1 minus half the difference of the correlations (numeric pairs) or of the contingency tables (others); the overall score is the mean of the two.",
    },
    {
      type: 'table',
      columns: ['column', 'metric', 'score'],
      rows: worstColumns.map((c) => [c.column, c.metric, fmt(c.score)]),
      caption: columns.length > worstColumns.length ? `The ${worstColumns.length} lowest of ${columns.length} columns.` : 'Lowest first.',
    },
  ];
  if (pairs.length) {
    blocks.push({
      type: 'table',
      columns: ['column pair', 'metric', 'score', 'real correlation', 'synthetic correlation', 'counted'],
      rows: worstPairs.map((p) => [
        p.columns.join(' / '),
        p.metric,
        fmt(p.score),
        fmt(p.real_correlation ?? null),
        fmt(p.synthetic_correlation ?? null),
        p.meets_threshold === undefined ? null : p.meets_threshold ? 'yes' : 'no',
      ]),
      caption: `${pairs.length > worstPairs.length ? `The ${worstPairs.length} lowest of ${pairs.length} pairs.` : 'Lowest first.'} A pair is counted in the property score when its real correlation or association is strong enough (SDMetrics' thresholds).`,
    });
  }
  const score = typeof q.overall_score === 'number' ? q.overall_score : null;
  const reading =
    score === null
      ? 'How closely the synthetic rows follow the real ones, column by column and pair by pair.'
      : `How closely the synthetic rows follow the real ones: ${fmt(score * 100, 1)}% overall (100% would be indistinguishable from the real data). ${score >= 0.8 ? 'That is good enough for most analysis and testing.' : 'That is low: analyses on these rows may differ from the real data; the columns and pairs below score worst.'}`;
  return { id: 'quality', title: 'Quality report', reading, blocks };
}

function distributionSection(dists: Distribution[]): Section {
  const blocks: Block[] = dists.slice(0, MAX_CHARTS).map((d) => ({
    type: 'chart',
    title: d.column,
    chart: {
      type: 'bar',
      data: {
        labels: d.labels.map((l) => (typeof l === 'number' ? Number(fmt(l, 3)) : l)),
        datasets: [
          { label: 'real', data: d.real.map((v) => Number(fmt(v, 4))) },
          { label: 'synthetic', data: d.synthetic.map((v) => Number(fmt(v, 4))) },
        ],
      },
      yLabel: 'share of rows',
    },
    caption: `${d.kind === 'categorical' ? 'Most frequent real levels' : 'Bins of the real range (lower edges)'}; missing: real ${fmt(d.missing.real, 3)}, synthetic ${fmt(d.missing.synthetic, 3)}.`,
  }));
  if (dists.length > MAX_CHARTS) blocks.push({ type: 'note', text: `The first ${MAX_CHARTS} of ${dists.length} columns are drawn.` });
  return {
    id: 'distributions',
    title: 'Real against synthetic distributions',
    reading: "Each chart puts a real column next to its synthetic copy: bars of similar height mean the generator kept that column's shape.",
    blocks,
  };
}

function privacySection(p: Record<string, unknown>): Section {
  if (typeof p.skipped === 'string')
    return { id: 'privacy', title: 'Privacy check', reading: 'Whether synthetic rows copy real training rows: not checked for this job.', blocks: [{ type: 'note', text: p.skipped }] };
  const num = (k: string) => (typeof p[k] === 'number' ? (p[k] as number) : null);
  const synth = num('median_dcr_synthetic');
  const holdout = num('median_dcr_holdout');
  const verdict =
    synth !== null && holdout !== null
      ? synth >= holdout
        ? 'Synthetic rows sit at least as far from the training rows as unseen real rows do: no sign of memorized rows.'
        : 'Synthetic rows sit closer to the training rows than unseen real rows do: the model may reproduce training rows.'
      : null;
  const blocks: Block[] = [
    {
      type: 'keyValues',
      items: [
        ['rows copying a training row', num('copied_rows_share') !== null ? `${fmt(100 * num('copied_rows_share')!, 2)} %` : null],
        ['median distance to closest record (synthetic)', fmt(synth)],
        ['median distance to closest record (holdout)', fmt(holdout)],
        ['rows compared', num('rows_compared')],
        ['holdout rows', num('holdout_rows')],
      ],
    },
  ];
  const reading =
    `Whether synthetic rows copy real training rows: each synthetic row's distance to its closest training row is compared with that of real rows the model never saw. ${verdict ?? ''}`.trim();
  return { id: 'privacy', title: 'Privacy check (distance to closest record)', reading, blocks };
}
