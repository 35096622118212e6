/**
 * Other personal identifiers: usernames, passwords, biometric identifiers and photos (mostly found by their column
 * names), unique record identifiers (UUIDs and patient/customer ids) and GDPR Article 9 groups (nationality,
 * religion, political affiliation).
 */
import { define, NEEDS_DIGIT, NEEDS_LETTER, type RawMatch, type Recognizer } from './define';
import { entities, GROUP_NEGATIVE_AFTER } from './named-entities';

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
      '|(?<=(?:[Uu]ser ?[Nn]ame|[Uu]ser ?[Ii][Dd]|[Ll]ogin|[Hh]andle|[Ss]creen name)\\s+)@?(?=[A-Za-z0-9_.\\-]*[\\d_])[A-Za-z][A-Za-z0-9_.\\-]{2,30}|' +
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
    pattern: '(?<=(?:[Pp]assword|PASSWORD|[Pp]asswd|[Pp]wd|[Pp]assphrase)\\s*(?:[:=]|is)?\\s*)[^\\s;,]{3,63}[^\\s;,.?)]',
    bare: true,
    // A password holds a digit or a symbol; a plain word after "password" is prose ("reset your password tomorrow").
    validate: (_d, raw) => /[\d\W_]/.test(raw),
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
    pattern: '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}',
    matchCell: (v) => {
      const t = v.trim();
      if (/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$/.test(t)) return { start: 0, end: v.length, score: 0.4 };
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
