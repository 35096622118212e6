/**
 * A local OpenAI-compatible chat-completions server for tests: it answers `POST /v1/chat/completions` (and
 * `/chat/completions`) with what a script says, and records every request it got, so a test can read exactly what a
 * model would have been shown (a hostile cell's text, for one) and steer what it answers. Point the service at it with
 * `LLM_API_URL=<url>/v1` (platform/config.ts reads the LLM settings from there).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A chat message as the OpenAI API sends it. */
export interface ChatMessage {
  role: string;
  content: string;
}

/** One request the server got, its body parsed (null when it was not JSON). */
export interface ScriptedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: { model?: string; messages?: ChatMessage[]; response_format?: unknown; [key: string]: unknown } | null;
}

/**
 * What the script answers with:
 * - a string: the assistant message's content, in a 200 chat-completion body;
 * - `{ json }`: the same with `JSON.stringify(json)` as the content;
 * - `{ status, body? }`: that HTTP status with `body` (default: an OpenAI-style error object) as it is;
 * - `{ raw }`: a 200 whose body is `raw` as it is (not JSON, say);
 * - `{ hang: true }`: no answer at all, until the server closes (a provider that times out).
 */
export type ScriptedReply = string | { json: unknown } | { status: number; body?: string } | { raw: string } | { hang: true };

export interface ScriptedLlm {
  /** `http://127.0.0.1:<port>`; the service's LLM_API_URL is this plus `/v1`. */
  url: string;
  /** Every request, in the order they came. */
  requests: ScriptedRequest[];
  close(): Promise<void>;
}

const CHAT_PATHS = new Set(['/v1/chat/completions', '/chat/completions']);

/** A chat-completion body carrying `content` as the one choice's message. */
function completion(content: string, model: string): string {
  return JSON.stringify({
    id: 'chatcmpl-scripted',
    object: 'chat.completion',
    created: 0,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  });
}

function parse(raw: string): ScriptedRequest['body'] {
  try {
    const v: unknown = JSON.parse(raw);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as ScriptedRequest['body']) : null;
  } catch {
    return null;
  }
}

/** Starts the server on 127.0.0.1 (a free port); `script` decides each answer after the request is recorded. */
export async function startScriptedLlm(script: (req: ScriptedRequest) => ScriptedReply | Promise<ScriptedReply>): Promise<ScriptedLlm> {
  const requests: ScriptedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0];
      if (req.method !== 'POST' || !CHAT_PATHS.has(path)) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Not found' } }));
        return;
      }
      const raw = Buffer.concat(chunks).toString('utf8');
      const recorded: ScriptedRequest = { path, headers: req.headers, raw, body: parse(raw) };
      requests.push(recorded);
      Promise.resolve()
        .then(() => script(recorded))
        .then((reply) => answer(res, reply, recorded.body?.model ?? 'scripted'))
        .catch((err: unknown) => {
          // A script that throws is a test bug: say so loudly in the answer, as a provider's 500 would.
          res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `script failed: ${String(err)}` } }));
        });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

function answer(res: http.ServerResponse, reply: ScriptedReply, model: string): void {
  if (typeof reply === 'string') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(completion(reply, model));
  } else if ('json' in reply) {
    res.writeHead(200, { 'content-type': 'application/json' }).end(completion(JSON.stringify(reply.json), model));
  } else if ('status' in reply) {
    res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body ?? JSON.stringify({ error: { message: `scripted status ${reply.status}` } }));
  } else if ('raw' in reply) {
    res.writeHead(200, { 'content-type': 'application/json' }).end(reply.raw);
  }
  // { hang: true }: no answer; close() ends the connection.
}
