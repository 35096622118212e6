import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a {@link Receiver} got: its headers and raw body (what a signature is computed over). */
export interface ReceivedRequest {
  headers: http.IncomingHttpHeaders;
  raw: string;
}

/** A local HTTP server standing in for a webhook's or Slack's receiver: keeps every request, answers as told. */
export interface Receiver {
  /** `http://127.0.0.1:<port>` */
  url: string;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

/** Starts a receiver; `answer` replies to each request (default: 200 `ok`), after it is recorded. */
export async function startReceiver(answer: (r: ReceivedRequest, res: http.ServerResponse) => void = (_r, res) => res.writeHead(200).end('ok')): Promise<Receiver> {
  const received: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { headers: req.headers, raw: Buffer.concat(chunks).toString('utf8') };
      received.push(r);
      answer(r, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
