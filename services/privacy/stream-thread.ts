import { Readable } from 'node:stream';
import { threadContext } from '../../platform/threads';
import { effectiveRules } from './effective-rules';
import type { STREAM_THREAD } from './stream';
import { anonymizeCsvLines, UnreadableCsv } from './stream-pipeline';

/**
 * The worker thread of one `POST /api/anonymize/stream` (see stream.ts for the protocol): the
 * parse and the per-cell rules run here, on a heap of their own with a bounded old generation,
 * off the API's event loop. Input is asked for (`more`) only as the parser wants it; output is
 * sent one chunk per `pull`.
 */
const port = threadContext<typeof STREAM_THREAD>();
const data = port.data;
let pulls = 0;
let wake: (() => void) | null = null;

const input = new Readable({
  read() {
    port.post({ type: 'more' });
  },
});

port.onMessage((m) => {
  if (m.type === 'chunk') input.push(Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength));
  else if (m.type === 'end') input.push(null);
  else {
    pulls++;
    wake?.();
  }
});

async function run(): Promise<void> {
  try {
    const { columns, lines } = await anonymizeCsvLines(input, { ruleOf: effectiveRules({ profile: data.profile as never }, data.rules), secrets: data.secrets, deepScan: data.deepScan });
    port.post({ type: 'columns', columns });
    for await (const chunk of lines) {
      while (pulls === 0) await new Promise<void>((r) => (wake = r));
      wake = null;
      pulls--;
      port.post({ type: 'out', chunk });
    }
    port.post({ type: 'done' });
  } catch (err) {
    port.post({ type: err instanceof UnreadableCsv ? 'unreadable' : 'failed', message: err instanceof Error ? err.message : String(err) });
  }
}

void run();
