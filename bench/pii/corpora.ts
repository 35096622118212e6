/**
 * The independent corpora of the PII benchmark: labelled text that this project did not write or generate, read from
 * a local cache (default ~/.cache/mlsvc/pii-corpora, or $PII_CORPORA_DIR) where `fetch-corpora.ts` puts the pinned
 * files. The data is not committed: its licences ask for attribution (and for UNER, share-alike), and a cache keeps
 * the repository free of third-party data. Every file is pinned by sha256, so a changed upstream file stops the run
 * instead of silently changing the figures.
 *
 * Corpus labels map to engine type ids here (`null`: an entity the corpus labels that is not PII, such as a product;
 * predictions inside it count neither for nor against a detector). The sample is a seeded draw per source, so every
 * run scores the same sentences.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { seeded } from '../support/seeded';

export interface GoldSpan {
  /** Engine type id the corpus label stands for. */
  type: string;
  /** The corpus's own label. */
  label: string;
  start: number;
  end: number;
}
export interface IgnoredSpan {
  label: string;
  start: number;
  end: number;
}
export interface CorpusText {
  source: string;
  id: string;
  text: string;
  spans: GoldSpan[];
  ignored: IgnoredSpan[];
}

/** `train`: sentences the entity tagger learns from (bench/pii/train-tagger.ts), never scored. */
export type Split = 'test' | 'dev' | 'train';

interface PinnedFile {
  path: string;
  sha256: string;
}
export interface CorpusSource {
  id: string;
  title: string;
  /** What the text is. */
  text: string;
  licence: string;
  url: string;
  repo: string;
  commit: string;
  files: Partial<Record<Split, PinnedFile>>;
  /** Corpus label → engine type id, or null for a labelled entity that is not PII. */
  labels: Record<string, string | null>;
  /** Sentences drawn from the split (all of them when the split is smaller); 0: a training source only. */
  sample: number;
  parse(raw: string): Sentence[];
}

interface Sentence {
  id: string;
  text: string;
  /** Token offsets with their BIO tags, for span decoding. */
  tokens: { start: number; end: number; tag: string }[];
}

/** BIO tags over tokens → labelled character spans (an I- tag of another label, or after O, opens a new span). */
export function decodeBio(s: Sentence): { label: string; start: number; end: number }[] {
  const out: { label: string; start: number; end: number }[] = [];
  let open: { label: string; start: number; end: number } | null = null;
  for (const t of s.tokens) {
    const m = /^([BI])-(.+)$/.exec(t.tag);
    if (!m) {
      open = null;
      continue;
    }
    if (m[1] === 'I' && open && open.label === m[2]) {
      open.end = t.end;
      continue;
    }
    open = { label: m[2], start: t.start, end: t.end };
    out.push(open);
  }
  return out;
}

/** Blocks of lines separated by blank lines. */
function blocks(raw: string): string[][] {
  return raw
    .split(/\r?\n\s*\r?\n/)
    .map((b) => b.split(/\r?\n/).filter((l) => l.length > 0))
    .filter((b) => b.length > 0);
}

/**
 * UNER's IOB2 files keep UD's `# text =` line, the sentence as written: tokens are found in it left to right, so the
 * offsets are those of the original text. A sentence whose tokens cannot be found in order is dropped (none in the
 * pinned files).
 */
function parseUnerIob2(raw: string): Sentence[] {
  const out: Sentence[] = [];
  for (const b of blocks(raw)) {
    const text = b.find((l) => l.startsWith('# text = '))?.slice('# text = '.length);
    const id = b.find((l) => l.startsWith('# sent_id = '))?.slice('# sent_id = '.length) ?? String(out.length);
    if (text === undefined) continue;
    const tokens: Sentence['tokens'] = [];
    let at = 0;
    let ok = true;
    for (const l of b) {
      if (l.startsWith('#')) continue;
      const cols = l.split('\t');
      if (!/^\d+$/.test(cols[0])) continue;
      const start = text.indexOf(cols[1], at);
      if (start < 0) {
        ok = false;
        break;
      }
      at = start + cols[1].length;
      tokens.push({ start, end: at, tag: cols[2] });
    }
    if (ok) out.push({ id, text, tokens });
  }
  return out;
}

/** Tokens written without a space before them, and after them, when WNUT's tokens are joined back into text. */
const NO_SPACE_BEFORE = /^(?:[.,!?;:%)\]}”’]+|'s|'re|'ve|'ll|'d|'m|n't|…)$/i;
const NO_SPACE_AFTER = /^[([{“‘]$/;

/**
 * WNUT-17 ships tokens only (one per line, tab, tag): the text is rebuilt by joining them with single spaces, except
 * before closing punctuation and clitics and after opening brackets. What the tokenizer split inside a word ("n ' t",
 * "& gt ;") stays split: that is how the corpus has it.
 */
export function parseWnutConll(raw: string): Sentence[] {
  return blocks(raw).map((b, i) => {
    let text = '';
    const tokens: Sentence['tokens'] = [];
    let prev = '';
    for (const l of b) {
      const [tok, tag = 'O'] = l.split('\t');
      if (text.length > 0 && !NO_SPACE_BEFORE.test(tok) && !NO_SPACE_AFTER.test(prev)) text += ' ';
      tokens.push({ start: text.length, end: text.length + tok.length, tag: tag.trim() });
      text += tok;
      prev = tok;
    }
    return { id: `wnut17-${i + 1}`, text, tokens };
  });
}

export const SOURCES: CorpusSource[] = [
  {
    id: 'uner-en-ewt',
    title: 'Universal NER v1, English Web Treebank (UNER_English-EWT)',
    text: 'real English web text of UD English-EWT: e-mails (Enron), reviews, Yahoo! Answers, newsgroups, weblogs',
    licence: 'CC BY-SA 4.0',
    url: 'https://github.com/UniversalNER/UNER_English-EWT',
    repo: 'UniversalNER/UNER_English-EWT',
    commit: '8ed072de2fd24022cc62458997fe96a8fe191ea4',
    files: {
      test: { path: 'en_ewt-ud-test.iob2', sha256: '821ad826d5f503ac03b4edc3fbc2174f21fbb005ec25863caf2051c434616d6e' },
      dev: { path: 'en_ewt-ud-dev.iob2', sha256: '0cafd881cf31d39897b6d588420fab8fbbe4423d271725c59921ac9dd49c0713' },
    },
    labels: { PER: 'name', ORG: 'organization', LOC: 'location' },
    sample: 1500,
    parse: parseUnerIob2,
  },
  {
    id: 'wnut17',
    title: 'WNUT-17 Emerging and Rare Entities',
    text: 'real user text: tweets, Reddit and YouTube comments, StackExchange answers (many lower-case names)',
    licence: 'CC BY 4.0',
    url: 'https://github.com/leondz/emerging_entities_17',
    repo: 'leondz/emerging_entities_17',
    commit: 'e52a2d2a71ac1a051ca2d532eef28653c5c02603',
    files: {
      test: { path: 'emerging.test.annotated', sha256: '2aa79b764e56ec9264a1b30fdd9b70195bd00ff400b62edd8f399d5f13c178f0' },
      dev: { path: 'emerging.dev.conll', sha256: 'e053b752b8155113ca66e7db08af5f2f5f43ab993694e4774f1ec5bad42312d8' },
      train: { path: 'wnut17train.conll', sha256: '731820e13f71af324c6b55a1575ec2ce59fbaa2a0806f8f0400b98d56cd6a7a5' },
    },
    // "group": sports teams, bands, institutions that are not companies, so organizations too.
    labels: { person: 'name', location: 'location', corporation: 'organization', group: 'organization', product: null, 'creative-work': null },
    sample: 1000,
    parse: parseWnutConll,
  },
  {
    // Training only: its sentences teach the entity tagger and are never scored (its dev file is training data too).
    id: 'btc',
    title: 'Broad Twitter Corpus',
    text: 'real tweets from many regions, years and kinds of user (Derczynski et al., COLING 2016)',
    licence: 'CC BY 4.0',
    url: 'https://github.com/GateNLP/broad_twitter_corpus',
    repo: 'GateNLP/broad_twitter_corpus',
    commit: '0c45ef7b1924a6b8115bceab388781590b1b553a',
    files: {
      train: { path: 'train_dev_test_conll/btc.train', sha256: '2117732e744d8f1692786c7ebb919c52dadd406f082b43fe1e625a51f2cadd0f' },
    },
    labels: { PER: 'name', ORG: 'organization', LOC: 'location' },
    sample: 0,
    parse: parseWnutConll,
  },
];

/** Labels of the third-party PII set for identifiers of every kind (passports, licences, tax and account numbers). */
const IDENTIFIER_LABELS = [
  'ACCOUNT',
  'ACCOUNT_NUM',
  'ACCOUNT_NUMBER',
  'AADHAR',
  'BANK_ACCOUNT',
  'BANK_ACCOUNT_NUM',
  'DRIVER_LICENSE',
  'DRIVERS_LICENSE',
  'DRIVER_LICENSE_NUM',
  'EMPLOYEE_ID',
  'INSURANCE_ID',
  'INSURANCE_POLICY_NUM',
  'LICENSE',
  'MEDICAL_RECORD',
  'PAN',
  'PASSPORT',
  'PASSPORT_NUM',
  'PATIENT_ID',
  'PID',
  'POLICE_ID_NUM',
  'ROUTING_NUMBER',
  'TAX_ID',
  'TAXID',
  'VOTER_ID',
];

/**
 * A labelled set of sentences with entity lists ({text, NER: [{entity, label}]}): each entity is found in the text
 * (the next occurrence not taken yet); one whose text is not there is left out.
 */
function parseEntityLists(raw: string): Sentence[] {
  const rows = JSON.parse(raw) as { text: string; NER: { entity: string; label: string }[] }[];
  return rows.map((r, i) => {
    const taken: { start: number; end: number; tag: string }[] = [];
    for (const e of r.NER) {
      let at = r.text.indexOf(e.entity);
      while (at >= 0 && taken.some((t) => at < t.end && t.start < at + e.entity.length)) at = r.text.indexOf(e.entity, at + 1);
      if (at >= 0 && e.entity.length > 0) taken.push({ start: at, end: at + e.entity.length, tag: `B-${e.label}` });
    }
    return { id: `nano-${i + 1}`, text: r.text, tokens: taken.sort((a, b) => a.start - b.start) };
  });
}

/**
 * A third-party set of sentences about leaks and breaches, each labelled with the personal data in it: names,
 * e-mails, passwords and identifiers of many kinds (US, UK, Indian). Scored by bench/pii/third-party.ts for what
 * redaction leaves; not part of the name/organization/place figures of independent.ts, nor training data.
 */
export const THIRD_PARTY_PII: CorpusSource = {
  id: 'pii-synthetic-nano',
  title: 'PII-synthetic_dataset (nano, English)',
  text: '149 sentences written by its author (Nannigalaxy on GitHub) about data leaks, with the PII in each labelled',
  licence: 'MIT',
  url: 'https://github.com/Nannigalaxy/PII-synthetic_dataset',
  repo: 'Nannigalaxy/PII-synthetic_dataset',
  commit: 'e776265d92426ab9ef11f7bea3b9989addc39b63',
  files: { test: { path: 'dataset/pii_syn_nano_en.json', sha256: 'b5262726d69ccb005b749bc2bf599f598b05c532f9c1e0c395bb7332d6ee6a5c' } },
  labels: {
    PERSON: 'name',
    ORG: 'organization',
    ORGANIZATION: 'organization',
    BANK: 'organization',
    EMAIL: 'email',
    PHONE: 'phone',
    PASSWORD: 'password',
    TITLE: 'title',
    USERNAME: 'username',
    USERID: 'username',
    USER_ID: 'username',
    CREDIT_CARD: 'credit_card',
    IBAN: 'iban',
    SSN: 'ssn',
    ...Object.fromEntries(IDENTIFIER_LABELS.map((l) => [l, 'identifier'])),
    // "payroll system", "security audit": not personal data.
    SYSTEM: null,
    EVENT: null,
    MISC: null,
  },
  sample: 0,
  parse: parseEntityLists,
};

export const SAMPLE_SEED = 20261127;

export function corporaDir(): string {
  return process.env.PII_CORPORA_DIR ?? join(homedir(), '.cache/mlsvc/pii-corpora');
}

export function cachedPath(source: CorpusSource, split: Split): string {
  const file = source.files[split];
  if (!file) throw new Error(`${source.id} has no ${split} split`);
  return join(corporaDir(), source.id, file.path);
}

export const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

/** A source's split, verified against its pin; throws with what to run when it is missing or differs. */
function readPinned(source: CorpusSource, split: Split): string {
  const path = cachedPath(source, split);
  if (!existsSync(path)) throw new Error(`${path} is missing: run \`node .build-perf/bench/pii/fetch-corpora.js\` (see bench/pii/README.md)`);
  const data = readFileSync(path);
  const got = sha256(data);
  const pinned = source.files[split]?.sha256;
  if (got !== pinned) throw new Error(`${path}: sha256 ${got}, pinned ${pinned} (${source.repo}@${source.commit})`);
  return data.toString('utf8');
}

/** Every labelled sentence of a source's split, spans mapped to engine types. */
export function sourceTexts(source: CorpusSource, split: Split): CorpusText[] {
  return source.parse(readPinned(source, split)).map((s) => {
    const spans: GoldSpan[] = [];
    const ignored: IgnoredSpan[] = [];
    for (const e of decodeBio(s)) {
      const type = source.labels[e.label];
      if (type === undefined) throw new Error(`${source.id}: unmapped label ${e.label}`);
      if (type === null) ignored.push(e);
      else spans.push({ type, label: e.label, start: e.start, end: e.end });
    }
    return { source: source.id, id: s.id, text: s.text, spans, ignored };
  });
}

/**
 * The fixed sample: per source, a seeded shuffle of its non-empty sentences, the first `sample` of them, back in
 * corpus order. Sentences without any entity stay in: real text is mostly such sentences, and they test precision.
 */
export function independentSample(split: Split, sizes: Partial<Record<string, number>> = {}): CorpusText[] {
  const out: CorpusText[] = [];
  for (const source of SOURCES) {
    if (source.sample === 0 || !source.files[split]) continue;
    const all = sourceTexts(source, split)
      .map((t, i) => ({ t, i }))
      .filter((x) => x.t.text.trim().length > 0);
    const rand = seeded(SAMPLE_SEED);
    for (let i = all.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [all[i], all[j]] = [all[j], all[i]];
    }
    const n = Math.min(all.length, sizes[source.id] ?? source.sample);
    out.push(
      ...all
        .slice(0, n)
        .sort((a, b) => a.i - b.i)
        .map((x) => x.t),
    );
  }
  return out;
}
