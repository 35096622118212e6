import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { leftoverPid, stopProcess } from './leftover-process';
import { processAlive } from './scratch';

describe('leftover processes', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leftover-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('finds a live process its pid file names, only when the command matches, and stops it', async () => {
    const child = spawn('sleep', ['300'], { detached: true, stdio: 'ignore' });
    child.unref();
    const file = path.join(dir, 'sleep.pid');
    fs.writeFileSync(file, `${child.pid}\n`);
    expect(leftoverPid(file, 'temporal')).toBeUndefined(); // a reused pid of another program is left alone
    expect(leftoverPid(file, 'sleep')).toBe(child.pid);
    await stopProcess(child.pid!, 'SIGTERM');
    expect(processAlive(child.pid!)).toBe(false);
    expect(leftoverPid(file, 'sleep')).toBeUndefined();
  });

  it('ignores a missing file, garbage and this process', () => {
    expect(leftoverPid(path.join(dir, 'none.pid'), 'x')).toBeUndefined();
    fs.writeFileSync(path.join(dir, 'bad.pid'), 'not a pid');
    expect(leftoverPid(path.join(dir, 'bad.pid'), 'x')).toBeUndefined();
    fs.writeFileSync(path.join(dir, 'self.pid'), String(process.pid));
    expect(leftoverPid(path.join(dir, 'self.pid'), 'node')).toBeUndefined();
  });
});
