import type { JsonMap } from '../../entities';
import type { Section } from '../../engine/reports';
import type { Config } from '../../platform/config';

/** An LLM answer longer than this is cut: a summary, not a second report. */
const MAX_SUMMARY_CHARS = 4000;
const TIMEOUT_MS = 30_000;

const SYSTEM_PROMPT =
  'You write the summary section of a machine-learning report for a data team. Use only the figures given; do not invent any. ' +
  'Write 3 to 6 short plain-text paragraphs: what was measured, what stands out, and what to check next. No markdown.';

/**
 * The report's `llm_insights` section: a written summary of the report's own figures from an
 * OpenAI-compatible chat-completions endpoint. Without one configured, or when it fails, the
 * section says so in one line; the report is made either way.
 */
export async function llmInsightsSection(llm: Config['llm'], kind: string, facts: JsonMap): Promise<Section> {
  const section = (text: string, note = false): Section => ({ id: 'llm-insights', title: 'Insights', blocks: [{ type: note ? 'note' : 'paragraph', text }] });
  if (!llm) return section('LLM insights were asked for, but no LLM provider is configured on this server (LLM_API_URL).', true);
  try {
    const res = await fetch(`${llm.apiUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(llm.apiKey ? { authorization: `Bearer ${llm.apiKey}` } : {}) },
      body: JSON.stringify({
        model: llm.model,
        temperature: 0.2,
        max_tokens: 700,
        messages: [
          { role: 'system', content: SYSTEM_PROMPT },
          { role: 'user', content: `Report kind: ${kind}. Figures (JSON):\n${JSON.stringify(facts)}` },
        ],
      }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!res.ok) return section(`LLM insights could not be generated: the provider answered ${res.status}.`, true);
    const body = (await res.json()) as { choices?: { message?: { content?: unknown } }[] };
    const text = body.choices?.[0]?.message?.content;
    if (typeof text !== 'string' || !text.trim()) return section('LLM insights could not be generated: the provider sent no text.', true);
    const paragraphs = text
      .trim()
      .slice(0, MAX_SUMMARY_CHARS)
      .split(/\n\s*\n/);
    return {
      id: 'llm-insights',
      title: 'Insights',
      blocks: [
        { type: 'note', text: `Written by ${llm.model} from this report's figures; check them against the sections below.` },
        ...paragraphs.map((p) => ({ type: 'paragraph' as const, text: p.trim() })),
      ],
    };
  } catch (err) {
    const why = err instanceof Error && err.name === 'TimeoutError' ? `no answer within ${TIMEOUT_MS / 1000} s` : 'the provider could not be reached';
    return section(`LLM insights could not be generated: ${why}.`, true);
  }
}
