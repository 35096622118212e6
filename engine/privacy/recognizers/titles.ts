/**
 * Titles: honorifics before a name ("Dr.", "Mrs", "Sir", found with the names in named-entities.ts) and job titles
 * ("Chief Financial Officer", "Head of Marketing", "Senior Software Engineer", "CEO"). A job title is a capitalized
 * phrase ending in a head word of the lexicon's list ("officer", "engineer", "manager"...), an executive acronym, or a
 * lower-case phrase after words that announce a job ("works as a", "position:").
 */
import { fold, lexicon } from '../lexicon';
import { define, NEEDS_LETTER, type RawMatch, type Recognizer } from './define';
import { HEAD_WORDS, headWord, JOB_HEAD_LIST, TRADE_ENDING } from './job-words';
import { entities, groupBeforeJob } from './named-entities';

const MODIFIER = '(?:Chief|Senior|Sr\\.?|Junior|Jr\\.?|Lead|Principal|Head|Vice|Executive|Assistant|Associate|Deputy|Managing|General|Regional|Global|Group|Staff|Acting|Interim|Founding|Co-)';
const CAP_WORD = "\\p{Lu}[\\p{Ll}'’\\-]+";
const capitalize = (w: string): string => w[0].toUpperCase() + w.slice(1);
const HEAD = `(?:${JOB_HEAD_LIST.map(capitalize).join('|')})`;
const LOWER_HEAD = `(?:${JOB_HEAD_LIST.join('|')}|adjuster|contractor)`;
const FUNCTION_WORDS =
  'of|the|an?|for|to|by|with|and|or|in|on|at|from|our|his|her|their|its|my|your|that|this|is|was|are|were|as|new|former|dear|hi|hello|thanks|please|contact|call|email|ask|tell|meet|see|cc';
const OF_PART = `(?:\\s+(?:of|for)\\s+(?:the\\s+)?${CAP_WORD}(?:\\s+(?:and|&)\\s+${CAP_WORD}|\\s+${CAP_WORD}){0,2})`;
/** A capitalized job title: modifiers, up to three field words, a head word and an optional "of X". */
const CAP_TITLE = new RegExp(
  `(?<![\\p{L}\\p{M}])(?:(?:${MODIFIER}\\s+)*(?:(?:${CAP_WORD}|\\p{Lu}{2,4})\\s+){0,3}${HEAD}${OF_PART}?|(?:Head|Director|VP|Vice President|Chief)${OF_PART})(?![\\p{L}\\p{M}])`,
  'gu',
);
const ACRONYM = /(?<![\p{L}\p{M}])(?:CEO|CFO|CTO|COO|CIO|CMO|CISO|CDO|CPO|CHRO|CRO|SVP|EVP|VP)(?![\p{L}\p{M}])/gu;
/** A lower-case job title after the words that announce one. */
const LOWER_TITLE = new RegExp(
  `(?<=\\b(?:works? as|working as|worked as|employed as|hired as|job title|position|role|occupation|profession|title|is an?|am an?|was an?|as an?|is the|was the|as the|became|becomes|promoted to|appointed|year-old|years-old|year old|years old)\\b\\s*(?:is|:|-)?\\s*(?:an?\\s+|the\\s+)?)(?!(?:an?|the)\\s)(?:(?:senior|junior|lead|chief|head|assistant|associate|deputy)\\s+)?(?:[a-z]+\\s+){0,2}${LOWER_HEAD}\\b`,
  'gi',
);
/**
 * A lower-case job title right before a person's name ("senior developer Alex Rivera", "claims adjuster Samantha
 * Brown"): a head word, with at most one field word before it that is no function word, verb form or adverb.
 */
const TITLE_BEFORE_NAME = new RegExp(`(?<![\\p{L}\\p{M}\\-])(?:(?![a-z]+(?:ed|ing|ly)\\s)\\p{L}[a-z]+\\s+)?${LOWER_HEAD}(?=\\s+\\p{Lu}\\p{Ll}+\\s+\\p{Lu}\\p{Ll})`, 'gu');
const FUNCTION_WORD = new RegExp(`^(?:${FUNCTION_WORDS})\\s+`, 'i');
/**
 * A job title in apposition before the employer: "Troy Williams, Sports therapist at Simpson-Copeland", "…, Engineer,
 * petroleum at Nohlmans KGaA". A few words after a comma and before "at/for/with" and a capital, one of them a head word.
 */
const APPOSITIVE = /(?<=,\s)\p{L}[\p{L}/()-]*(?:,?\s+[\p{L}/()-]+){0,4}(?=,?\s+(?:at|for|with)\s+(?:(?:da|de|do|dos|das|del|di|du|van|von|le|la)\s+)?\p{Lu})/gu;
/** Words a capitalized title does not start with: they are the sentence's, not the title's. */
const LEADING = /^(?:The|A|An|Our|My|Your|His|Her|Their|This|That|New|Former|Dear|Hi|Hello|Thanks|Please|Welcome|Signed|Regards|Best)\s+/u;
const TITLE_CUE = /(?:,\s*|\bas (?:an?|the)\s+|\bour (?:new\s+)?|\bnew\s+|(?:title|position|role|job|occupation)\s*[:-]?\s*)$/i;

/** A word of a job's qualifier: lower case, and none of the words that go on the sentence (a verb in the past neither). */
const QUALIFIER_WORD = "(?!(?:for|at|in|since|with|to|from|on|by|and|but|who|whom|which|we|they|you|i)\\b)(?!(?!chartered|certified|registered)[a-z]+ed\\b)[a-z][\\p{Ll}'’-]*(?:/[a-z][\\p{Ll}'’-]*)*";
/**
 * A qualifier after a job, Faker-style and in lists of occupations: "Nurse, learning disability", "Engineer, civil
 * (contracting)", "Surveyor, land/geomatics". It ends the sentence or the clause, or comes before the name it describes
 * or a verb in the past ("a 46-year-old Optician, dispensing, identified Omar"), closes a bracket ("Ann Lee (Doctor,
 * hospital)"), or ends a field ("… - Scientist, audiological - …", "| Pharmacist, community |") or comes before a
 * bracket or a full name ("The Pharmacist, hospital (Zachary Lynn, 26)").
 */
const QUALIFIER = new RegExp(
  `^, (${QUALIFIER_WORD}(?: (?:and |of |the )?${QUALIFIER_WORD}){0,3}(?: \\([a-z][\\p{Ll} /'’-]{1,40}\\))?)(?=[.;)\\n]|$| (?:at|for|in|since|we|who|from|based|role) |, \\p{Lu}|, \\p{Ll}+ed | [-–—|] | \\(| \\p{Lu}\\p{Ll}+ \\p{Lu}\\p{Ll}|, (?:at|in|for|from|with|on) )`,
  'u',
);

/** Words that say the job comes next, whatever its words and case: "works as a Freight forwarder". */
const JOB_CUE =
  /\b(?:(?:employed|hired|recruited|engaged|appointed|retained|taken on)(?:\s+by\s+[^.;\n]{1,80}?)?|works?|worked|working|serves?|served|serving|trained|qualified|retired)\s+as\s+(?:an?|the|our|their|his|her)\s+/giu;
/**
 * Someone appointed, named or hired as a post, joining a firm as one or working as one, without an article: "has
 * appointed Samantha Smith as Economist", "will join Acme as Head of Sales", "is working as Retail merchandiser".
 */
const APPOINTED_AS =
  /\b(?:(?:appointed|named|hired|elected|promoted|made|join|joins|joined|joining|rejoined)\s+(?:(?:[^\s.;,]+|[^\s;,]{1,4})\s+){1,6}?|(?:works?|worked|working|serves?|served|serving|employed|trained|qualified|retired)\s+)as\s+(?!an?\s|the\s)/giu;
/** Where the job's words end: a preposition, a conjunction or a relative word starts the rest of the sentence. */
const JOB_STOP = new Set([
  'at',
  'for',
  'in',
  'with',
  'since',
  'and',
  'but',
  'from',
  'on',
  'who',
  'which',
  'where',
  'while',
  'when',
  'until',
  'to',
  'by',
  'because',
  'so',
  'since',
  'after',
  'before',
  'during',
  'near',
  'now',
  'today',
  'currently',
  'again',
  'still',
  'already',
  'too',
  'also',
  'there',
  'here',
  'then',
]);
const JOB_WORD = /^[\p{L}][\p{L}\p{M}'’/()&.-]*$/u;

/**
 * The job after a cue, up to five words, with a qualifier Faker-style after a comma ("Nurse, learning disability",
 * "Engineer, petroleum") when only lower-case words follow it to the sentence's end or to "at/for".
 */
function cuedJobs(text: string): RawMatch[] {
  const out: RawMatch[] = [];
  // Both need " as " (cheap to look for first).
  if (!/\sas\s/i.test(text)) return out;
  for (const m of [...text.matchAll(JOB_CUE), ...text.matchAll(APPOINTED_AS)]) {
    const bare = !m[0].endsWith(' ') || !/\b(?:an?|the|our|their|his|her)\s+$/i.test(m[0]);
    const start = m.index + m[0].length;
    const rest = text.slice(start, start + 120);
    const words = /^[^\s,;:!?\n]+(?: [^\s,;:!?\n]+){0,6}/u.exec(rest);
    if (!words) continue;
    let n = 0;
    let end = start;
    for (const w of words[0].split(' ')) {
      const bare = w.replace(/[.]$/, '');
      if (n >= 5 || JOB_STOP.has(bare.toLowerCase()) || !JOB_WORD.test(bare)) break;
      end += (n ? 1 : 0) + bare.length;
      n++;
      if (bare !== w) break; // a full stop ends the sentence
    }
    if (n === 0) continue;
    // "as a Health and safety adviser": the words of one job may hold an "and" that ends the sentence's words above.
    const phrase = jobPhrase(text, start);
    if (phrase && phrase.end > end && !text.slice(end, phrase.end).includes(',')) end = phrase.end;
    // Without an article, the words must name a trade ("as Economist", "as chief executive"), not a manner ("as expected").
    if (
      bare &&
      !text
        .slice(start, end)
        .split(/\s+/)
        .some((w) => headWord(w.toLowerCase()) || /^(?:CEO|CFO|CTO|COO|chair|chairman|chairwoman|president|director|head)$/i.test(w))
    )
      continue;
    const qualifier = QUALIFIER.exec(text.slice(end, end + 80));
    if (qualifier && !JOB_STOP.has(qualifier[1].split(' ')[0]) && !FUNCTION_WORD.test(`${qualifier[1]} `)) end += qualifier[0].length;
    out.push({ start, end, score: 0.88, evidence: ['job_title', 'context'] });
  }
  return out;
}

/**
 * Words that say a person's job follows, with its article: "has been a …", "is an …", "Our new …", "contact the …",
 * "is hiring a …",
 * "a 64-year-old …", and "The" opening a sentence before a capitalized word and a lower-case one ("The Bonds trader we hired, …").
 */
const JOB_DETERMINER =
  /\b(?:is|was|been|be|being|became|becomes|become|becoming|am|are|were|new|former|retired|qualified|trainee|our|their|his|her|my|your|hiring|recruiting|seeking|looking for|vacancy for|opening for|(?:contact|call|ask|email|e-mail|consult|see|notify|inform|speak to|speak with|talk to|write to)\s+(?:the|your|our))\s+(?:(?:an?|the|our|their|his|her|my|your|new|former|trained|qualified|retired|great|good|perfect|excellent|ideal|brilliant|fantastic)\s+){0,2}/giu;
/**
 * The same after an age ("a 64-year-old …"), in apposition after a word (", a Industrial/product designer") and after
 * "as a" ("ten years as a forklift operator"); apart, so that the common regex keeps its fast scan for its first words.
 */
const AGE_OR_APPOSITION_ARTICLE = /\ban?\s+\d{1,3}[- ]years?[- ]old\s+|(?<=\p{L}),\s+an?\s+(?=\p{L})|\bas\s+an?\s+(?=\p{L})/giu;
/**
 * "The" opening a sentence before a capitalized word and a lower-case one (case matters, so apart from the above), and
 * "the" before a few lower-case words and a person in brackets or commas ("the dental hygienist (Tom Berg, 41)", "The
 * bartender, Ann Lee, …"): a person must follow the job (PERSON_AFTER_JOB).
 */
const PERSON_AFTER_JOB = /^(?:\s+(?:we|who|whom|i|you|they|she|he)\b|,\s+\p{Lu}\p{Ll}|\s*\(\s*\p{Lu}\p{Ll}+\s+\p{Lu}\p{Ll})/u;
/** A person's full name right after the job, in commas or brackets (", Ana Ruiz", " (Tom Berg"). */
const NAMED_AFTER_JOB = /^(?:,\s+|\s*\(\s*)(?:(?:Mr|Mrs|Ms|Mx|Miss|Dr|Prof|Sr|Sra|Srta)\.?\s+)?\p{Lu}\p{Ll}+\s+\p{Lu}\p{Ll}/u;
const SENTENCE_THE = /(?:^|(?<=[.!?\n]\s*))The\s+(?=\p{Lu}[\p{Ll}/]+,?\s+\p{Ll})|\b[Tt]he\s+(?=[\p{Ll}-]+(?:\s+[\p{Ll}-]+){0,3}\s*[(,]\s*\p{Lu}\p{Ll}+\s+\p{Lu}\p{Ll})/gu;
/** Words a job's name never holds: the sentence's own ("for", "and", "very"), pronouns and the commonest adjectives. */
const NOT_IN_JOB = new Set(
  'a an the and or but for of to in on at by with from as is was be been very so too also just not no good great bad best better new old own other same such this that these those it its he she they we you i me him her them us my your his their our who which what when where why how'.split(
    ' ',
  ),
);

/**
 * A job after an article or a possessive and words that describe a person ("She has been a Conference centre
 * manager", "Our new Horticulturist, commercial, …"): up to five words ending in a head word or a trade's ending,
 * written in any case.
 */
function determinedJobs(text: string): RawMatch[] {
  const out: RawMatch[] = [];
  const found = [...text.matchAll(JOB_DETERMINER)];
  if (/\d[- ]years?[- ]old|, an? |\bas an? /i.test(text)) found.push(...text.matchAll(AGE_OR_APPOSITION_ARTICLE));
  if (/\b[Tt]he /.test(text)) found.push(...text.matchAll(SENTENCE_THE));
  for (const m of found) {
    const opening = /^[Tt]he\s/.test(m[0]);
    const start = m.index + m[0].length;
    const job = jobPhrase(text, start);
    // After an opening "The", a person must follow the job: "The Bonds trader we hired", "The Staff nurse, Ann Lee";
    // "The Printer driver failed" is a thing.
    if (!job || (opening && !PERSON_AFTER_JOB.test(text.slice(job.end, job.end + 20)))) continue;
    // With its qualifier, surer than the capitalized head word inside it ("Scientist" of "Scientist, physiological");
    // so is a job a person's name follows ("Our new Quarry manager, Ana Ruiz"), whose words a model takes for names.
    const sure = job.qualified || NAMED_AFTER_JOB.test(text.slice(job.end, job.end + 40));
    out.push({ start, end: job.end, score: sure ? 0.86 : 0.8, evidence: ['job_title', 'context'] });
  }
  return out;
}

/**
 * The job's words from `start`: up to five words ending in a head word or a trade's ending, written in any case, and a
 * Faker-style qualifier after a comma ("Nurse, learning disability"); undefined when there is none. A lower-case
 * phrase of several words is prose more often than a job ("is a very good teacher" stops at "very").
 */
function jobPhrase(text: string, start: number): { end: number; qualified: boolean } | undefined {
  const words = /^[\p{L}][\p{L}\p{M}'’/&-]*(?:[ \t]+[\p{L}][\p{L}\p{M}'’/&-]*){0,4}/u.exec(text.slice(start, start + 100));
  if (!words) return undefined;
  const list = words[0].split(/[ \t]+/);
  let last = -1;
  const lex = lexicon();
  for (let k = 0; k < list.length; k++) {
    const w = list[k].toLowerCase();
    // A person's name ends the job's words: "Our records show Dennis Dean MD" holds no dean.
    if (/^\p{Lu}\p{Ll}/u.test(list[k]) && lex.firstNames.has(w) && !lex.groups.has(w) && !headWord(w) && k + 1 < list.length && /^\p{Lu}/u.test(list[k + 1])) break;
    // "and" joins the fields of one job ("Training and development officer"); "IT" is no pronoun.
    if (NOT_IN_JOB.has(w) && !(w === 'and' && k > 0) && !/^\p{Lu}{2,}$/u.test(list[k])) break;
    if (headWord(w)) last = k;
  }
  if (last < 0) return undefined;
  let end = start + list.slice(0, last + 1).join(' ').length;
  const qualifier = QUALIFIER.exec(text.slice(end, end + 80));
  const qualified = qualifier !== null && !NOT_IN_JOB.has(qualifier[1].split(' ')[0]);
  if (qualified) end += qualifier[0].length;
  return { end, qualified };
}

/**
 * What joins a person's name to the job after it: a comma, a bracket, a dash ("Ana Ruiz (Sports therapist)"), a line
 * break (a letter's addressee block: "SYBILLA KADE\nOperational researcher").
 */
const AFTER_NAME = /^(?:,\s+|\s*\(\s*|\s+[-–—]\s+|[^\S\n]*\n[^\S\n]*)/;
/** An opening bracket after a capitalized word, where a job may stand alone. */
const BRACKETED = /(?<=\p{Lu}[\p{L}\p{M}'’-]*[^\S\n]*)\([^\S\n]*(?=\p{L})/gu;
/** Where such a job ends: the sentence, the bracket, the line. */
const JOB_CLOSE = /^\s*(?:$|[.;)\n]|,\s)/;

/** A job right after a person's name, closed by the sentence, a bracket or the line: "John Smith, Sports therapist.". */
function jobsAfterNames(text: string): RawMatch[] {
  const out: RawMatch[] = [];
  for (const e of entities(text)) {
    if (e.kind !== 'name') continue;
    const join = AFTER_NAME.exec(text.slice(e.end, e.end + 6));
    if (!join) continue;
    const start = e.end + join[0].length;
    const job = jobPhrase(text, start);
    if (!job || !JOB_CLOSE.test(text.slice(job.end, job.end + 3)) || (join[0].includes('(') && text[job.end] !== ')')) continue;
    // With its qualifier, surer than the capitalized head word inside it ("Surveyor" of "Surveyor, quantity").
    out.push({ start, end: job.end, score: job.qualified ? 0.86 : 0.82, evidence: ['job_title', 'context'] });
  }
  // A job alone in brackets after a capitalized word: "Ewelina Plizga (Audiological scientist) transferred".
  for (const m of text.includes('(') ? text.matchAll(BRACKETED) : []) {
    const start = m.index + m[0].length;
    const job = jobPhrase(text, start);
    if (job && /^\s*\)/.test(text.slice(job.end, job.end + 3))) out.push({ start, end: job.end, score: job.qualified ? 0.86 : 0.82, evidence: ['job_title', 'context'] });
  }
  return out;
}

/**
 * A job after a form's label ("Position: Retail merchandiser", "Occupation - nurse", "Job title: Engineer, civil"):
 * the label says what the value is, so any words up to the line's or the field's end are the job.
 */
const LABELLED_JOB =
  /(?<=(?:^|[\n;|•,]|[.!?]\s)[^\S\n]*(?:[Jj]ob(?: [Tt]itle)?|JOB(?: TITLE)?|[Pp]osition|POSITION|[Oo]ccupation|OCCUPATION|[Pp]rofession|PROFESSION|[Dd]esignation|[Rr]ole|ROLE)[^\S\n]*[:–-][^\S\n]*)\p{L}[\p{L}\p{M}'’/&(),. -]{1,60}?(?=[^\S\n]*(?:$|[\n;|•]|\.(?:\s|$)|,\s+\p{L}+:|\s+-\s))/gmu;

function labelledJobs(text: string): RawMatch[] {
  const out: RawMatch[] = [];
  if (!/(?:job|title|position|occupation|profession|designation|role)[^\S\n]*[:–-]/i.test(text)) return out;
  for (const m of text.matchAll(LABELLED_JOB)) {
    // A bracket the value does not close is the sentence's.
    const value = (m[0].split('(').length === m[0].split(')').length ? m[0] : m[0].replace(/\s*\([^)]*$/, '')).replace(/[\s,]+$/, '');
    if (value.length >= 2) out.push({ start: m.index, end: m.index + value.length, score: 0.85, evidence: ['job_title', 'context'] });
  }
  return out;
}

/** What splits a record into fields: a bar, a spaced dash, a line break. */
const FIELD_SPLIT = /[^\S\n]+[|–—-][^\S\n]+|[^\S\n]*\|[^\S\n]*|[^\S\n]*\n[^\S\n]*/g;

/**
 * A field that is a job and nothing else, as badges, signatures, directories and addressee blocks write one: "JOAN
 * MARSHALL | Animal nutritionist | Davis LLC", "robert yang - Production designer, theatre/television/film - 308…",
 * "MRS AMANDA DAY\nGeographical information systems officer\nO'Brien-Manning". Never a record's first field (its
 * label or a name), and the job's words must fill the field.
 */
function jobFields(text: string): RawMatch[] {
  const out: RawMatch[] = [];
  if (!/\S[^\S\n]*(?:\||[^\S\n][–—-][^\S\n]|\n)[^\S\n]*\S/.test(text)) return out;
  const bounds: number[] = [];
  for (const m of text.matchAll(FIELD_SPLIT)) bounds.push(m.index, m.index + m[0].length);
  for (let k = 1; k < bounds.length; k += 2) {
    const start = bounds[k];
    const end = k + 1 < bounds.length ? bounds[k + 1] : text.replace(/[\s.]+$/, '').length;
    if (end <= start) continue;
    const job = jobPhrase(text, start);
    if (job && job.end === end) out.push({ start, end, score: 0.85, evidence: ['job_title', 'context'] });
  }
  return out;
}

/** Where a person's full name starts after a space: a given name the lists know, then a capitalized word. */
const FULL_NAME_AHEAD = /[^\S\n]+(?=(\p{Lu}\p{Ll}+)(?:-\p{Lu}\p{Ll}+)?[^\S\n]+\p{Lu}\p{Ll})/gu;
/** A word's start, looking back from a name. */
const WORD_START = /(?<![\p{L}\p{M}'’/&(-])\p{L}/gu;

/**
 * A job right before a person's full name, as bylines, headlines and programmes write it: "Colombian Herpetologist
 * Francisca Rodrigues wins award", "Charity fundraiser Giustino Tirabassi (…) will chair", "Civil engineer,
 * consulting Joshua Davis". The job's words (with a qualifier) must end where the name starts; they begin after the
 * sentence's own words, a nationality or a given name.
 */
function jobsBeforeNames(text: string): RawMatch[] {
  const out: RawMatch[] = [];
  const lex = lexicon();
  for (const m of text.matchAll(FULL_NAME_AHEAD)) {
    const end = m.index;
    if (!lex.firstNames.has(fold(m[1]))) continue;
    const from = Math.max(0, end - 90);
    const starts = [...text.slice(from, end).matchAll(WORD_START)].map((w) => from + (w.index as number));
    // A Faker-style qualifier before the name ("Civil engineer, consulting Joshua"): its words are the job's, read from
    // the head word before its comma.
    const qualifier = /,[^\S\n]+\p{Ll}[\p{Ll}'’/-]*(?:[^\S\n]+\p{Ll}[\p{Ll}'’/-]*){0,3}$/u.exec(text.slice(from, end));
    const scanEnd = qualifier ? from + qualifier.index : end;
    let best = -1;
    for (let k = starts.length - 1, n = 0; k >= 0 && n < 6; k--) {
      const s0 = starts[k];
      if (s0 >= scanEnd) continue;
      n++;
      const word = /^[\p{L}\p{M}'’-]+/u.exec(text.slice(s0))?.[0] ?? '';
      const key = fold(word);
      // The sentence's own words, a people's name, a given name, a verb form: the job starts after them.
      if (NOT_IN_JOB.has(key) || lex.groups.has(key) || (lex.firstNames.has(key) && !headWord(key)) || /^\p{Ll}+(?:ed|ing|ly)$/u.test(word)) break;
      const job = jobPhrase(text, s0);
      if (job && job.end === end) best = s0;
      if (/[.!?:;,\n]\s*$/.test(text.slice(Math.max(0, s0 - 3), s0))) break;
    }
    if (best >= 0) out.push({ start: best, end, score: 0.84, evidence: ['job_title', 'context'] });
  }
  return out;
}

/** A job named by the post it fills: "the Phytotherapist role", "the Senior buyer position", "the nurse vacancy". */
const POST = /(?<=\b(?:the|a|an|our|this|that|your|their)\s+)[\p{L}][\p{L}\p{M}'’/&-]*(?:[ \t]+[\p{L}][\p{L}\p{M}'’/&-]*){0,4}(?=[ \t]+(?:role|position|post|vacancy|opening|job)\b)/giu;

function postJobs(text: string): RawMatch[] {
  const out: RawMatch[] = [];
  for (const m of text.matchAll(POST)) {
    const words = m[0].split(/[ \t]+/);
    // The words before the post are the job's, unless they are the sentence's ("the same role", "a new job").
    let skip = 0;
    while (skip < words.length && NOT_IN_JOB.has(words[skip].toLowerCase())) skip++;
    if (skip === words.length || words.slice(skip).some((w) => NOT_IN_JOB.has(w.toLowerCase()))) continue;
    const start = m.index + words.slice(0, skip).reduce((n, w) => n + w.length + 1, 0);
    out.push({ start, end: m.index + m[0].length, score: 0.8, evidence: ['job_title', 'context'] });
  }
  return out;
}

function jobTitles(text: string): RawMatch[] {
  const out: RawMatch[] = [];
  const lex = lexicon();
  CAP_TITLE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = CAP_TITLE.exec(text)) !== null) {
    let start = m.index;
    let raw = m[0];
    for (let lead = LEADING.exec(raw); lead; lead = LEADING.exec(raw)) {
      start += lead[0].length;
      raw = raw.slice(lead[0].length);
    }
    const words = raw.split(/\s+/);
    const first = words[0].toLowerCase();
    // "James Dean", "Anna Baker": a known name before the head word makes the phrase a person, not a title.
    if (lex.firstNames.has(first) && !/^(?:chief|head|senior|lead|principal|vice|executive|general)$/.test(first)) continue;
    const cued = TITLE_CUE.test(text.slice(Math.max(0, start - 25), start));
    if (words.length < 2 && !cued) continue;
    out.push({ start, end: start + raw.length, score: cued ? 0.85 : 0.8, evidence: ['job_title'] });
  }
  ACRONYM.lastIndex = 0;
  while ((m = ACRONYM.exec(text)) !== null) out.push({ start: m.index, end: m.index + m[0].length, score: 0.8, evidence: ['job_title'] });
  LOWER_TITLE.lastIndex = 0;
  while ((m = LOWER_TITLE.exec(text)) !== null) out.push({ start: m.index, end: m.index + m[0].length, score: 0.75, evidence: ['job_title', 'context'] });
  for (const m of text.matchAll(APPOSITIVE)) {
    const words = m[0].toLowerCase().split(/[\s,/()]+/);
    if (!words.some((w) => HEAD_WORDS.has(w) || TRADE_ENDING.test(w))) continue;
    const lead = FUNCTION_WORD.exec(m[0]);
    // Surer than a capitalized head word inside it ("Engineer" of "Engineer, petroleum") or a word the name lists know.
    out.push({ start: m.index + (lead ? lead[0].length : 0), end: m.index + m[0].length, score: 0.86, evidence: ['job_title', 'context'] });
  }
  out.push(...cuedJobs(text), ...determinedJobs(text), ...postJobs(text), ...jobsAfterNames(text), ...labelledJobs(text), ...jobFields(text), ...jobsBeforeNames(text));
  TITLE_BEFORE_NAME.lastIndex = 0;
  while ((m = TITLE_BEFORE_NAME.exec(text)) !== null) {
    const lead = FUNCTION_WORD.exec(m[0]);
    const start = m.index + (lead ? lead[0].length : 0);
    out.push({ start, end: m.index + m[0].length, score: 0.75, evidence: ['job_title', 'context'] });
  }
  return out;
}

/** A job's words after the people's name that opens them: "a 73-year-old Danish Printmaker" (see groupBeforeJob). */
function afterGroup(text: string, m: RawMatch): RawMatch {
  const end = groupBeforeJob(text, m.start);
  if (end < 0 || end >= m.end) return m;
  const start = end + (/^[^\S\n]*/.exec(text.slice(end)) ?? [''])[0].length;
  return start < m.end ? { ...m, start } : m;
}

function findTitles(text: string): RawMatch[] {
  const honorifics = entities(text).filter((e) => e.kind === 'title');
  const found = [...honorifics, ...jobTitles(text).map((m) => afterGroup(text, m))];
  return found.sort((a, b) => a.start - b.start);
}

export const TITLE_RECOGNIZERS: Recognizer[] = [
  define({
    id: 'title',
    name: 'Title, honorific or job title',
    category: 'personal',
    find: findTitles,
    matchCell: (v) => {
      const t = v.trim();
      return t.length > 1 && t.length <= 60 && findTitles(t).some((m) => m.start === 0 && m.end === t.length) ? { start: 0, end: v.length, score: 0.8 } : null;
    },
    evidence: 'gazetteer',
    score: 0.8,
    contextScore: 0.9,
    context: ['title', 'job title', 'position', 'role', 'occupation', 'honorific', 'salutation'],
    columnHint: '(^|_)(title|honorific|salutation|prefix|job|job_?title|position|role|occupation|designation)($|_)',
    needs: NEEDS_LETTER,
  }),
];
