/**
 * Benchmark (not a test): `POST /api/anonymize/stream` with a large CSV body, the API in this process on the real
 * stack and the client in others (a generator piped into curl), so this process's RSS is the API's. Target: a 1 GB
 * body raises the API's RSS by at most 100 MB.
 *
 *   npm run build && node dist/bench/anonymize/run.js [megabytes=1024]   # → bench/results/anonymize.json
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import globalSetup from '../../test/support/global-setup';
import globalTeardown from '../../test/support/global-teardown';
import { createProject, signUp } from '../../test/support/client';
import { startStack } from '../../test/support/stack';

async function main(): Promise<void> {
  const megabytes = Number(process.argv[2] ?? 1024);
  await globalSetup();
  const stack = await startStack({ workers: [], env: { RATE_LIMIT_GENERAL: '1000000' } });
  try {
    const { client } = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(client, 'bench');
    const policy = await client.post('/api/privacy/policies', { project_id: projectId, name: 'bench', profile: 'custom' });
    for (const [pii_type, action] of [
      ['email', 'redact'],
      ['ssn', 'redact'],
      ['credit_card', 'mask'],
      ['phone', 'mask'],
      ['ip_address', 'hash'],
    ]) {
      await client.post(`/api/privacy/policies/${policy.body.id}/rules`, { pii_type, action });
    }
    const key = (await client.post('/api/auth/api-keys', { name: 'bench', scopes: ['write:privacy'] })).body.api_key as string;
    const url = `${stack.baseUrl}/api/anonymize/stream?policy_id=${policy.body.id}`;

    (globalThis as { gc?: () => void }).gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const peaks = { heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 };
    const meter = setInterval(() => {
      const m = process.memoryUsage();
      peak = Math.max(peak, m.rss);
      for (const k of Object.keys(peaks) as (keyof typeof peaks)[]) peaks[k] = Math.max(peaks[k], m[k]);
    }, 100);
    const t0 = Date.now();
    const generator = path.join(__dirname, 'generate.js');
    const out = await new Promise<string>((resolve, reject) => {
      const p = spawn(
        'bash',
        [
          '-c',
          `set -o pipefail; node "${generator}" ${megabytes} | curl -sS -X POST -T - -H 'content-type: text/csv' -H "authorization: Bearer ${key}" "${url}" -o /dev/null -w '%{http_code} %{size_upload} %{size_download}'`,
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let text = '';
      p.stdout.on('data', (d) => (text += d));
      p.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`client exited ${code}: ${text}`))));
    });
    clearInterval(meter);
    const secs = (Date.now() - t0) / 1000;
    const [status, up, down] = out.trim().split(' ').map(Number);
    const result = {
      megabytes_sent: up / 2 ** 20,
      megabytes_answered: down / 2 ** 20,
      status,
      seconds: secs,
      mb_per_second: up / 2 ** 20 / secs,
      rss_before_mb: before / 2 ** 20,
      rss_peak_mb: peak / 2 ** 20,
      rss_growth_mb: (peak - before) / 2 ** 20,
      peaks_mb: Object.fromEntries(Object.entries(peaks).map(([k, v]) => [k, Math.round(v / 2 ** 20)])),
    };
    console.log(JSON.stringify(result, null, 2));
    console.log(`API RSS grew ${result.rss_growth_mb.toFixed(0)} MB over a ${result.megabytes_sent.toFixed(0)} MB body (target <= 100 MB): ${result.rss_growth_mb <= 100 ? 'met' : 'MISSED'}`);
    fs.mkdirSync(path.join(__dirname, '..', '..', '..', 'bench', 'results'), { recursive: true });
    fs.writeFileSync(path.join(__dirname, '..', '..', '..', 'bench', 'results', 'anonymize.json'), JSON.stringify(result, null, 2));
  } finally {
    await stack.stop();
    await globalTeardown();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
