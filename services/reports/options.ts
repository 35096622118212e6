import type { ReportFormat } from '../../engine/reports';

export const REPORT_FORMATS = ['html', 'pdf', 'docx'] as const satisfies readonly ReportFormat[];

/** The spec's section switches: every one defaults to true. */
export const INCLUDE_SWITCHES = [
  'include_metrics',
  'include_charts',
  'include_hyperparameters',
  'include_data_summary',
  'include_leaderboard',
  'include_feature_importance',
  'include_confusion_matrix',
  'include_roc_curve',
  'include_learning_curves',
] as const;
export type IncludeSwitch = (typeof INCLUDE_SWITCHES)[number];

/** A report's options as asked (format default `html`), stored on the report row. */
export type ReportOptions = { format: ReportFormat; title?: string; comments?: string; llm_insights: boolean } & Record<IncludeSwitch, boolean>;

export function resolveOptions(asked: Partial<ReportOptions>): ReportOptions {
  const switches = Object.fromEntries(INCLUDE_SWITCHES.map((k) => [k, asked[k] ?? true])) as Record<IncludeSwitch, boolean>;
  return {
    format: asked.format ?? 'html',
    ...(asked.title ? { title: asked.title } : {}),
    ...(asked.comments ? { comments: asked.comments } : {}),
    llm_insights: asked.llm_insights ?? false,
    ...switches,
  };
}
