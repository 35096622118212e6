import { TemporalGateway } from '../platform/temporal-client';
import { OwnTemporal, startOwnTemporal } from './support/killable';

/**
 * The API's one Temporal connection, closed while Temporal is away: the SDK retries a failed call from a timer, and a
 * retry that fires on a closed channel throws where no caller can catch it (an uncaught exception that fails whatever
 * test runs at that moment, or stops a process). close() must not leave one behind.
 */
describe('TemporalGateway', () => {
  let temporal: OwnTemporal;
  beforeAll(async () => {
    temporal = await startOwnTemporal({ persistent: false });
  }, 60_000);
  afterAll(() => temporal?.stop());

  it('closed while its calls are retrying against a Temporal that went away, leaves no retry to fire on the closed channel', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      const gateway = new TemporalGateway(temporal.address, 'default');
      const client = await gateway.get();
      await temporal.kill();
      // Retried (UNAVAILABLE) with backoff until closing stops it; the caller then gets the failure.
      const call = client.workflowService.getSystemInfo({}).then(
        () => 'answered',
        () => 'failed',
      );
      await new Promise((resolve) => setTimeout(resolve, 700));
      await gateway.close();
      expect(await call).toBe('failed');
      // Longer than the SDK's longest backoff: a retry scheduled before close() would have fired by now.
      await new Promise((resolve) => setTimeout(resolve, 5_500));
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
      await temporal.restart();
    }
  }, 60_000);
});
