import { createCanvas } from '@napi-rs/canvas';
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, ScatterController } from 'chart.js';
import type { ChartConfiguration, ChartItem, Plugin } from 'chart.js';
import type { ChartSpec } from './document';
import { CANVAS_FONT_FAMILY, registerCanvasFonts } from './fonts';
import { DEVICE_PIXEL_RATIO, Picture } from './picture';
import { readRgb } from './png';

// Only what the ChartSpec subset uses, registered explicitly (no tooltips, no animations: nothing is interactive).
Chart.register(LineController, ScatterController, BarController, LineElement, PointElement, BarElement, CategoryScale, LinearScale, Legend);

/** Tableau 10: distinct in colour and still apart in greyscale print. */
export const PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];

const CHART_WIDTH = 800;
const CHART_HEIGHT = 420;
const MAX_LABEL = 40;

/** chart.js clears to transparent; a report page is white, and an opaque picture keeps the PNG free of alpha. */
const whiteBackground: Plugin = {
  id: 'reportWhiteBackground',
  beforeDraw(chart) {
    const { ctx } = chart;
    ctx.save();
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, chart.width, chart.height);
    ctx.restore();
  },
};

/** Draws a chart with chart.js on @napi-rs/canvas at DEVICE_PIXEL_RATIO: the one chart code of all three formats. */
export function drawChart(spec: ChartSpec): Picture {
  registerCanvasFonts();
  Chart.defaults.font.family = CANVAS_FONT_FAMILY;
  Chart.defaults.font.size = 12;
  Chart.defaults.color = '#333333';
  const horizontal = spec.type === 'bar' && spec.indexAxis === 'y';
  const categories = spec.data.labels?.length ?? 0;
  const height = horizontal ? Math.max(260, Math.min(1400, 22 * categories + 90)) : CHART_HEIGHT;
  const canvas = createCanvas(CHART_WIDTH, height);
  // chart.js types its target as a DOM canvas; its Node path (BasicPlatform) needs only getContext('2d') and width/height.
  const chart = new Chart(canvas as unknown as ChartItem, chartConfig(spec));
  // Read before destroying: destroy() clears the canvas (and unregisters the chart, which would otherwise be kept).
  const pixels = readRgb(canvas);
  chart.destroy();
  return { pixels, width: CHART_WIDTH, height };
}

/** The chart.js configuration of a ChartSpec: styling decided here, so every chart of every report looks alike. */
export function chartConfig(spec: ChartSpec): ChartConfiguration {
  const pointData = spec.data.datasets.some((d) => d.data.some((v) => v !== null && typeof v === 'object'));
  const datasets = spec.data.datasets.map((d, i) => {
    const color = PALETTE[i % PALETTE.length];
    const many = d.data.length > 40;
    // A copy: chart.js hooks listeners onto the data arrays it is given, and the caller's document stays untouched.
    const base = { label: truncate(d.label, 60), data: [...d.data], borderColor: color, backgroundColor: color, borderDash: d.dashed ? [6, 4] : undefined };
    if (spec.type === 'bar') return { ...base, borderWidth: 0 };
    if (spec.type === 'scatter') {
      const line = d.showLine === true;
      return { ...base, showLine: line, borderWidth: line ? 2 : 1, backgroundColor: line ? color : withAlpha(color, 0.6), pointRadius: line ? 3 : 4.5 };
    }
    return { ...base, borderWidth: d.dashed ? 1.5 : 2, pointRadius: many || d.dashed ? 0 : 2.5, spanGaps: true, fill: false, tension: 0 };
  });
  const horizontal = spec.type === 'bar' && spec.indexAxis === 'y';
  const categories = spec.data.labels?.length ?? 0;
  const linearX = spec.type === 'scatter' || (spec.type === 'line' && pointData) || horizontal;
  const axis = (label: string | undefined, min: number | undefined, max: number | undefined, linear: boolean, zero: boolean) => ({
    type: linear ? ('linear' as const) : ('category' as const),
    min,
    max,
    beginAtZero: zero,
    title: { display: !!label, text: label ? truncate(label, 80) : '', font: { weight: 'bold' as const } },
    ticks: linear ? {} : { autoSkip: categories > 60, maxRotation: 60 },
    grid: { color: '#e6e6e6' },
  });
  const config = {
    type: spec.type,
    data: { labels: spec.data.labels?.map((l) => (typeof l === 'string' ? truncate(l, MAX_LABEL) : l)), datasets },
    options: {
      animation: false,
      responsive: false,
      maintainAspectRatio: false,
      devicePixelRatio: DEVICE_PIXEL_RATIO,
      events: [],
      indexAxis: spec.indexAxis ?? 'x',
      layout: { padding: 8 },
      scales: {
        x: axis(spec.xLabel, spec.xMin, spec.xMax, linearX, spec.type === 'bar' && horizontal),
        y: axis(spec.yLabel, spec.yMin, spec.yMax, !horizontal, spec.type === 'bar' && !horizontal),
      },
      plugins: { legend: { display: spec.data.datasets.length > 1, position: 'bottom', labels: { boxWidth: 14 } } },
    },
    plugins: [whiteBackground],
  };
  // The literal is checked field by field above; chart.js's union over chart types cannot narrow a `type` known only at run time.
  return config as unknown as ChartConfiguration;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function withAlpha(hex: string, alpha: number): string {
  const n = parseInt(hex.slice(1), 16);
  return `rgba(${n >> 16}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}
