import { ChartView } from './chart';

/** Colours that stay apart for several overlaid models (and from the grey of the chance line). */
export const SERIES_COLOURS = ['#1d4ed8', '#c2410c', '#15803d', '#7e22ce', '#b45309', '#0e7490', '#be123c', '#4d7c0f', '#1e3a8a', '#a21caf'];

export interface CurveSeries {
  label: string;
  xs: number[];
  ys: number[];
}

/** At most 400 points of a curve (a ROC on many rows has one per distinct score), the last one kept. */
export function thinPoints(xs: number[], ys: number[]): { x: number; y: number }[] {
  const step = Math.max(1, Math.ceil(xs.length / 400));
  const out: { x: number; y: number }[] = [];
  for (let i = 0; i < xs.length; i += step) out.push({ x: xs[i], y: ys[i] });
  if (xs.length && (xs.length - 1) % step !== 0) out.push({ x: xs[xs.length - 1], y: ys[ys.length - 1] });
  return out;
}

/**
 * One or more curves on the unit square (ROC, precision-recall), one colour per series, with an optional dashed
 * reference line (chance). The figure caption names the series, for readers who cannot see the canvas.
 */
export function CurveChart(props: { series: CurveSeries[]; label: string; xTitle: string; yTitle: string; reference?: { label: string; points: { x: number; y: number }[] }; summary?: string }) {
  const { series, label, xTitle, yTitle, reference, summary } = props;
  const datasets = series.map((s, i) => ({
    label: s.label,
    data: thinPoints(s.xs, s.ys),
    borderColor: SERIES_COLOURS[i % SERIES_COLOURS.length],
    backgroundColor: SERIES_COLOURS[i % SERIES_COLOURS.length],
    pointRadius: 0,
    borderWidth: 2,
  }));
  if (reference)
    datasets.push({
      label: reference.label,
      data: reference.points,
      borderColor: '#6b7280',
      backgroundColor: '#6b7280',
      pointRadius: 0,
      borderWidth: 1,
      borderDash: [4, 4],
    } as (typeof datasets)[number]);
  return (
    <ChartView
      label={label}
      summary={summary ?? `${label}: ${series.map((s) => s.label).join(', ')}`}
      config={{
        type: 'line',
        data: { datasets },
        options: {
          parsing: false,
          plugins: { legend: { display: series.length > 1 || !!reference } },
          scales: { x: { type: 'linear', min: 0, max: 1, title: { display: true, text: xTitle } }, y: { min: 0, max: 1, title: { display: true, text: yTitle } } },
        },
      }}
    />
  );
}

/** The diagonal of a ROC chart: a model that ranks at random. */
export const CHANCE_DIAGONAL = {
  label: 'chance',
  points: [
    { x: 0, y: 0 },
    { x: 1, y: 1 },
  ],
};

/** A ROC chart of one or more models. */
export function RocChart({ series, label = 'ROC curve: true positive rate against false positive rate' }: { series: { label: string; fpr: number[]; tpr: number[] }[]; label?: string }) {
  return <CurveChart label={label} xTitle="false positive rate" yTitle="true positive rate" reference={CHANCE_DIAGONAL} series={series.map((s) => ({ label: s.label, xs: s.fpr, ys: s.tpr }))} />;
}

/** A precision-recall chart of one or more models; `baseRate` draws the precision of guessing (the share of positives). */
export function PrChart({
  series,
  baseRate,
  label = 'Precision-recall curve: precision against recall',
}: {
  series: { label: string; precision: number[]; recall: number[] }[];
  baseRate?: number;
  label?: string;
}) {
  const reference =
    baseRate !== undefined
      ? {
          label: 'share of positives',
          points: [
            { x: 0, y: baseRate },
            { x: 1, y: baseRate },
          ],
        }
      : undefined;
  return <CurveChart label={label} xTitle="recall" yTitle="precision" reference={reference} series={series.map((s) => ({ label: s.label, xs: s.recall, ys: s.precision }))} />;
}
