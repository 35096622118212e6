import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { llmInsightsSection } from './llm-insights';

/** The insights section when the provider is missing or misbehaves: one line, never a failed report. */
describe('llmInsightsSection', () => {
  const facts = { best_model: { name: 'GBM_1', auc: 0.91 } };

  it('says in one line that no provider is configured', async () => {
    const s = await llmInsightsSection(null, 'experiment', facts);
    expect(s.blocks).toEqual([{ type: 'note', text: 'LLM insights were asked for, but no LLM provider is configured on this server (LLM_API_URL).' }]);
  });

  it('says so when the provider answers with an error, or cannot be reached', async () => {
    const server = http.createServer((_req, res) => {
      res.statusCode = 503;
      res.end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      const s = await llmInsightsSection({ apiUrl: `http://127.0.0.1:${port}/v1`, apiKey: 'k', model: 'm' }, 'model', facts);
      expect(s.blocks).toEqual([{ type: 'note', text: 'LLM insights could not be generated: the provider answered 503.' }]);
    } finally {
      server.close();
    }
    const gone = await llmInsightsSection({ apiUrl: `http://127.0.0.1:${port}/v1`, apiKey: null, model: 'm' }, 'model', facts);
    expect(gone.blocks).toEqual([{ type: 'note', text: 'LLM insights could not be generated: the provider could not be reached.' }]);
  });

  it('sends the figures with the bearer key and keeps the answer as paragraphs', async () => {
    let seen: { auth?: string; body?: { model: string; messages: { content: string }[] } } = {};
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen = { auth: req.headers.authorization, body: JSON.parse(body) };
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ choices: [{ message: { content: 'First.\n\nSecond.' } }] }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const s = await llmInsightsSection({ apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, apiKey: 'secret', model: 'gpt-x' }, 'experiment', facts);
      expect(seen.auth).toBe('Bearer secret');
      expect(seen.body!.model).toBe('gpt-x');
      expect(seen.body!.messages[1].content).toContain('"auc":0.91');
      expect(s.blocks.slice(1)).toEqual([
        { type: 'paragraph', text: 'First.' },
        { type: 'paragraph', text: 'Second.' },
      ]);
    } finally {
      server.close();
    }
  });
});
