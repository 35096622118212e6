import { nativeSection, threadContext } from '../../platform/threads';
import type { RENDER_THREAD } from './in-thread';
import { renderReport } from './index';

/**
 * The worker thread of {@link renderReportInThread} (in-thread.ts): renders one document and
 * posts the file back (its buffer transferred, not copied), or the error's message.
 */
const thread = threadContext<typeof RENDER_THREAD>();
const { doc, format } = thread.data;

// Charts are drawn with @napi-rs/canvas: a native section, so the host never terminates the thread inside it.
nativeSection(() => renderReport(doc, format)).then(
  (r) => {
    const bytes = new Uint8Array(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength);
    thread.post({ type: 'result', bytes, contentType: r.contentType, extension: r.extension }, [bytes.buffer as ArrayBuffer]);
  },
  (err: unknown) => thread.post({ type: 'error', message: err instanceof Error ? err.message : String(err) }),
);
