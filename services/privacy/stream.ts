import path from 'node:path';
import { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { DataSource } from 'typeorm';
import type { Access } from '../access';
import { ValidationError } from '../errors';
import type { PrivacyPolicyService } from './policies';
import { projectSecrets } from './secrets';
import type { FoundColumn } from './stream-pipeline';

export { STREAM_SAMPLE_ROWS } from './stream-pipeline';

/**
 * The stream's thread heap: the live set is one sample, one parsed batch and one output chunk,
 * so a bounded old generation keeps the process's memory flat however large the body (V8's
 * default sizing lets garbage grow the heap by hundreds of MB before collecting it).
 */
const THREAD_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 };

export interface StreamOptions {
  deepScan: boolean;
}

type FromThread =
  { type: 'more' } | { type: 'columns'; columns: FoundColumn[] } | { type: 'out'; chunk: string } | { type: 'done' } | { type: 'unreadable'; message: string } | { type: 'failed'; message: string };

/**
 * `POST /api/anonymize/stream`: a CSV sent through a policy and answered as transformed CSV while
 * it is still arriving, in bounded memory. The work (stream-pipeline.ts: the first rows decide
 * each column's PII type, then every row goes out through its column's rule) runs in a worker
 * thread (stream-thread.ts) with a bounded heap, off the API's event loop. Both directions are
 * demand-driven: the body is read only when the thread's parser asks for more, and the thread
 * sends a chunk of output only when the answer's reader has taken the last.
 */
export class AnonymizeStream {
  constructor(
    private readonly ds: DataSource,
    private readonly access: Access,
    private readonly policies: PrivacyPolicyService,
  ) {}

  /** Resolves once the sample is read (a body that is not CSV is a 422 before anything is answered). */
  async open(userId: string, policyId: string, body: Readable, o: StreamOptions): Promise<{ stream: Readable; columns: FoundColumn[] }> {
    const policy = await this.access.privacyPolicy(userId, policyId);
    const rules = await this.policies.rulesOf(policy.id);
    const secrets = await projectSecrets(this.ds, policy.projectId);
    const worker = new Worker(path.join(__dirname, 'stream-thread.js'), { workerData: { profile: policy.profile, rules, secrets, deepScan: o.deepScan }, resourceLimits: THREAD_LIMITS });
    const chunks = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    let output: Readable | undefined;
    const stop = (err?: Error) => {
      void worker.terminate();
      if (err) output?.destroy(err);
    };

    return new Promise((resolve, reject) => {
      const fail = (err: Error) => {
        if (output) stop(err);
        else {
          stop();
          reject(err);
        }
      };
      worker.on('error', fail);
      worker.on('message', (m: FromThread) => {
        switch (m.type) {
          case 'more':
            chunks.next().then(
              (r) => worker.postMessage(r.done ? { type: 'end' } : { type: 'chunk', data: r.value }),
              (err: Error) => fail(err),
            );
            break;
          case 'columns':
            output = new Readable({
              read() {
                worker.postMessage({ type: 'pull' });
              },
            });
            // A client that goes away stops the thread (and so the reading of its body).
            output.on('close', () => void worker.terminate());
            resolve({ stream: output, columns: m.columns });
            break;
          case 'out':
            output?.push(m.chunk);
            break;
          case 'done':
            output?.push(null);
            void worker.terminate();
            break;
          case 'unreadable':
            fail(new ValidationError(m.message));
            break;
          case 'failed':
            fail(new Error(m.message));
            break;
        }
      });
    });
  }
}
