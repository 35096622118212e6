import path from 'node:path';
import { Readable } from 'node:stream';
import type { DataSource } from 'typeorm';
import type { ProjectSecrets } from '../../engine/privacy';
import type { PrivacyRule } from '../../entities';
import { startThread, threadScript } from '../../platform/threads';
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
type ToThread = { type: 'chunk'; data: Uint8Array } | { type: 'end' } | { type: 'pull' };

/** stream-thread.ts: the policy in; body chunks and pulls to it; columns, output chunks and the end back. */
export const STREAM_THREAD = threadScript<{ profile: string; rules: PrivacyRule[]; secrets: ProjectSecrets; deepScan: boolean }, ToThread, FromThread>(path.join(__dirname, 'stream-thread.js'));

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
    const chunks = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    let output: Readable | undefined;

    return new Promise((resolve, reject) => {
      const fail = (err: Error) => {
        void thread.stop();
        if (output) output.destroy(err);
        else reject(err);
      };
      const thread = startThread(
        STREAM_THREAD,
        { profile: policy.profile, rules, secrets, deepScan: o.deepScan },
        {
          messages: {
            more: () => {
              chunks.next().then(
                (r) => thread.post(r.done ? { type: 'end' } : { type: 'chunk', data: r.value }),
                (err: Error) => fail(err),
              );
            },
            columns: (m) => {
              output = new Readable({
                read() {
                  thread.post({ type: 'pull' });
                },
              });
              // A client that goes away stops the thread (and so the reading of its body).
              output.on('close', () => void thread.stop());
              resolve({ stream: output, columns: m.columns });
            },
            out: (m) => output?.push(m.chunk),
            done: () => {
              output?.push(null);
              void thread.stop();
            },
            unreadable: (m) => fail(new ValidationError(m.message)),
            failed: (m) => fail(new Error(m.message)),
          },
          error: fail,
        },
        { resourceLimits: THREAD_LIMITS },
      );
    });
  }
}
