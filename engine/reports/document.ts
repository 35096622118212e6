/**
 * The document model every report kind composes and every format renders: data in, no layout. A kind (experiment,
 * model, project, deployment, synthgen) builds a ReportDocument from its figures; `renderReport` (index.ts) turns it
 * into HTML, PDF or DOCX. All text here may come from users (titles, comments, cell values): each renderer escapes it.
 */

/** A table or fact value. Numbers are formatted by the engine (`formatCell`, `tableTexts`): integers with thousands separators, others to at most 4 decimals. */
export type Cell = string | number | null;

export type Block =
  | { type: 'paragraph'; text: string }
  /** A one-line aside, e.g. "LLM insights: no provider configured". */
  | { type: 'note'; text: string }
  /** A two-column fact list. */
  | { type: 'keyValues'; items: [string, Cell][] }
  /** `highlightRow` (0-based index into `rows`) is drawn emphasised, e.g. the best model of a leaderboard. */
  | { type: 'table'; columns: string[]; rows: Cell[][]; caption?: string; highlightRow?: number }
  | { type: 'chart'; title: string; chart: ChartSpec; caption?: string }
  /** `values[r][c]` belongs to `rowLabels[r]` and `columnLabels[c]`; null cells are drawn grey. */
  | { type: 'heatmap'; title: string; rowLabels: string[]; columnLabels: string[]; values: (number | null)[][]; caption?: string };

/** A JSON-serializable chart.js configuration subset: line, scatter, bar (incl. horizontal via indexAxis 'y'). */
export interface ChartSpec {
  type: 'line' | 'scatter' | 'bar';
  data: {
    labels?: (string | number)[];
    datasets: {
      label: string;
      data: (number | null | { x: number; y: number })[];
      /** Scatter only: join the points with a line (a Pareto front drawn over the cloud of models). */
      showLine?: boolean;
      /** A dashed, thin line: a reference such as the chance diagonal of a ROC plot. */
      dashed?: boolean;
    }[];
  };
  xLabel?: string;
  yLabel?: string;
  indexAxis?: 'x' | 'y';
  xMin?: number;
  xMax?: number;
  yMin?: number;
  yMax?: number;
}

export interface Section {
  /** Stable within the document; the renderers derive anchors from it. */
  id: string;
  title: string;
  /**
   * One short paragraph in plain language: what the section's figures mean and what looks wrong in them. Every format
   * prints it right under the heading, before the blocks.
   */
  reading?: string;
  blocks: Block[];
  subsections?: Section[];
}

export interface ReportDocument {
  title: string;
  subtitle?: string;
  /** ISO 8601 timestamp. */
  generatedAt: string;
  /** Shown under the title, e.g. [['Project', 'Churn'], ['Kind', 'experiment'], ['Entity', 'titanic survival']]. */
  meta: [string, string][];
  sections: Section[];
}

export type ReportFormat = 'html' | 'pdf' | 'docx';
