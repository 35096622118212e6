/**
 * Other personal identifiers: usernames, passwords, biometric identifiers and photos (mostly found by their column
 * names), unique record identifiers (UUIDs and patient/customer ids) and GDPR Article 9 groups (nationality,
 * religion, political affiliation).
 */
import { bounded, define, NEEDS_DIGIT, NEEDS_LETTER, type RawMatch, type Recognizer } from './define';
import { entities, GROUP_NEGATIVE_AFTER } from './named-entities';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}';
const WHOLE_UUID = new RegExp(`^${UUID}$`, 'i');
/**
 * The records whose number people write after their name. Where a recognizer knows the format (a bank account's
 * digits, a PAN's letters), its context score beats LABELLED_SCORE and it keeps the type; what it does not accept
 * ("account number 12435678X") is still an identifier the text names.
 */
const RECORD_LABEL =
  "(?<![\\w-])(?:passport|driver(?:'s|’s|s)? licen[cs]e|driving licen[cs]e|licen[cs]e|a?tin|itin|tax ?id|taxpayer id|tax identification|" +
  'insurance(?: policy| member| plan)?|policy(?:holder)?|member(?:ship)?|patient|mrn|medical (?:file|record)|case|employee|staff|student|' +
  'customer|client|voter|national|citizen(?:ship)?|residence permit|work permit|badge|id card|identity card|identification|user|file|' +
  'account|acc(?:num|t)?|aadhaa?r|pan|ssn|social security|id)' +
  '(?:\\s+(?:card|number|no\\.?|num|#|id|code|identifier)){0,2}\\s*(?:[:=#]|\\s(?:is|was)\\s)?\\s*[\'"‘“]?';
/** A code: letters, digits and inner dashes, slashes or underscores, with at least two digits, of 5 to 25 characters. */
const LABELLED_CODE = '#?(?=[a-z0-9_/-]*\\d[a-z0-9_/-]*\\d)[a-z0-9][a-z0-9_/-]{3,23}[a-z0-9](?![\\w@]|[-/.]\\w)';
/** Below the context scores of the recognizers that know a format (a passport's, a licence's), which keep their type. */
const LABELLED_SCORE = 0.75;

const anyCell =
  (min: number): ((v: string) => RawMatch | null) =>
  (v) =>
    v.trim().length >= min ? { start: 0, end: v.length, score: 0.05 } : null;

export const PERSONAL_RECOGNIZERS: Recognizer[] = [
  define({
    id: 'username',
    name: 'Username / social handle',
    category: 'personal',
    // After its label with a colon or "is" ("Username: jdoe_77"), or right after it when it holds a digit or an
    // underscore ("login samuel_251"): "the login bug" is prose.
    pattern:
      '(?<=(?:[Uu]ser ?[Nn]ame|[Uu]ser ?[Ii][Dd]|[Ll]ogin|[Hh]andle|[Ss]creen name)\\s*(?:[:=]|\\sis\\s)\\s*)@?[A-Za-z][A-Za-z0-9_.\\-]{2,30}' +
      '|(?<=(?:[Uu]ser ?[Nn]ame|[Uu]ser ?[Ii][Dd]|[Ll]ogin|[Hh]andle|[Ss]creen name)\\s+[\'"]?)@?(?=[A-Za-z0-9_.\\-]*[\\d_])[A-Za-z][A-Za-z0-9_.\\-]{2,30}|' +
      '(?<![\\w.@])@[A-Za-z0-9_]{2,30}(?![\\w@.])',
    bare: true,
    matchCell: (v) => (/^@?[A-Za-z][A-Za-z0-9_.-]{2,30}$/.test(v.trim()) ? { start: 0, end: v.length, score: 0.05 } : null),
    evidence: 'context',
    score: 0.8,
    contextScore: 0.88,
    columnHint: 'user_?name|login|handle|screen_?name|(^|_)user($|_)',
    needs: NEEDS_LETTER,
  }),
  define({
    id: 'password',
    name: 'Password',
    category: 'personal',
    // After its label, or after the e-mail address it logs in with ("jane@corp.com / W!nter2024").
    // A quoted one may hold spaces ("password 'RBI Payments2024!'").
    pattern:
      '(?<=(?:(?:[Pp]assword|PASSWORD|[Pp]asswd|[Pp]wd|[Pp]assphrase)\\s*(?:[:=]|is|was)?|[\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+\\s*[/|])\\s*)' +
      '(?:\'[^\'\\n]{3,63}\'|"[^"\\n]{3,63}"|[^\\s;,]{3,63}[^\\s;,.?)])',
    bare: true,
    // A password holds a digit or a symbol; a plain word after "password" is prose ("reset your password tomorrow").
    validate: (_d, raw) => /[\d\W_]/.test(raw.replace(/^['"]|['"]$/g, '')),
    matchCell: anyCell(4),
    evidence: 'context',
    score: 0.85,
    contextScore: 0.9,
    columnHint: 'pass(word|wd|phrase)?$|(^|_)pwd($|_)|secret',
    needs: NEEDS_LETTER,
  }),
  define({
    id: 'biometric_identifier',
    name: 'Biometric identifier',
    category: 'personal',
    pattern: '(?<=(?:[Ff]ingerprint|[Rr]etina|[Ii]ris|[Vv]oiceprint|[Ff]ace) (?:template|hash|scan|id)\\s*(?:[:=]|is)?\\s*)[A-Za-z0-9+/=_\\-]{8,}',
    bare: true,
    matchCell: anyCell(8),
    evidence: 'context',
    score: 0.85,
    contextScore: 0.92,
    columnHint: 'fingerprint|retina|iris|voiceprint|face_?(template|print|encoding)|biometric',
    needs: NEEDS_LETTER,
  }),
  define({
    id: 'photo',
    name: 'Photograph (full-face image reference)',
    category: 'personal',
    pattern: '[\\w\\-]+\\.(?:jpe?g|png|heic|bmp|gif|tiff?|webp)|data:image/[a-z]+;base64,[A-Za-z0-9+/=]{20,}',
    ignoreCase: true,
    evidence: 'context',
    score: 0.2,
    contextScore: 0.82,
    context: ['photo', 'picture', 'headshot', 'selfie', 'portrait', 'face', 'image of', 'avatar'],
    columnHint: 'photo|picture|avatar|headshot|selfie|portrait|face_?image|(^|_)image($|_)',
    needs: NEEDS_LETTER,
  }),
  define({
    id: 'unique_identifier',
    name: 'Unique identifying number (UUID, record id)',
    category: 'personal',
    // A UUID anywhere, or a code right after the name of the record it identifies ("passport number XG9382049",
    // "insurance number 77422-AZC", "employee ID 127854"): what a specific recognizer does not know by its format is
    // still an identifier when the text says so. Below the specific ones' context scores, so they keep their type.
    // The code's own cheap tests (a boundary, two digits ahead) come before the label's lookbehind, which is dear.
    pattern: `${bounded(UUID)}|(?<![a-z0-9_/#-])(?=#?[a-z0-9_/-]*\\d[a-z0-9_/-]*\\d)(?<=${RECORD_LABEL})${LABELLED_CODE}`,
    bare: true,
    ignoreCase: true,
    validate: (_d, raw) => (WHOLE_UUID.test(raw) ? true : LABELLED_SCORE),
    matchCell: (v) => {
      const t = v.trim();
      if (WHOLE_UUID.test(t)) return { start: 0, end: v.length, score: 0.4 };
      return /^[A-Z]{0,4}[-_]?\d{3,12}$/.test(t) ? { start: 0, end: v.length, score: 0.05 } : null;
    },
    evidence: 'format',
    score: 0.4,
    contextScore: 0.8,
    context: ['patient', 'customer', 'user', 'member', 'client', 'employee', 'guid', 'uuid', 'identifier', 'record id', 'person'],
    columnHint: '(^|_)(uuid|guid)$|(patient|customer|user|member|client|employee|person|subscriber|student|account)_?(id|no|number|key)$',
    needs: NEEDS_DIGIT,
  }),
  define({
    id: 'nrp',
    name: 'Nationality, religious or political group',
    category: 'personal',
    // The groups of the lexicon (nationalities, religions, parties), capitalized or in capitals; see named-entities.ts.
    find: (text) => entities(text).filter((e) => e.kind === 'nrp'),
    matchCell: (v) => {
      const found = entities(v.trim());
      return found.length === 1 && found[0].kind === 'nrp' && found[0].start === 0 && found[0].end === v.trim().length ? { start: 0, end: v.length, score: 0.6, evidence: ['gazetteer'] } : null;
    },
    evidence: 'gazetteer',
    score: 0.6,
    contextScore: 0.86,
    context: [
      'religion',
      'religious',
      'nationality',
      'ethnicity',
      'ethnic',
      'political',
      'party',
      'faith',
      'citizen',
      'race',
      'practicing',
      'devout',
      'identifies as',
      'member of',
      'votes',
      'voter',
      'is a',
      'is an',
    ],
    // A language, a dish or a thing is no group, whoever proposes the span (the rules or the model).
    negativeContext: ['speak', 'speaks', 'spoke', 'speaking', 'fluent in', 'learn', 'learning', 'translate', 'translated', 'written in', 'taught'],
    negativeAfter: GROUP_NEGATIVE_AFTER,
    columnHint: 'religion|nationality|ethnic|race|political|party|faith|citizenship',
    needs: NEEDS_LETTER,
  }),
];
