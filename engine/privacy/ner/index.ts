/**
 * engine/privacy/ner: spaCy's `en_core_web_sm` 3.8.0 named-entity recognizer, its inference ported to synchronous
 * TypeScript (no Python, no ONNX Runtime). The weights are converted once from the model's wheel by
 * platform/ner-model.ts into NER_MODEL_DIR and read here on first use.
 *
 * - `nerEntities(text)` → `{label, start, end, score}[]` with OntoNotes labels (PERSON, ORG, GPE, LOC, FAC, NORP,
 *   DATE, MONEY, ...), UTF-16 offsets, what spaCy's NER component finds in the text (tokens and entities agree with
 *   spaCy on the cross-check fixture, see ner.test.ts). `score` is the least confident of the entity's moves (the
 *   softmax probability among the valid moves; spaCy's greedy decoder has no score of its own).
 * - Without the model file it returns [] and warns once: detection then runs on the rules alone.
 */
import { loadNerModel, type NerModel } from './model';
import { defaultNerModelDir } from './model-files';

export { NER_FORMAT_VERSION, NER_MODEL_NAME, defaultNerModelDir, type NerManifest, type MoveSpec, type TensorRef } from './model-files';
export { modelPaths as nerModelPaths } from './model';

export interface NerEntity {
  label: string;
  start: number;
  end: number;
  score: number;
}

/**
 * Characters the model reads in one piece: longer texts are cut at a line break or sentence end (else a space)
 * before this, so memory stays bounded; the encoder sees 4 tokens each side, so a cut changes almost nothing.
 */
const PIECE_CHARS = 4000;

let modelDir: string | undefined;
let model: NerModel | null | undefined;

/** Reads the model from `dir` instead of NER_MODEL_DIR's (tests, tools); forgets a model already loaded. */
export function configureNer(opts: { modelDir?: string }): void {
  modelDir = opts.modelDir;
  model = undefined;
}

function getModel(): NerModel | null {
  if (model !== undefined) return model;
  const dir = modelDir ?? defaultNerModelDir();
  try {
    model = loadNerModel(dir);
  } catch (err) {
    model = null;
    process.emitWarning(
      `named-entity model not available in ${dir} (${err instanceof Error ? err.message : String(err)}); names, organizations and places are found by the rules alone. Run \`node dist/scripts/ensure-ner-model.js\`.`,
      { code: 'MLSVC_NER_MODEL_MISSING' },
    );
  }
  return model;
}

/** Whether the model is present (loads it on first call). */
export function nerAvailable(): boolean {
  return getModel() !== null;
}

/** Where to cut a long text: the last line break, else sentence end, else space before `limit`. */
function cutPoint(text: string, from: number, limit: number): number {
  const window = text.slice(from, limit);
  let i = window.lastIndexOf('\n');
  if (i < window.length / 2) {
    const m = /[.!?]\s(?=[^.!?]*$)/.exec(window);
    i = m ? m.index + 1 : window.lastIndexOf(' ');
  }
  return i > 0 ? from + i + 1 : limit;
}

/** The named entities spaCy's small English model finds in `text`. */
export function nerEntities(text: string): NerEntity[] {
  if (!text || !/\S/.test(text)) return [];
  const m = getModel();
  if (!m) return [];
  const out: NerEntity[] = [];
  let from = 0;
  while (from < text.length) {
    const to = text.length - from <= PIECE_CHARS ? text.length : cutPoint(text, from, from + PIECE_CHARS);
    runPiece(m, text.slice(from, to), from, out);
    from = to;
  }
  return out;
}

function runPiece(m: NerModel, piece: string, offset: number, out: NerEntity[]): void {
  const tokens = m.tokenizer.tokenize(piece);
  const n = tokens.length;
  if (n === 0) return;
  const { embedded, isSpace } = m.embedTokens(tokens);
  const { lower, closedScores } = m.network.encode(embedded, n);
  for (const e of m.decoder.decode(lower, closedScores, isSpace, n)) {
    out.push({ label: e.label, start: offset + tokens[e.start].start, end: offset + tokens[e.end - 1].end, score: e.score });
  }
}

/** spaCy's tokens of a text (for the cross-check and for callers that map offsets). */
export function nerTokens(text: string): { start: number; end: number; text: string }[] {
  const m = getModel();
  return m ? m.tokenizer.tokenize(text).map(({ start, end, text: t }) => ({ start, end, text: t })) : [];
}
