/** Dates (any calendar date naming a day), dates of birth (a date with birth context) and ages. */
import { define, NEEDS_DIGIT, validDate, type RawMatch, type Recognizer } from './define';
import { entities } from './named-entities';

const MONTHS = 'Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?';
const MONTH_INDEX: Record<string, number> = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };

/** ISO, numeric (either day/month order) and written-month dates, all with a year. */
export const DATE_PATTERN =
  '(?:19|20)\\d{2}-(?:0?[1-9]|1[0-2])-(?:0?[1-9]|[12]\\d|3[01])' +
  '|(?:0?[1-9]|[12]\\d|3[01])([/.\\-])(?:0?[1-9]|[12]\\d|3[01])\\1(?:19|20)?\\d{2}' +
  `|(?:${MONTHS})\\.? (?:0?[1-9]|[12]\\d|3[01])(?:st|nd|rd|th)?,? (?:19|20)\\d{2}` +
  `|(?:0?[1-9]|[12]\\d|3[01])(?:st|nd|rd|th)? (?:of )?(?:${MONTHS})\\.?,? (?:19|20)\\d{2}`;

/** Whether a matched date names a real day (numeric dates: either day/month order). */
export function dateValid(raw: string): boolean {
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(raw);
  if (iso) return validDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const num = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2,4})$/.exec(raw);
  if (num) {
    const y = Number(num[3].length === 2 ? '20' + num[3] : num[3]);
    const a = Number(num[1]);
    const b = Number(num[2]);
    return validDate(y, a, b) || validDate(y, b, a);
  }
  const month = /[A-Za-z]{3}/.exec(raw);
  const day = /\b(\d{1,2})(?:st|nd|rd|th)?\b/.exec(raw);
  const year = /\d{4}/.exec(raw);
  return !!month && !!day && !!year && validDate(Number(year[0]), MONTH_INDEX[month[0].toLowerCase()], Number(day[1]));
}

const BIRTH_CONTEXT = ['born', 'birth', 'dob', 'd.o.b', 'birthday', 'birthdate', 'date of birth', 'b.', 'née'];

/** Ages written as such: "Age: 72", "aged 45", "45 years old", "a 37-year-old", "45 y/o", "at the age of 81". */
const AGE_EXPLICIT =
  /(?<=\b(?:[Aa]ge[ds]?|AGE[DS]?)\s?[:=]?\s{0,2})\d{1,3}\b|(?<=\b(?:age|AGE) of\s)\d{1,3}\b|\b\d{1,3}(?=[\s-]?(?:years?|yrs?)[\s-]?(?:old|of age)\b|[\s-]?(?:yo|y\/o|y\.o\.)(?![\w/])|-year-old\b|-years-old\b| year old\b)/gi;
/** An age said with a verb: "just turned 60", "I am 34 and...", "our son is 7", "she'll be 18 next month". */
const AGE_STATED =
  /(?<=\b(?:turned|turns|turning|[Ii] am|[Ii]'m|[Ii]’m|[Ii]m|when (?:[Ii]|he|she) was|(?:when|since) (?:we|they|you) were|since (?:[Ii]|he|she) was|(?:[Hh]e|[Ss]he|[Ss]on|[Dd]aughter|[Cc]hild|[Kk]id|[Bb]aby|[Bb]oy|[Gg]irl|[Mm]other|[Ff]ather|[Mm]om|[Dd]ad|[Mm]um|[Bb]rother|[Ss]ister|[Ww]ife|[Hh]usband|[Gg]rand(?:mother|father|ma|pa)|[Pp]atient) (?:is|was)(?: now| only| just)?|[Hh]e's|[Ss]he's|who is|who's|who was|will be|'ll be|’ll be)\s)\d{1,3}(?=\s*(?:$|[,.!?;)]|\s(?:years?|yrs?|now|next|this|today|tomorrow|soon|and|but|lol|in|on|last|so)\b))/gi;
/**
 * An age between commas or brackets right after a person: "The patient, 72, was", "Chinedu Eze (29)", "Ana Ruiz
 * (Chilean, 44)", and the bracket that holds both, as reports write it: "the nurse (Jane Doe, 52)".
 */
const AGE_APPOSITIVE =
  /(?<=\b(?:[Pp]atient|[Mm]an|[Ww]oman|[Mm]ale|[Ff]emale|[Bb]oy|[Gg]irl|[Cc]lient|[Aa]pplicant|[Dd]river|[Vv]ictim|[Rr]esident|\p{Lu}(?:\p{Ll}+|\p{Lu}+)(?: (?:de|du|del|della|da|do|dos|das|van|von|der|den|di|le|la|bin|al))* \p{Lu}[\p{L}\p{M}'’.-]+),\s)\d{1,3}(?=,)|(?<=\p{Lu}[\p{L}\p{M}'’.-]+ \p{Lu}[\p{L}\p{M}'’-]+ \((?:\p{Lu}[\p{L}\p{M}'’-]+(?: \p{Lu}[\p{L}\p{M}'’-]+)?, )?)\d{1,2}(?=\))|(?<=\((?:\p{Lu}[\p{L}\p{M}'’.-]+ ){1,3}\p{Lu}[\p{L}\p{M}'’-]+, )\d{1,2}(?=\))/gu;
/** A bare number stated of a named person: "Robin Taylor is 27.", "…, Robin Taylor, is 27.", "I'm Tariq, 19, from Karachi". */
const AGE_NAMED =
  /(?<=\p{Lu}\p{Ll}+,? (?:is|was|turned|turns)(?: now| only| just| already)? )\d{1,3}(?=\s*(?:$|[.!?;]|,\s|\s(?:years?|yrs?|next|this|today|in|and|but|when|with)\b))|(?<=\b(?:[Ii]['’][mM]|[Ii] (?:am|AM)|[Nn]ame is|NAME IS|[Tt]his is|THIS IS) \p{Lu}(?:\p{Ll}+|\p{Lu}+)(?: \p{Lu}(?:\p{Ll}+|\p{Lu}+))?,\s)\d{1,3}(?=[,)])/gu;
/**
 * Ages in other phrases: "At 19, she moved", "in her late 50s", "his 40th birthday", the second bound of "aged 5 to 12".
 */
const AGE_OTHER =
  /(?<=\b(?:moved|married|retired|died|graduated|emigrated|left home|left school|became|learned|learnt)\b[^.!?\n]{0,60}\bat )\d{1,3}(?=\s*(?:$|[.,;!?)]|\s(?:and|but|when|after|because)\b))|(?<=(?:^|[.!?]\s+)(?:At|AT) )\d{1,3}(?=,)|(?<=\bin (?:his|her|their|my|your|our) (?:(?:early|mid|late)[\s-])?)\d0s\b|\b\d{1,3}(?:st|nd|rd|th)(?= birthday\b)|(?<=\b(?:[Aa]ged?|[Aa]ges) \d{1,3}\s?(?:to|-|–|and)\s?)\d{1,3}\b/gu;
/**
 * A bare number stated of a person the entity reader found, in whatever case it is written: "i think john is 34 or
 * something", "ELIF KAYA IS 29". Right after the name, so "the total is 45" never qualifies.
 */
export const AGE_OF_NAME =
  /^,? (?:is|was|turned|turns|IS|WAS|TURNED)(?: now| only| just| already| about| like)? (\d{1,3})(?=\s*(?:$|[.!?;]|,\s|\s(?:years?|yrs?|next|this|today|in|and|but|when|with|or|now|lol)\b))/;
/** A number in apposition right after a person found in any case: "about me: robert, 65, swiss", "ELIF KAYA, 29, from Izmir". */
export const AGE_BESIDE_NAME = /^, (\d{1,2})(?=,\s|\s*$|\.(?:\s|$))/;
export const NOT_AGE_AFTER = /^\s*(?:%|percent|degrees|°|times|minutes|mins|hours|hrs|days|weeks|months|km|miles|kg|lbs|pounds|dollars|euros|pages|people|items|units)/i;

function findAges(text: string): RawMatch[] {
  const out: RawMatch[] = [];
  const seen = new Set<number>();
  const scan = (re: RegExp, score: number): void => {
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null) {
      const end = m.index + m[0].length;
      if (Number.parseInt(m[0], 10) > 120 || seen.has(m.index) || (score < 0.85 && NOT_AGE_AFTER.test(text.slice(end, end + 10)))) continue;
      seen.add(m.index);
      out.push({ start: m.index, end, score, evidence: ['age_phrase'] });
    }
  };
  scan(AGE_EXPLICIT, 0.85);
  scan(AGE_STATED, 0.8);
  scan(AGE_APPOSITIVE, 0.7);
  scan(AGE_NAMED, 0.65);
  scan(AGE_OTHER, 0.75);
  if (/ (?:is|was|turn|IS|WAS|TURN)|, \d{1,2}\b/.test(text)) {
    for (const e of entities(text)) {
      if (e.kind !== 'name') continue;
      const after = text.slice(e.end, e.end + 40);
      const m = AGE_OF_NAME.exec(after) ?? AGE_BESIDE_NAME.exec(after);
      if (!m) continue;
      const start = e.end + m[0].length - m[1].length;
      if (seen.has(start) || Number.parseInt(m[1], 10) > 120 || NOT_AGE_AFTER.test(text.slice(start + m[1].length, start + m[1].length + 10))) continue;
      seen.add(start);
      out.push({ start, end: start + m[1].length, score: 0.65, evidence: ['age_phrase'] });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

export const DATE_RECOGNIZERS: Recognizer[] = [
  define({
    id: 'date_of_birth',
    name: 'Date of birth',
    category: 'date',
    pattern: DATE_PATTERN,
    ignoreCase: true,
    validate: (_d, raw) => dateValid(raw),
    evidence: 'context',
    score: 0.3,
    contextScore: 0.95,
    context: BIRTH_CONTEXT,
    columnHint: 'dob|birth|born',
    needs: NEEDS_DIGIT,
  }),
  define({
    id: 'date',
    name: 'Date',
    category: 'date',
    pattern: DATE_PATTERN,
    ignoreCase: true,
    validate: (_d, raw) => dateValid(raw),
    evidence: 'format',
    score: 0.75,
    contextScore: 0.8,
    context: ['date', 'on', 'admitted', 'discharged', 'visit', 'appointment', 'dated'],
    negativeContext: ['version', 'v', 'release', 'build', 'section', 'chapter'],
    columnHint: 'date|(_|^)(at|on|dt)$|time|day',
    needs: NEEDS_DIGIT,
  }),
  define({
    id: 'age',
    name: 'Age',
    category: 'personal',
    find: findAges,
    matchCell: (v) => (/^\d{1,3}$/.test(v.trim()) && Number(v) <= 120 ? { start: 0, end: v.length, score: 0.05 } : null),
    evidence: 'context',
    score: 0.85,
    contextScore: 0.9,
    columnHint: '(^|_)age(_|$)|age_?years|years_?old',
    needs: NEEDS_DIGIT,
  }),
];
