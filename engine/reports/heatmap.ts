import { createCanvas } from '@napi-rs/canvas';
import type { SKRSContext2D } from '@napi-rs/canvas';
import type { Block } from './document';
import { CANVAS_FONT_FAMILY, registerCanvasFonts } from './fonts';
import { DEVICE_PIXEL_RATIO, Picture } from './picture';
import { readRgb } from './png';

type HeatmapBlock = Extract<Block, { type: 'heatmap' }>;

/** Viridis at nine stops: perceptually even, readable in greyscale, and safe for red-green colour blindness. */
const VIRIDIS = ['#440154', '#472d7b', '#3b528b', '#2c728e', '#21918c', '#28ae80', '#5ec962', '#addc30', '#fde725'];
const MISSING = '#e3e3e3';
const FONT = `11px ${CANVAS_FONT_FAMILY}`;
const BOLD = `bold 11px ${CANVAS_FONT_FAMILY}`;
const CELL_HEIGHT = 22;
const MIN_CELL_WIDTH = 44;
/** A grid larger than this (layout px) gets smaller cells, then no values, then no labels: the picture stays printable. */
const MAX_GRID = 2400;
/** Below these sizes a cell cannot hold its value, a row or column its label. */
const MIN_VALUE_CELL = { width: 36, height: 16 };
const MIN_LABELLED = 10;
const MAX_LABEL = 36;
const PAD = 10;
const LEGEND_WIDTH = 70;

/**
 * chart.js has no heatmap, so this draws one on the same canvas the charts use: row labels on the left, column labels
 * slanted on top, one coloured cell per value with the value written in it (white on dark cells), a colour bar with
 * the range on the right. Cells keep a legible width: a wide matrix makes a wide picture, scaled down on the page.
 */
export function drawHeatmap(block: HeatmapBlock): Picture {
  registerCanvasFonts();
  const rows = block.rowLabels.map((l) => truncate(l));
  const cols = block.columnLabels.map((l) => truncate(l));
  const measure = createCanvas(10, 10).getContext('2d');
  measure.font = FONT;
  const rowLabelWidth = Math.ceil(Math.max(40, ...rows.map((l) => measure.measureText(l).width))) + 8;
  const colLabelWidth = Math.max(20, ...cols.map((l) => measure.measureText(l).width));
  const slant = Math.PI / 4;
  const colLabelHeight = Math.ceil(colLabelWidth * Math.sin(slant)) + 14;
  const ncols = Math.max(1, cols.length);
  const cellWidth = Math.max(2, Math.min(Math.max(MIN_CELL_WIDTH, Math.floor((800 - 2 * PAD - rowLabelWidth - LEGEND_WIDTH) / ncols)), Math.floor(MAX_GRID / ncols)));
  const cellHeight = Math.max(2, Math.min(CELL_HEIGHT, Math.floor(MAX_GRID / Math.max(1, rows.length))));
  const showValues = cellWidth >= MIN_VALUE_CELL.width && cellHeight >= MIN_VALUE_CELL.height;
  const gridWidth = cellWidth * cols.length;
  const gridHeight = cellHeight * rows.length;
  // The last column's slanted label reaches right of the grid by its projected width.
  const width = Math.ceil(PAD + rowLabelWidth + gridWidth + Math.max(LEGEND_WIDTH, colLabelWidth * Math.cos(slant) - cellWidth / 2) + PAD);
  const height = PAD + colLabelHeight + gridHeight + PAD;

  const canvas = createCanvas(width * DEVICE_PIXEL_RATIO, height * DEVICE_PIXEL_RATIO);
  const ctx = canvas.getContext('2d');
  ctx.scale(DEVICE_PIXEL_RATIO, DEVICE_PIXEL_RATIO);
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);

  let lo = Infinity;
  let hi = -Infinity;
  for (const row of block.values) for (const v of row) if (v !== null && Number.isFinite(v)) [lo, hi] = [Math.min(lo, v), Math.max(hi, v)];
  if (lo > hi) [lo, hi] = [0, 1];
  const decimals = valueDecimals(lo, hi);
  const x0 = PAD + rowLabelWidth;
  const y0 = PAD + colLabelHeight;

  ctx.font = FONT;
  ctx.textBaseline = 'middle';
  ctx.fillStyle = '#333333';
  ctx.textAlign = 'right';
  if (cellHeight >= MIN_LABELLED) rows.forEach((label, r) => ctx.fillText(label, x0 - 6, y0 + r * cellHeight + cellHeight / 2));
  ctx.textAlign = 'left';
  if (cellWidth >= MIN_LABELLED)
    cols.forEach((label, c) => {
      ctx.save();
      ctx.translate(x0 + c * cellWidth + cellWidth / 2, y0 - 6);
      ctx.rotate(-slant);
      ctx.fillText(label, 0, 0);
      ctx.restore();
    });

  ctx.textAlign = 'center';
  for (let r = 0; r < rows.length; r++) {
    for (let c = 0; c < cols.length; c++) {
      const v = block.values[r]?.[c] ?? null;
      const x = x0 + c * cellWidth;
      const y = y0 + r * cellHeight;
      const usable = v !== null && Number.isFinite(v);
      const t = usable ? (hi > lo ? (v - lo) / (hi - lo) : 0.5) : 0;
      const fill = usable ? viridis(t) : MISSING;
      ctx.fillStyle = fill;
      ctx.fillRect(x, y, cellWidth, cellHeight);
      if (!showValues) continue;
      ctx.fillStyle = usable && t < 0.6 ? '#ffffff' : '#222222';
      ctx.fillText(usable ? v.toFixed(decimals) : v === null ? '—' : String(v), x + cellWidth / 2, y + cellHeight / 2);
    }
  }
  // Thin white lines between cells keep neighbouring cells of close colour apart.
  ctx.strokeStyle = '#ffffff';
  ctx.lineWidth = showValues ? 1 : 0.25;
  ctx.beginPath();
  for (let c = 1; c < cols.length; c++) line(ctx, x0 + c * cellWidth, y0, x0 + c * cellWidth, y0 + gridHeight);
  for (let r = 1; r < rows.length; r++) line(ctx, x0, y0 + r * cellHeight, x0 + gridWidth, y0 + r * cellHeight);
  ctx.stroke();

  drawLegend(ctx, x0 + gridWidth + 16, y0, Math.max(60, Math.min(gridHeight, 200)), lo, hi, decimals);
  return { pixels: readRgb(canvas), width, height };
}

function drawLegend(ctx: SKRSContext2D, x: number, y: number, h: number, lo: number, hi: number, decimals: number): void {
  const gradient = ctx.createLinearGradient(0, y + h, 0, y);
  VIRIDIS.forEach((c, i) => gradient.addColorStop(i / (VIRIDIS.length - 1), c));
  ctx.fillStyle = gradient;
  ctx.fillRect(x, y, 12, h);
  ctx.fillStyle = '#333333';
  ctx.font = BOLD;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
  ctx.fillText(hi.toFixed(decimals), x + 16, y);
  ctx.textBaseline = 'bottom';
  ctx.fillText(lo.toFixed(decimals), x + 16, y + h);
}

function line(ctx: SKRSContext2D, x1: number, y1: number, x2: number, y2: number): void {
  ctx.moveTo(x1, y1);
  ctx.lineTo(x2, y2);
}

/** As many decimals as fit a cell 44 px wide: 3 for values below 1 (importances, correlations), fewer for large ones. */
function valueDecimals(lo: number, hi: number): number {
  const magnitude = Math.max(Math.abs(lo), Math.abs(hi));
  if (magnitude >= 100) return 0;
  if (magnitude >= 10) return 1;
  if (magnitude >= 1) return 2;
  return 3;
}

/** The viridis colour at t in [0, 1], interpolated between the stops. */
export function viridis(t: number): string {
  const x = Math.min(1, Math.max(0, t)) * (VIRIDIS.length - 1);
  const i = Math.min(VIRIDIS.length - 2, Math.floor(x));
  const f = x - i;
  const a = parseInt(VIRIDIS[i].slice(1), 16);
  const b = parseInt(VIRIDIS[i + 1].slice(1), 16);
  const mix = (shift: number): number => Math.round(((a >> shift) & 255) * (1 - f) + ((b >> shift) & 255) * f);
  return `rgb(${mix(16)}, ${mix(8)}, ${mix(0)})`;
}

function truncate(text: string): string {
  return text.length > MAX_LABEL ? `${text.slice(0, MAX_LABEL - 1)}…` : text;
}
