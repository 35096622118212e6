import type { ReportDocument, ReportFormat } from './document';
import { slug } from './outline';

/**
 * A download file name that says what the report is: the kind (the meta entry named "Kind", when the title does not
 * start with it already), the title, and the day it was generated, e.g. `experiment-titanic-survival-2026-11-24.pdf`.
 * ASCII letters, digits and '-' only: no path characters, no quoting needed in a Content-Disposition header.
 */
export function reportFileName(doc: ReportDocument, format: ReportFormat): string {
  const kind = slug(doc.meta.find(([k]) => k.trim().toLowerCase() === 'kind')?.[1] ?? '', 20);
  const title = slug(doc.title, 80);
  const stem = kind && title !== kind && !title.startsWith(`${kind}-`) ? `${kind}-${title}` : title || kind || 'report';
  const day = /^\d{4}-\d{2}-\d{2}/.exec(doc.generatedAt)?.[0];
  return `${stem.replace(/-+$/, '')}${day ? `-${day}` : ''}.${format}`;
}
