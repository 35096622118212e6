import { parentPort, workerData } from 'node:worker_threads';
import type { ReportDocument, ReportFormat } from './document';
import { renderReport } from './index';

/**
 * The worker thread of {@link renderReportInThread} (in-thread.ts): renders one document and
 * posts the file back (its buffer transferred, not copied), or the error's message.
 */
const { doc, format } = workerData as { doc: ReportDocument; format: ReportFormat };
const port = parentPort!;

renderReport(doc, format).then(
  (r) => {
    const bytes = new Uint8Array(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength);
    port.postMessage({ ok: true, bytes, contentType: r.contentType, extension: r.extension }, [bytes.buffer as ArrayBuffer]);
  },
  (err: unknown) => port.postMessage({ ok: false, message: err instanceof Error ? err.message : String(err) }),
);
