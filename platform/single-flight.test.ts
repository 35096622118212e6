import { SingleFlight } from './single-flight';

describe('SingleFlight', () => {
  it('joins concurrent calls for one key and runs again once settled', async () => {
    const flight = new SingleFlight<number>();
    let runs = 0;
    let release: (v: number) => void = () => undefined;
    const fn = () => {
      runs++;
      return new Promise<number>((r) => (release = r));
    };
    const a = flight.run('v1', fn);
    const b = flight.run('v1', fn);
    const other = flight.run('v2', () => Promise.resolve(7));
    expect(runs).toBe(1);
    release(42);
    expect(await Promise.all([a, b, other])).toEqual([42, 42, 7]);
    expect(flight.size).toBe(0);
    const c = flight.run('v1', fn);
    expect(runs).toBe(2);
    release(43);
    expect(await c).toBe(43);
  });

  it('does not keep a failure', async () => {
    const flight = new SingleFlight<number>();
    await expect(flight.run('k', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await flight.run('k', () => Promise.resolve(1))).toBe(1);
  });
});
