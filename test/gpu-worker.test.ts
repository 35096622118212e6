import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { killHard } from './support/killable';
import { startStack, TestStack } from './support/stack';

/**
 * The gpu worker's adapter check, on the real process entry (`workers/gpu.js`): it refuses to start where no adapter
 * can be had, and starts, logging the adapter, where one can. CI has no GPU: the second case runs on Mesa's software
 * renderer (GPU_ALLOW_SOFTWARE=1; `.ci/run` installs it) and fails, never skips, when Mesa is missing.
 */
let stack: TestStack;
const children: ChildProcess[] = [];

beforeAll(async () => {
  stack = await startStack({ workers: [] });
}, 120_000);
afterAll(async () => {
  await Promise.all(children.map((c) => killHard(c)));
  await stack?.stop();
});

interface Run {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** No Vulkan driver can be found (the loader reads only this missing file) and the software renderer is not allowed: a CPU machine, even where there is a GPU. */
const NO_ADAPTER = { VK_DRIVER_FILES: '/nonexistent/icd.json', VK_ICD_FILENAMES: '/nonexistent/icd.json', GPU_ALLOW_SOFTWARE: '0' };

function startGpuWorker(env: Record<string, string | undefined>, entry = ['gpu.js']): Run {
  const child = spawn(process.execPath, [path.join(__dirname, '..', 'workers', entry[0]), ...entry.slice(1)], {
    env: { ...process.env, ...stack.workerEnv, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** The worker's JSON log lines. */
function logLines(text: string): { msg: string; [k: string]: unknown }[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
}

async function until(what: string, run: Run, ok: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline || run.child.exitCode !== null) {
      throw new Error(`${what} did not happen (exit ${run.child.exitCode}).\nstdout:\n${run.stdout()}\nstderr:\n${run.stderr()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('the gpu worker at start', () => {
  it('refuses to start when no adapter can be had, naming what a GPU machine needs', async () => {
    const run = startGpuWorker(NO_ADAPTER);
    expect(await run.exited).toBe(1);
    expect(run.stderr()).toContain('The gpu worker refuses to start.');
    expect(run.stderr()).toContain('libvulkan1');
    expect(run.stderr()).toMatch(/NVIDIA, AMD and Intel/);
    // It stopped before polling anything.
    expect(logLines(run.stdout()).map((l) => l.msg)).not.toContain('workers polling');
  }, 60_000);

  it('starts and logs its adapter when one can be had (Mesa with GPU_ALLOW_SOFTWARE=1 on a machine without a GPU)', async () => {
    const run = startGpuWorker({ GPU_ALLOW_SOFTWARE: '1' });
    const polling = () => logLines(run.stdout()).find((l) => l.msg === 'workers polling');
    await until('the gpu worker polling its queue', run, () => polling() !== undefined, 60_000);
    expect(polling()!.queues).toContain(stack.config.taskQueues.gpu);
    const adapter = logLines(run.stdout()).find((l) => l.msg.startsWith('GPU adapter: '));
    expect(adapter).toBeDefined();
    const gpu = adapter!.gpu as { backend: string; software: boolean; device: string; limits: Record<string, number> };
    expect(['vulkan', 'opengles']).toContain(gpu.backend);
    expect(gpu.limits.maxComputeInvocationsPerWorkgroup).toBeGreaterThanOrEqual(256);
    if (gpu.software) expect(logLines(run.stdout()).some((l) => /software renderer/.test(l.msg) && l.level === 40)).toBe(true);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  }, 90_000);

  it('a process that also runs io (npm start on a laptop) drops gpu with a warning and keeps the rest', async () => {
    const run = startGpuWorker(NO_ADAPTER, ['run-workers.js', 'io', 'gpu']);
    const polling = () => logLines(run.stdout()).find((l) => l.msg === 'workers polling');
    await until('the io worker polling its queue', run, () => polling() !== undefined, 60_000);
    expect(polling()!.queues).toContain(stack.config.taskQueues.io);
    expect(polling()!.queues).not.toContain(stack.config.taskQueues.gpu);
    const warning = logLines(run.stdout()).find((l) => l.msg.startsWith('not polling ml-gpu'));
    expect(warning?.msg).toContain('libvulkan1');
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  }, 90_000);
});
