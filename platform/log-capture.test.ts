import { createLogger } from './logger';
import { LogCapture, logCapture, type CapturedEntry } from './log-capture';

const line = (level: number, msg: string, extra: Record<string, unknown> = {}) => JSON.stringify({ level, time: 1_700_000_000_000, pid: 7, name: 'api', msg, ...extra });

describe('LogCapture', () => {
  it('keeps warn and above with their fields, and ignores lower levels and lines that are not JSON', async () => {
    const c = new LogCapture();
    const written: CapturedEntry[] = [];
    c.use(async (entries) => void written.push(...entries));
    c.write(line(30, 'info'));
    c.write('not json');
    c.write(line(40, 'careful', { reqId: 'r1' }));
    c.write(line(50, 'broken', { err: { type: 'Error', message: 'boom' } }));
    c.write(line(40, 'nul\u0000 and \ud800', { input: 'a\u0000b' }));
    await c.close();
    expect(written.map((e) => [e.level, e.msg, e.process, e.pid])).toEqual([
      ['warn', 'careful', 'api', 7],
      ['error', 'broken', 'api', 7],
      ['warn', 'nul\ufffd and \ufffd', 'api', 7],
    ]);
    expect(written[2].fields).toEqual({ input: 'a\ufffdb' });
    expect(written[0].fields).toEqual({ reqId: 'r1' });
    expect(written[0].time.toISOString()).toBe('2023-11-14T22:13:20.000Z');
  });

  it('drops what overflows its queue and what a failed write held, counts it, and reports the count as an entry', async () => {
    const c = new LogCapture();
    for (let i = 0; i < 2_050; i++) c.write(line(40, `w${i}`));
    expect(c.dropped).toBe(50);
    let fail = true;
    const written: CapturedEntry[] = [];
    c.use(async (entries) => {
      if (fail) throw new Error('database down');
      written.push(...entries);
    });
    await expect(c.flush()).resolves.toBeUndefined();
    expect(c.dropped).toBe(50 + 500);
    fail = false;
    await c.close();
    // The 2,000 queued, less the failed batch of 500, plus one report per flush that found drops (50, then 500).
    expect(written.filter((e) => e.process === 'log-capture').map((e) => e.fields.dropped)).toEqual([50, 500]);
    expect(written).toHaveLength(1_500 + 2);
  });

  it("is fed by every logger's warnings, after the logger's error serializer", async () => {
    const written: CapturedEntry[] = [];
    logCapture.use(async (entries) => void written.push(...entries));
    try {
      const sink = { write: () => undefined };
      const log = createLogger('info', 'unit', sink);
      log.info('not captured');
      log.warn({ err: Object.assign(new Error('bad'), { parameters: ['secret-hash'] }) }, 'captured');
      await logCapture.flush();
    } finally {
      logCapture.use(null);
    }
    expect(written.map((e) => e.msg)).toEqual(['captured']);
    expect(JSON.stringify(written[0].fields)).not.toContain('secret-hash');
    expect(written[0].fields.err).toMatchObject({ type: 'Error', message: 'bad' });
  });
});
