import { describeError, threadContext } from '../../platform/threads';
import { computeChecks, type CHECKS_THREAD } from './checks';

/** The worker thread of a generation's quality report and privacy check (see `computeChecksInThread`). */
const thread = threadContext<typeof CHECKS_THREAD>();
computeChecks(thread.data).then(
  (result) => thread.post({ type: 'result', result }),
  (err: unknown) => thread.post({ type: 'error', ...describeError(err) }),
);
