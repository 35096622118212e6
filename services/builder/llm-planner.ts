/**
 * The LLM planner: a step's proposal (or its revision in chat) from an OpenAI-compatible chat-completions endpoint,
 * called as report insights call it (services/reports/llm-insights.ts: the same `Config['llm']`, timeout and error
 * wording). The model sees the step input's profile (llm-prompt.ts), never rows unless the session allows a sample,
 * and answers through a strict JSON schema made from the operations' own zod schema; a model that answers text with
 * the JSON in a code fence is read too.
 *
 * Nothing the model says runs as it is: each operation is parsed by `operationSchema` and then validated against the
 * columns the ones before it leave (`validateOperations`), and one that fails is returned in `discarded` with why.
 * A provider that fails (an error status, no answer in time, an answer that is not the JSON asked for) is an
 * {@link LlmPlannerError}, which the API answers with 502.
 */
import { z } from 'zod';
import { MAX_STEP_OPERATIONS, OperationError, operationSchema, checkOperation, type Operation, type PlannerFacts, type ProposedOperation, type StepName } from '../../engine/builder';
import type { ColumnInfo, JsonRow } from '../../engine/data';
import type { Config } from '../../platform/config';
import { DomainError } from '../errors';
import { chatMessages } from './llm-prompt';
import { strictJsonSchema, withoutNulls } from './strict-schema';

/** How long the provider has to answer: as for report insights. */
export const LLM_TIMEOUT_MS = 30_000;
/** Characters kept of the model's reply to the user, and of each reason. */
const MAX_REPLY_CHARS = 4000;
const MAX_REASON_CHARS = 500;
/** The schema's name in `response_format` (OpenAI: letters, digits, _ and -). */
const SCHEMA_NAME = 'builder_step_proposal';

/** What a proposal is asked from. */
export interface LlmProposalRequest {
  step: StepName;
  /** The step input's facts (its own input: the output of the steps before it). */
  facts: PlannerFacts;
  /** The step's current proposal, which the answer revises. */
  current: Operation[];
  /** The chat so far, oldest first; the user's messages are the only requests the model is given. */
  messages: { role: 'user' | 'assistant'; content: string }[];
  /** Rows the model may see: only when the session allows a sample (at most 20 are shown). */
  sample?: JsonRow[];
  /** Columns of the dataset versions a `join` may name, by id (validate.ts); without them a join is discarded. */
  joins?: Record<string, ColumnInfo[]>;
}

/** The model's proposal, validated: what passed, its reply, and what was discarded with why. */
export interface LlmProposal {
  operations: ProposedOperation[];
  reply: string;
  discarded: { operation: unknown; why: string }[];
}

/** The provider could not give a usable answer: its status, no answer in time, or an answer that is not the JSON asked for. */
export class LlmPlannerError extends DomainError {
  readonly name = 'LlmPlannerError';
}

/** The `response_format` schema: `{reply, operations: [{operation, reason}]}`, strict (see strict-schema.ts). */
let responseSchema: Record<string, unknown> | null = null;
export function proposalJsonSchema(): Record<string, unknown> {
  responseSchema ??= strictJsonSchema(
    z.toJSONSchema(
      z.object({
        reply: z.string(),
        operations: z.array(z.object({ operation: operationSchema, reason: z.string() })),
      }),
      { io: 'input' },
    ) as Record<string, unknown>,
  );
  return responseSchema;
}

/**
 * Asks the model for the step's (revised) proposal and validates every operation it answers.
 * @param opts.timeoutMs how long the provider has (default {@link LLM_TIMEOUT_MS})
 * @throws LlmPlannerError when the provider fails or answers something that is not the JSON asked for
 */
export async function proposeWithLlm(llm: NonNullable<Config['llm']>, req: LlmProposalRequest, opts: { timeoutMs?: number } = {}): Promise<LlmProposal> {
  const content = await complete(llm, req, opts.timeoutMs ?? LLM_TIMEOUT_MS);
  const answer = parseAnswer(content);
  if (answer === null) throw new LlmPlannerError('The LLM planner could not propose: the provider answered text that is not the JSON object asked for.');
  return validatedProposal(answer, req.facts, llm.model, req.joins ?? {});
}

/** The assistant message's text from the provider. */
async function complete(llm: NonNullable<Config['llm']>, req: LlmProposalRequest, timeoutMs: number): Promise<string> {
  let res: Response;
  try {
    res = await fetch(`${llm.apiUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(llm.apiKey ? { authorization: `Bearer ${llm.apiKey}` } : {}) },
      body: JSON.stringify({
        model: llm.model,
        temperature: 0,
        messages: chatMessages(req.step, req.facts, req.current, req.messages, req.sample),
        response_format: { type: 'json_schema', json_schema: { name: SCHEMA_NAME, strict: true, schema: proposalJsonSchema() } },
      }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    throw new LlmPlannerError(`The LLM planner could not propose: ${unreached(err, timeoutMs)}.`);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new LlmPlannerError(`The LLM planner could not propose: the provider answered ${res.status}.`);
  }
  let body: { choices?: { message?: { content?: unknown; refusal?: unknown } }[] };
  try {
    body = (await res.json()) as typeof body;
  } catch (err) {
    if (timedOut(err)) {
      throw new LlmPlannerError(`The LLM planner could not propose: ${unreached(err, timeoutMs)}.`);
    }
    throw new LlmPlannerError('The LLM planner could not propose: the provider answered something that is not a chat completion.');
  }
  const message = body?.choices?.[0]?.message;
  const text = message?.content;
  if (typeof text === 'string' && text.trim()) return text;
  if (typeof message?.refusal === 'string' && message.refusal.trim()) {
    throw new LlmPlannerError(`The LLM planner could not propose: the model refused (${message.refusal.trim().slice(0, 200)}).`);
  }
  throw new LlmPlannerError('The LLM planner could not propose: the provider sent no text.');
}

/** Why the provider was not heard from, in words (the style of llm-insights.ts). */
function unreached(err: unknown, timeoutMs: number): string {
  return timedOut(err) ? `no answer within ${timeoutMs / 1000} s` : 'the provider could not be reached';
}

/** Whether `err` is the timeout signal's abort (a DOMException, not always an `Error` of this realm: read its name). */
function timedOut(err: unknown): boolean {
  const name = (err as { name?: unknown } | null)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}

/**
 * The answer's JSON object: the whole text, else the first code fence holding one, else the text from its first `{`
 * to its last `}` (models asked for JSON that wrap it in prose). Null when none parses to an object.
 */
export function parseAnswer(text: string): Record<string, unknown> | null {
  const candidates = [text.trim()];
  for (const m of text.matchAll(/```[a-zA-Z]*[ \t]*\r?\n?([\s\S]*?)```/g)) candidates.push(m[1].trim());
  const first = text.indexOf('{');
  const last = text.lastIndexOf('}');
  if (first >= 0 && last > first) candidates.push(text.slice(first, last + 1));
  for (const c of candidates) {
    try {
      const v: unknown = JSON.parse(c);
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
    } catch {
      // Not this one; try the next reading.
    }
  }
  return null;
}

/** An item's operation and reason: `{operation, reason}`, or a bare operation (`{op, ...}`) some models answer. */
function itemParts(item: unknown): { operation: unknown; reason: unknown } | null {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return null;
  const o = item as Record<string, unknown>;
  if ('operation' in o) return { operation: o.operation, reason: o.reason };
  if ('op' in o) {
    const { reason, ...operation } = o;
    return { operation, reason };
  }
  return null;
}

/** Why a zod failure refused an operation, in one line. */
function zodWhy(error: z.ZodError): string {
  const issues = error.issues.slice(0, 3).map((i) => `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`);
  return `not a valid operation (${issues.join('; ')})`;
}

/** An operation that would remove the target column (the planners never propose one; a model may be talked into it). */
function removesTarget(op: Operation, target: string | null): boolean {
  if (target === null) return false;
  switch (op.op) {
    case 'drop_columns':
      return op.columns.includes(target);
    case 'rename_column':
    case 'one_hot_encode':
      return op.column === target && !(op.op === 'one_hot_encode' && op.keep_original);
    case 'split_column':
      return op.column === target && !op.keep_original;
    default:
      return false;
  }
}

/** The answer's operations, each parsed and validated against the columns the kept ones before it leave. */
function validatedProposal(answer: Record<string, unknown>, facts: PlannerFacts, model: string, joins: Record<string, ColumnInfo[]>): LlmProposal {
  const items = answer.operations ?? [];
  if (!Array.isArray(items)) throw new LlmPlannerError("The LLM planner could not propose: the provider's answer has no list of operations.");
  const reply = typeof answer.reply === 'string' ? answer.reply.trim().slice(0, MAX_REPLY_CHARS) : '';
  const operations: ProposedOperation[] = [];
  const discarded: LlmProposal['discarded'] = [];
  // validateOperations one operation at a time (checkOperation): each meets what the kept ones before it leave.
  let state: ReturnType<typeof checkOperation> = { columns: facts.columns, openPrefixes: [] };
  for (const item of items) {
    const parts = itemParts(item);
    if (!parts) {
      discarded.push({ operation: item, why: 'not an {operation, reason} pair' });
      continue;
    }
    const parsed = operationSchema.safeParse(withoutNulls(parts.operation));
    if (!parsed.success) {
      discarded.push({ operation: parts.operation, why: zodWhy(parsed.error) });
      continue;
    }
    const op = parsed.data;
    if (removesTarget(op, facts.target)) {
      discarded.push({ operation: parts.operation, why: `it would remove the target column ${JSON.stringify(facts.target)}` });
      continue;
    }
    if (operations.length >= MAX_STEP_OPERATIONS) {
      discarded.push({ operation: parts.operation, why: `a step holds at most ${MAX_STEP_OPERATIONS} operations` });
      continue;
    }
    try {
      state = checkOperation(op, operations.length, state.columns, joins, state.openPrefixes);
    } catch (err) {
      if (!(err instanceof OperationError)) throw err;
      discarded.push({ operation: parts.operation, why: err.detail });
      continue;
    }
    const reason = typeof parts.reason === 'string' && parts.reason.trim() ? parts.reason.trim().slice(0, MAX_REASON_CHARS) : `Proposed by ${model} without a reason`;
    operations.push({ operation: op, reason });
  }
  return { operations, reply, discarded };
}
