import { drawChart } from './charts';
import type { Block, ReportDocument, Section } from './document';
import { drawHeatmap } from './heatmap';
import type { Figure, Picture } from './picture';
import { encodePng } from './png';

export type FigureBlock = Extract<Block, { type: 'chart' } | { type: 'heatmap' }>;

/** The encoded pictures of one document, by block: what every renderer looks its figures up in. */
export type Figures = Map<FigureBlock, Figure>;

/**
 * Pictures already drawn for a document, by the block's content: a document rendered in several formats draws each
 * chart once (charts are the slow part), and a block changed between two renders is drawn anew. Held weakly, so the
 * pictures go when the caller drops the document.
 */
const drawn = new WeakMap<ReportDocument, Map<string, Promise<Figure>>>();

/** Every figure block of a document in reading order. */
export function figureBlocks(doc: ReportDocument): FigureBlock[] {
  const out: FigureBlock[] = [];
  const walk = (sections: Section[]): void => {
    for (const s of sections) {
      for (const b of s.blocks) if (b.type === 'chart' || b.type === 'heatmap') out.push(b);
      walk(s.subsections ?? []);
    }
  };
  walk(doc.sections);
  return out;
}

/**
 * Draws and encodes the document's charts and heatmaps, reporting the fraction done after each. Drawing is synchronous
 * (chart.js on the canvas); each picture's PNG is deflated on the thread pool while the next one draws.
 */
export async function renderFigures(doc: ReportDocument, onProgress?: (fraction: number) => void): Promise<Figures> {
  const blocks = figureBlocks(doc);
  let cache = drawn.get(doc);
  if (!cache) drawn.set(doc, (cache = new Map()));
  const figures: Figures = new Map();
  const pending: Promise<void>[] = [];
  let done = 0;
  for (const block of blocks) {
    const key = JSON.stringify(block);
    let figure = cache.get(key);
    if (!figure) {
      figure = encode(block.type === 'chart' ? drawChart(block.chart) : drawHeatmap(block));
      cache.set(key, figure);
      // A failed picture is not kept: the next render tries again.
      void figure.catch(() => cache.delete(key));
      // Let the event loop run between two drawings, so an encode can finish and progress can be reported.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    pending.push(
      figure.then((f) => {
        figures.set(block, f);
        onProgress?.(++done / blocks.length);
      }),
    );
  }
  await Promise.all(pending);
  if (blocks.length === 0) onProgress?.(1);
  return figures;
}

async function encode(picture: Picture): Promise<Figure> {
  return { png: await encodePng(picture.pixels), width: picture.width, height: picture.height };
}
