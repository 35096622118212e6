import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { scratchDir, scratchOwner, sweepScratch } from './scratch';

describe('per-process scratch folders', () => {
  let parent: string;
  beforeEach(() => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), 'mlsvc-scratch-'));
  });
  afterEach(() => fs.rmSync(parent, { recursive: true, force: true }));

  const folder = (name: string, file = 'x.upload') => {
    fs.mkdirSync(path.join(parent, name, 'uploads'), { recursive: true });
    fs.writeFileSync(path.join(parent, name, 'uploads', file), 'partial');
    return path.join(parent, name);
  };

  it("removes a dead process's folder and keeps those of running processes, of other hosts and unknown names", () => {
    // A process that has exited: its pid is free (reuse within this test is not a concern on a 4M pid space).
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    const host = os.hostname();
    const gone = folder(`${host}.${dead}`);
    const running = folder(`${host}.${process.ppid}`);
    const elsewhere = folder(`another-host.${dead}`);
    const legacy = folder('uploads');
    const mine = scratchDir(parent, 'uploads');
    fs.mkdirSync(mine, { recursive: true });
    expect(sweepScratch([parent, path.join(parent, 'missing')])).toEqual([gone]);
    for (const kept of [running, elsewhere, legacy, mine]) expect(fs.existsSync(kept)).toBe(true);
    expect(fs.existsSync(gone)).toBe(false);
  });

  it("removes a folder with this process's pid only when it predates this process (a container restarted as the same pid)", () => {
    const mine = folder(scratchOwner());
    expect(sweepScratch([parent])).toEqual([]);
    const before = new Date(Date.now() - process.uptime() * 1000 - 60_000);
    fs.utimesSync(mine, before, before);
    expect(sweepScratch([parent])).toEqual([mine]);
  });
});
