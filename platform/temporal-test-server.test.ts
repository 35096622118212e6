import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureTemporalTestServer, TEMPORAL_TEST_SERVER_VERSION, testServerDir } from './temporal-test-server';

/** The fetch itself (Maven) runs when the workflow tests first need the server; these pin down what happens around it. */
describe('ensureTemporalTestServer', () => {
  const saved = { cache: process.env.MLSVC_CACHE_DIR, path: process.env.PATH, explicit: process.env.TEMPORAL_TEST_SERVER_PATH };
  let cache: string;

  beforeEach(() => {
    cache = fs.mkdtempSync(path.join(os.tmpdir(), 'mlsvc-test-server-'));
    process.env.MLSVC_CACHE_DIR = cache;
    delete process.env.TEMPORAL_TEST_SERVER_PATH;
  });

  afterEach(() => {
    for (const [key, value] of [
      ['MLSVC_CACHE_DIR', saved.cache],
      ['PATH', saved.path],
      ['TEMPORAL_TEST_SERVER_PATH', saved.explicit],
    ] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    fs.rmSync(cache, { recursive: true, force: true });
  });

  /** An existing, empty folder: an empty PATH would make the system search its default folders instead. */
  function emptyBin(): string {
    const dir = path.join(cache, 'empty-bin');
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  }

  it('returns a cached launcher without running Java or Maven', () => {
    const dir = testServerDir();
    expect(dir).toBe(path.join(cache, 'temporal-test-server', TEMPORAL_TEST_SERVER_VERSION));
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'launch'), '#!/bin/sh\n', { mode: 0o755 });
    // With an empty folder as PATH, any attempt to run a tool would fail the call.
    process.env.PATH = emptyBin();
    const say = jest.fn();
    expect(ensureTemporalTestServer(say)).toBe(path.join(dir, 'launch'));
    expect(say).not.toHaveBeenCalled();
  });

  it('says which tool is missing instead of leaving a half-made cache', () => {
    process.env.PATH = emptyBin();
    expect(() => ensureTemporalTestServer(() => undefined)).toThrow(/needs `java`/);
    expect(fs.existsSync(testServerDir())).toBe(false);
  });

  it('uses TEMPORAL_TEST_SERVER_PATH when it names a file', () => {
    const launcher = path.join(cache, 'my-launcher');
    fs.writeFileSync(launcher, '#!/bin/sh\n', { mode: 0o755 });
    process.env.TEMPORAL_TEST_SERVER_PATH = launcher;
    expect(ensureTemporalTestServer(() => undefined)).toBe(launcher);
  });
});
