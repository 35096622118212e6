/**
 * The statistical named-entity model (spaCy en_core_web_sm, ../ner) as a source of person, organization, place and
 * nationality/religious/political-group spans beside the rules: PERSON → name, ORG → organization, GPE/LOC/FAC →
 * location, NORP → nrp. Its detections carry the evidence `model` (detect-text merges them with the rules' spans of
 * the same entity), `ner:<LABEL>` and, when every move of the span had a probability of at least 0.9, `ner_sure`
 * (detect-text then lets its type settle words a gazetteer reads otherwise). Spans that are no entity by their form
 * are dropped (chat words, elongated spellings, file and host names, symbols only) and symbols around one trimmed.
 *
 * The model reads case: it was trained on edited text, so a line in capitals or all in lower case is shown to it
 * re-cased (./recase.ts), and what it finds there scores lower. The model runs once per text: the four recognizers
 * that read it share one memoised result.
 */
import { fold, lexicon } from '../lexicon';
import { nerEntities } from '../ner';
import { textFlags, type RawMatch, type Recognizer } from './define';
import { groupBeforeJob } from './named-entities';
import { CHAT_WORDS, STOP_WORDS, recaseForModel, type Recased } from './recase';

/** The PII type of each OntoNotes label the privacy engine cares about, and its confidence when the model is sure. */
const LABELS: Record<string, { type: string; base: number }> = {
  PERSON: { type: 'name', base: 0.85 },
  ORG: { type: 'organization', base: 0.8 },
  GPE: { type: 'location', base: 0.85 },
  LOC: { type: 'location', base: 0.8 },
  FAC: { type: 'location', base: 0.75 },
  NORP: { type: 'nrp', base: 0.8 },
};
export const MODEL_TYPES: ReadonlySet<string> = new Set(Object.values(LABELS).map((l) => l.type));

/** How much an unsure model takes off: the span's least confident move probability p costs (1 - p) × this. */
const DOUBT = 0.3;
/** The least move probability of a span the model is sure of (evidence `ner_sure`: its type beats a gazetteer's). */
const SURE = 0.9;
/** What a span found in re-cased text costs: the model saw text it was not trained on. */
const RECASED = 0.1;
/** What a lone 2-4 letter acronym read as an organization costs: the model calls most of them organizations. */
const SHORT_ORG = 0.2;

interface ModelSpan extends RawMatch {
  type: string;
}

/** A leading article is not part of an organization's or a facility's name ("the World Health Organization"); "The Hague" keeps it. */
const ARTICLE = /^(?:the|The|THE|an?)\s+/;
/** Nor of a place's, where it is written in lower case ("the West Bank", "the US"). */
const LOWER_ARTICLE = /^(?:the|an?)\s+/;
/** A common word and a preposition before an organization's name: "Invoice for Goderts & Wright", "Thanks to Acme". */
const LEADING_CUE = /^(\p{Lu}\p{Ll}+)\s+(?:for|from|to|at|with|by)\s+(?=\p{Lu})/u;

/**
 * Field labels and units written in capitals, which the model (trained on news) takes for organizations: "DOB
 * 1985-03-14", "SSN: ...", "IBAN DE89...", "in EUR". A span holding one is not an entity.
 */
const FORM_LABELS = new Set(
  (
    'ID DOB SSN SIN NIN NINO TIN EIN ITIN NPI DEA MRN VAT IBAN BIC SWIFT CVV CVC PIN PUK IMEI VIN ZIP PO URL IP MAC API OTP ' +
    'EUR USD GBP JPY CHF CAD AUD INR CNY SEK NOK DKK PLN BRL MXN ETA ASAP FYI RE FW FWD CC BCC TEL FAX MOB DL DNI NIE NIF CPF CNPJ RUT PESEL BSN AHV PPS'
  ).split(' '),
);
const WORDS = /[\p{L}\p{N}]+/gu;
const LETTER = /\p{L}/u;
/** A file name, a host or newsgroup name, a URL scheme: "TEXT.htm", "alt.animals.cat", "https". */
const CODE_LIKE = /\p{L}\.\p{L}{2,}|^(?:https?|www|ftp)$/iu;
/** A letter three times over: chat spelling ("LMAOO", "Aaawww", "VERYYY"), not a name. */
const ELONGATED = /(\p{L})\1\1/iu;
/** Symbols around a span's words (emoji, "&", a lone quote) belong to the sentence, not to the entity. */
const LEADING_SYMBOLS = /^(?:[^\p{L}\p{N}\s]+\s+)+/u;
const TRAILING_SYMBOLS = /(?:\s+[^\p{L}\p{N}\s]+)+$/u;
const SHORT_ACRONYM = /^\p{Lu}{2,4}$/u;
/** A preposition of place between capitalized words inside one span ("Barclays in Canary Wharf"). */
const PLACE_JOINT = /(?<=\p{L})\s+(?:in|at|from|near)\s+(?=\p{Lu})/u;
/** A possessive ending after a letter: "Kumar's", "Ferreira’s", "JAMES'S". */
const POSSESSIVE = /(?<=\p{L})['’][sS]$/u;
/** A preposition of movement or place right before a span. */
const PERSON_OF = /\s+of\s+(?=\p{Lu})/u;
const PLACE_BEFORE = /\b(?:in|to|from|near|via|into|towards?|visit(?:ed|ing)?)\s+$/i;
/** The endings of the names of peoples and faiths ("Kenyan", "Chinese", "Polish", "Iraqi", "Baptists"). */
const GROUP_SHAPE = /(?:an|ans|ese|ish|i|is|ic|ics|ch|ese|ist|ists|ite|ites|er|ers|ot|ots)$/u;
/** What only a person has, after a possessive: "…'s phone number", "…'s wife", "…'s date of birth". */
const PERSONS_THING =
  /^\s+(?:(?:new|old|own|late|former|mobile|cell|home|personal|private|current|elder|younger|eldest|youngest)\s+)?(?:phone|telephone|mobile|cell|e-?mail|home address|wife|husband|spouse|partner|son|daughter|child|children|kids|mother|father|mom|mum|dad|parents|brother|sister|family|friend|birthday|date of birth|passport|driver|salary|signature|doctor|diagnosis|medical)\b/iu;

/**
 * Nouns of people: a nationality or group before one ("Chinese engineer", "Muslim community") speaks of persons;
 * before another noun ("Chinese food", "Hindu festival") it does not, and the span is held below the threshold
 * unless context words around it raise it.
 */
const PERSON_NOUN =
  /^(?:citizen|national|man|men|woman|women|boy|girl|child|children|kid|people|person|family|families|parent|mother|father|wife|husband|son|daughter|brother|sister|grandmother|grandfather|relative|friend|neighbou?r|colleague|engineer|student|doctor|nurse|patient|worker|employee|staff|tourist|visitor|traveller|traveler|community|communities|immigrant|migrant|refugee|descent|origin|background|heritage|ancestry|nationality|passport|resident|voter|member|monk|nun|priest|imam|rabbi|pilgrim|believer|convert|minority|minorities|population|group|leader|politician|minister|official|officer|soldier|player|athlete|artist|writer|author|actor|actress|singer|entrepreneur|businessman|businesswoman|owner|teacher|professor|scientist|expat|expatriate|descendant|diaspora|speaker|client|customer|applicant|candidate|delegation|delegate|ambassador|diplomat|president|prime|king|queen|prince|princess)s?$/;
const NEXT_WORD = /^\s+(\p{Ll}[\p{L}'’-]*)/u;
/** What separates the fields of a contact line: a dash or bar with spaces around it. */
const FIELD_SEPARATOR = /[^\S\n]+[-–—|][^\S\n]+/u;
const ORG_FIELD_SEPARATOR = /[^\S\n]+[|/][^\S\n]+/u;
const HYPHEN_TAIL = /^(?:-\p{Ll}{1,4})*-\p{Lu}[\p{L}\p{M}]+/u;
const DANGLING_WORD = /\s+(?:for|and|or|of|in|at|to|with|by|from|the|on)$/u;
const NORP_OBJECT_CAP = 0.45;

/** Label words of forms and letters in the languages the engine meets ("Meine Adresse:", "Nowy adres:"). */
const LABEL_WORD =
  'address|adresse|adres|adresa|adresas|adrese|anschrift|holder|cardholder|applicant|employee|witness|nationality|reference|contact|contacto|contato|contatto|kontakt|dirección|direccion|domicilio|indirizzo|endereço|endereco|morada|osoite|cím|naslov|name|namn|nome|nombre|nom|naam|imię|nazwisko|phone|telefon|telefone|teléfono|telefono|téléphone|email|e-mail|date|datum|fecha|data|geburtsdatum|city|stadt|ciudad|città|ville|miasto|country|land|país|paese|pays|kraj';
/** A span that ends a field label, or that the label's last word follows: "Meine Adresse: …", "Nowy adres: …". */
const LABEL_AFTER = new RegExp(`^[^\\S\\n]*(?:\\p{L}+[^\\S\\n]+)?(?:${LABEL_WORD})[^\\S\\n]*:`, 'iu');
const LABEL_END = new RegExp(`(?:^|\\s)(?:${LABEL_WORD})$`, 'iu');

/** Whether the model span [start, end) of `text` is part of a field label ("Meine Adresse:"). */
export function partOfLabel(text: string, start: number, end: number): boolean {
  const after = text.slice(end, end + 40);
  return LABEL_AFTER.test(after) || (/^\s*:/.test(after) && LABEL_END.test(text.slice(start, end)));
}

/**
 * The model calls many a lone given name it has not seen an organization ("Traci,", "Thanks Traci"): one word that
 * the name lists know only as a given name is read as a person.
 */
function givenNameOnly(span: string): boolean {
  if (!/^\p{Lu}\p{Ll}+$/u.test(span)) return false;
  const lex = lexicon();
  const key = fold(span);
  return lex.firstNames.has(key) && !lex.common.has(key) && !lex.organizations.has(key) && !lex.places.has(key) && !lex.groups.has(key) && !lex.orgWords.has(key);
}

/** Whether a model span is a field label, a number or otherwise no entity at all. */
export function notAnEntity(span: string): boolean {
  const words = span.match(WORDS) ?? [];
  if (!LETTER.test(span) || CODE_LIKE.test(span) || ELONGATED.test(span)) return true;
  // One letter alone ("U should sell it") is chat spelling, not an entity.
  if (words.length === 1 && words[0].length === 1) return true;
  if (words.some((w) => FORM_LABELS.has(w))) return true;
  if (words.length === 1 && CHAT_WORDS.has(words[0].toLowerCase())) return true;
  const digits = span.replace(/\P{N}/gu, '').length;
  const alnum = words.join('').length;
  return digits > 0 && digits >= 0.4 * alnum;
}

/**
 * The spans of the texts seen last: the four recognizers of one text share them, and table cells repeat (a city
 * column). Long texts are not kept.
 */
const memo = new Map<string, ModelSpan[]>();
/**
 * Characters of one text the model reads (~1 s of one core); the rest of a longer text is left to the rules, so one
 * huge value cannot hold a synchronous caller (an API request, a streamed row) for long.
 */
export const MODEL_MAX_CHARS = 100_000;
const MEMO_ENTRIES = 256;
const MEMO_MAX_CHARS = 2000;

/** The longest line of `text[start, end)`, trimmed (the first of equals). */
function longestLine(text: string, start: number, end: number): [number, number] {
  let best: [number, number] = [start, start];
  let at = start;
  for (const piece of text.slice(start, end).split('\n')) {
    const lead = piece.length - piece.trimStart().length;
    const trimmed = piece.trim();
    if (trimmed.length > best[1] - best[0]) best = [at + lead, at + lead + trimmed.length];
    at += piece.length + 1;
  }
  return best;
}

/** The model's spans of a text, typed and scored (memoised for the recognizers that share them). */
export function modelSpans(text: string, recase: (t: string) => Recased = recaseForModel): ModelSpan[] {
  const memoise = recase === recaseForModel && text.length <= MEMO_MAX_CHARS;
  const known = memoise ? memo.get(text) : undefined;
  if (known) {
    // Most recently used last, so the oldest is dropped first.
    memo.delete(text);
    memo.set(text, known);
    return known;
  }
  const out: ModelSpan[] = [];
  if (/\p{L}/u.test(text)) {
    const seen = recase(text.length > MODEL_MAX_CHARS ? text.slice(0, MODEL_MAX_CHARS) : text);
    for (const e of nerEntities(seen.text)) {
      const label = LABELS[e.label];
      if (!label) continue;
      let start = e.start;
      const article = (e.label === 'GPE' ? LOWER_ARTICLE : ARTICLE).exec(text.slice(start, e.end));
      if (article && e.label !== 'PERSON') start += article[0].length;
      let end = e.end;
      const cue = e.label === 'ORG' ? LEADING_CUE.exec(text.slice(start, end)) : null;
      if (cue && lexicon().common.has(fold(cue[1])) && !lexicon().orgWords.has(fold(cue[1]))) start += cue[0].length;
      const lead = LEADING_SYMBOLS.exec(text.slice(start, end));
      if (lead) start += lead[0].length;
      const trail = TRAILING_SYMBOLS.exec(text.slice(start, end));
      if (trail) end -= trail[0].length;
      // "write to Thomas Inc." at the text's end: the full stop is the sentence's (the rules read it so too).
      if (e.label === 'ORG' && text[end - 1] === '.' && /^\s*(?:$|\n)/.test(text.slice(end))) end--;
      // spaCy's small model keeps a possessive on the name ("Elon Musk's"); the person is "Elon Musk". A company
      // keeps its own ("McDonald's").
      const possessive = POSSESSIVE.exec(text.slice(start, end));
      // ...unless what it owns is a person's: "Anne-Rose Pechel's phone number", which the model reads as a company.
      const owner = possessive && e.label === 'ORG' && PERSONS_THING.test(text.slice(end, end + 30));
      if (possessive && (e.label !== 'ORG' || owner)) end -= possessive[0].length;
      // A name does not run on over a line break: the model reads "Keith Marshall\nFlat 46" as one person, where the
      // line after the name is the address. The longest line of the span is the entity.
      if (text.slice(start, end).includes('\n')) [start, end] = longestLine(text, start, end);
      if (start >= end) continue;
      // An unsure span that runs over "in", "at", "from" or "near" joins an entity and the place after it ("Barclays
      // in Canary Wharf"): the entity ends before the preposition, the rest is a place.
      const joint = e.score < SURE && e.label !== 'NORP' ? PLACE_JOINT.exec(text.slice(start, end)) : null;
      if (joint) {
        const at = start + joint.index + joint[0].length;
        if (!notAnEntity(text.slice(at, end)))
          out.push({ type: 'location', start: at, end, score: Math.round((LABELS.GPE.base - DOUBT * (1 - e.score)) * 1000) / 1000, evidence: ['model', `ner:${e.label}`] });
        end = start + joint.index;
      }
      // A span does not open a bracket it does not close ("Miller Ltd (Chelseaside"): the entity ends before it.
      const open = text.lastIndexOf('(', end - 1);
      if (open >= start && text.indexOf(')', open) >= end) end = open;
      // Nor over a spaced dash or bar between fields ("ROBERT FARMER - 4592749331 - East Charlesland"); a firm may
      // hold a dash ("Pires - ME"), not a spaced slash ("Re: thomas inc / denise berry").
      const field = (e.label === 'ORG' ? ORG_FIELD_SEPARATOR : FIELD_SEPARATOR).exec(text.slice(start, end));
      if (field) end = start + field.index;
      // spaCy splits a word at its hyphens, and the model may stop at one: "Skarżysko-Kamienna", "Caron-sur-Mer".
      const hyphenated = HYPHEN_TAIL.exec(text.slice(end, end + 40));
      if (hyphenated) end += hyphenated[0].length;
      // Nor does it end in a lower-case word of the sentence ("in South Alexander for Acme").
      const dangling = DANGLING_WORD.exec(text.slice(start, end));
      if (dangling) end -= dangling[0].length;
      while (end > start && /\s/.test(text[end - 1])) end--;
      if (start >= end) continue;
      // A person's name does not go on over " of " ("Jacob of Neuschäfer" is Jacob, of a firm): the rules read the rest.
      const of = e.label === 'PERSON' ? PERSON_OF.exec(text.slice(start, end)) : null;
      if (of) end = start + of.index;
      // "a 73-year-old Danish Printmaker": a people's name before a job is no person or firm (the rules read both).
      if ((e.label === 'PERSON' || e.label === 'ORG') && groupBeforeJob(text, start) > 0) continue;
      // Judged as written: re-casing turns a label "BIC" into "Bic".
      const span = text.slice(start, end);
      if (notAnEntity(span) || partOfLabel(text, start, end)) continue;
      const recased = seen.changed(start, end);
      let score = label.base - DOUBT * (1 - e.score) - (recased ? RECASED : 0);
      if (e.label === 'ORG' && SHORT_ACRONYM.test(span)) score -= SHORT_ORG;
      if (e.label === 'NORP') {
        const next = NEXT_WORD.exec(seen.text.slice(end, end + 40));
        if (next && !STOP_WORDS.has(next[1].toLowerCase()) && !PERSON_NOUN.test(next[1].toLowerCase())) score = Math.min(score, NORP_OBJECT_CAP);
      }
      let type = label.type;
      // A word the model takes for a group, where the sentence goes to, from or through a place, is the place
      // ("from Bratislava to Székesfehérvár"), unless it is shaped like a people's name ("to the Germans").
      if (e.label === 'NORP' && PLACE_BEFORE.test(text.slice(Math.max(0, start - 12), start)) && !GROUP_SHAPE.test(span) && !lexicon().groups.has(fold(span))) {
        type = 'location';
        score = Math.max(score, LABELS.GPE.base - DOUBT * (1 - e.score));
      }
      if (owner) type = 'name';
      else if (e.label === 'ORG' && givenNameOnly(span)) {
        type = 'name';
        score = Math.min(score, LABELS.PERSON.base - DOUBT * (1 - e.score));
      }
      const evidence = ['model', `ner:${e.label}`];
      if (e.score >= SURE) evidence.push('ner_sure');
      if (recased) evidence.push('recased');
      out.push({ type, start, end, score: Math.round(score * 1000) / 1000, evidence });
    }
  }
  if (memoise) {
    if (memo.size >= MEMO_ENTRIES) memo.delete(memo.keys().next().value as string);
    memo.set(text, out);
  }
  return out;
}

/**
 * The registry's recognizer for a type the model also finds: the rule recognizer's matches and the model's, in
 * text order. The rules keep their own character needs; the model runs on any text with a letter (a name in lower
 * case or in another script has none of the capitals the rules need).
 */
export function withModel(rule: Recognizer): Recognizer {
  if (!MODEL_TYPES.has(rule.id)) return rule;
  const ruleFind = rule.find;
  const rulePattern = rule.pattern;
  if (!ruleFind && rulePattern) throw new Error(`withModel: ${rule.id} is a pattern recognizer`);
  const ruleRuns = (text: string): boolean => (rule.needs & textFlags(text)) === rule.needs;
  const ruleCell = rule.matchCell;
  return {
    ...rule,
    needs: 0,
    matchCell: ruleCell && ((value) => (ruleRuns(value) ? ruleCell(value) : null)),
    find: (text) => {
      const rules = ruleFind && ruleRuns(text) ? ruleFind(text) : [];
      const model = modelSpans(text).filter((s) => s.type === rule.id);
      if (model.length === 0) return rules;
      return [...rules, ...model.map(({ start, end, score, evidence }) => ({ start, end, score, evidence }))].sort((a, b) => a.start - b.start);
    },
  };
}

/** The registry with the model joined to the rule recognizers of the types it finds. */
export function withStatisticalNer(recognizers: readonly Recognizer[]): Recognizer[] {
  return recognizers.map(withModel);
}
