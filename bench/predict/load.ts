/**
 * Load generator, run as its own process so it does not share an event loop with the server.
 * Closed loop: `concurrency` requests in flight for `seconds`. Open loop: requests started at a
 * fixed `rps` whatever the answers do (latency then includes any queueing at the server).
 * Prints one JSON line: {mode, level, requests, errors, rps, p50_ms, p99_ms}.
 *
 *   node load.js URL BODY_JSON HEADERS_JSON closed CONCURRENCY SECONDS
 *   node load.js URL BODY_JSON HEADERS_JSON open RPS SECONDS
 */
import http from 'node:http';

const [url, body, headersJson, mode, levelArg, secondsArg] = process.argv.slice(2);
const level = Number(levelArg);
const seconds = Number(secondsArg);
const target = new URL(url);
const agent = new http.Agent({ keepAlive: true, maxSockets: mode === 'closed' ? level : 256 });
const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...JSON.parse(headersJson) };
const latencies: number[] = [];
let errors = 0;

function once(): Promise<void> {
  const t0 = process.hrtime.bigint();
  return new Promise((resolve) => {
    const req = http.request({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers, agent }, (res) => {
      res.resume();
      res.on('end', () => {
        if (res.statusCode !== 200) errors++;
        latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
        resolve();
      });
    });
    req.on('error', () => {
      errors++;
      resolve();
    });
    req.end(body);
  });
}

async function main(): Promise<void> {
  const end = Date.now() + seconds * 1000;
  const started = Date.now();
  if (mode === 'closed') {
    await Promise.all(Array.from({ length: level }, async () => {
      while (Date.now() < end) await once();
    }));
  } else {
    const inflight: Promise<void>[] = [];
    const interval = 1000 / level;
    let next = Date.now();
    while (Date.now() < end) {
      inflight.push(once());
      next += interval;
      const wait = next - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    await Promise.all(inflight);
  }
  const elapsed = (Date.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? null;
  console.log(JSON.stringify({ mode, level, requests: latencies.length, errors, rps: latencies.length / elapsed, p50_ms: q(0.5), p99_ms: q(0.99) }));
  agent.destroy();
}

void main();
