import path from 'node:path';
import { startThread, threadScript } from '../../platform/threads';
import type { ReportDocument, ReportFormat } from './document';

type FromThread = { type: 'result'; bytes: Uint8Array; contentType: string; extension: ReportFormat } | { type: 'error'; message: string };

/** render-thread.ts: one document in, its file (transferred) or the error's message out. */
export const RENDER_THREAD = threadScript<{ doc: ReportDocument; format: ReportFormat }, never, FromThread>(path.join(__dirname, 'render-thread.js'));

/**
 * {@link renderReport} in a worker thread of its own: drawing the charts and laying out a PDF
 * takes a CPU for a quarter of a second to seconds, which a caller on a server's event loop
 * (a report asked for over HTTP) must not spend there. The document goes over by structured
 * clone (it is plain data), the file comes back transferred.
 */
export function renderReportInThread(doc: ReportDocument, format: ReportFormat): Promise<{ bytes: Buffer; contentType: string; extension: ReportFormat }> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
      void thread.stop();
    };
    const thread = startThread(
      RENDER_THREAD,
      { doc, format },
      {
        messages: {
          result: (m) => settle(() => resolve({ bytes: Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength), contentType: m.contentType, extension: m.extension })),
          error: (m) => settle(() => reject(new Error(m.message))),
        },
        error: (err) => settle(() => reject(err)),
        exit: (code) => settle(() => reject(new Error(`report rendering thread exited with code ${code}`))),
      },
    );
  });
}
