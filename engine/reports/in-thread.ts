import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ReportDocument, ReportFormat } from './document';

type FromThread = { ok: true; bytes: Uint8Array; contentType: string; extension: ReportFormat } | { ok: false; message: string };

/**
 * {@link renderReport} in a worker thread of its own: drawing the charts and laying out a PDF
 * takes a CPU for a quarter of a second to seconds, which a caller on a server's event loop
 * (a report asked for over HTTP) must not spend there. The document goes over by structured
 * clone (it is plain data), the file comes back transferred.
 */
export function renderReportInThread(doc: ReportDocument, format: ReportFormat): Promise<{ bytes: Buffer; contentType: string; extension: ReportFormat }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(path.join(__dirname, 'render-thread.js'), { workerData: { doc, format } });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
      void worker.terminate();
    };
    worker.once('message', (m: FromThread) =>
      settle(() => (m.ok ? resolve({ bytes: Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength), contentType: m.contentType, extension: m.extension }) : reject(new Error(m.message)))),
    );
    worker.once('error', (err) => settle(() => reject(err)));
    worker.once('exit', (code) => settle(() => reject(new Error(`report rendering thread exited with code ${code}`))));
  });
}
