import { Readable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import type { ProjectSecrets } from '../../engine/privacy';
import type { PrivacyRule } from '../../entities';
import { effectiveRules } from './effective-rules';
import { anonymizeCsvLines, UnreadableCsv } from './stream-pipeline';

/**
 * The worker thread of one `POST /api/anonymize/stream` (see stream.ts for the protocol): the
 * parse and the per-cell rules run here, on a heap of their own with a bounded old generation,
 * off the API's event loop. Input is asked for (`more`) only as the parser wants it; output is
 * sent one chunk per `pull`.
 */
const data = workerData as { profile: string; rules: PrivacyRule[]; secrets: ProjectSecrets; deepScan: boolean };
const port = parentPort!;
let pulls = 0;
let wake: (() => void) | null = null;

const input = new Readable({
  read() {
    port.postMessage({ type: 'more' });
  },
});

port.on('message', (m: { type: 'chunk'; data: Uint8Array } | { type: 'end' } | { type: 'pull' }) => {
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
    port.postMessage({ type: 'columns', columns });
    for await (const chunk of lines) {
      while (pulls === 0) await new Promise<void>((r) => (wake = r));
      wake = null;
      pulls--;
      port.postMessage({ type: 'out', chunk });
    }
    port.postMessage({ type: 'done' });
  } catch (err) {
    port.postMessage({ type: err instanceof UnreadableCsv ? 'unreadable' : 'failed', message: err instanceof Error ? err.message : String(err) });
  }
}

void run();
