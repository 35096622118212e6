/**
 * Gazetteers for names, organizations, places and groups: the lexicon of `compromise` (an English NLP library whose
 * tagger and lexicon ship inside its npm package: ~3,100 first names, ~900 surnames, ~350 organizations, ~1,000
 * places, the words that end organization names, and the common words that start sentences) merged with this
 * project's international lists (recognizers/lexicon-data.ts), the US census's frequent given names
 * (recognizers/census-names.ts) and the most common names of 106 countries (recognizers/world-names.ts). Every entry is folded (lower case, no diacritics), as
 * the words of a text are before a lookup, so "Müller", "MULLER" and "muller" meet. Loading costs ~0.5 s once.
 */
import nlp from 'compromise';
import { CENSUS_GIVEN_NAMES } from './recognizers/census-names';
import { WORLD_GIVEN_NAMES, WORLD_SURNAMES } from './recognizers/world-names';
import { COUNTRY_NAMES } from './recognizers/countries';
import * as data from './recognizers/lexicon-data';

export type GroupKind = 'nationality' | 'religion' | 'political';

export interface Lexicon {
  firstNames: Set<string>;
  lastNames: Set<string>;
  /** Full names the lexicon knows (public figures). */
  people: Set<string>;
  organizations: Set<string>;
  orgWords: Set<string>;
  places: Set<string>;
  /** Nationality, religious and political groups (singular and plural), by kind. */
  groups: Map<string, GroupKind>;
  /** Head words of job titles ("officer", "engineer"). */
  jobHeads: Set<string>;
  /** Lower-cased words the lexicon tags as something else than a name (sentence-initial "The", "Patient", "Contact"). */
  common: Set<string>;
  /** The most words of a place, organization or group phrase (how far a lookup has to look ahead). */
  longestPhrase: number;
  /** The first words of place, organization and group phrases (a cheap test before a phrase lookup). */
  phraseStarts: Set<string>;
}

let cached: Lexicon | undefined;

const ORG_SUFFIXES = [
  'inc',
  'corp',
  'corporation',
  'llc',
  'ltd',
  'limited',
  'gmbh',
  'kgaa',
  'ag',
  'sa',
  'plc',
  'co',
  'company',
  'group',
  'holdings',
  'bank',
  'hospital',
  'clinic',
  'university',
  'college',
  'institute',
  'foundation',
  'association',
  'partners',
  'associates',
  'technologies',
  'systems',
  'labs',
  'laboratories',
  'pharmaceuticals',
  'insurance',
  'healthcare',
  'center',
  'centre',
  'agency',
  'ministry',
  'department',
  'council',
  'trust',
  'services',
  'solutions',
  'industries',
  'enterprises',
  'motors',
  'airlines',
  'bancorp',
  'capital',
  'consulting',
  'logistics',
  'media',
  'software',
  'energy',
  'school',
  'academy',
  // Legal forms of other countries.
  'ab',
  'as',
  'asa',
  'oy',
  'oyj',
  'bv',
  'nv',
  'kg',
  'ohg',
  'se',
  'sarl',
  'sas',
  'srl',
  'spa',
  'sl',
  'ltda',
  'pty',
  'kk',
  'aps',
  'institutet',
  'universität',
  'universidad',
  'università',
  'université',
  'hochschule',
  'klinikum',
  'krankenhaus',
  'hôpital',
  'hospital',
  'ospedale',
  'banco',
  'stiftung',
  'verlag',
  'werke',
  'söhne',
  // The trades small firms name themselves after ("Builders Emporium", "Kohl's Food Stores", "Total Yard
  // Maintenance"): a capitalized run that ends in one is a business.
  'stores',
  'emporium',
  'maintenance',
  'furniture',
  'supplies',
  'supply',
  'foods',
  'bakery',
  'pharmacy',
  'outlet',
  'outlets',
  'depot',
  'warehouse',
  'wholesale',
  'wholesalers',
  'catering',
  'cleaners',
  'plumbing',
  'construction',
  'builders',
  'contractors',
  'realty',
  'properties',
  'transport',
  'travel',
  'tours',
  'studios',
  'records',
  'boutique',
  'salon',
  'garage',
  'dealership',
  'distributors',
  'imports',
  'exports',
  'traders',
  'trading',
  'manufacturing',
  'fabrication',
  'landscaping',
  'printing',
  'publishing',
  'interiors',
  'appliances',
  'electronics',
  'hardware',
  'lumber',
  'jewelers',
  'jewellers',
  'florists',
  'funding',
  'mortgage',
  'lending',
  'realtors',
];

const TAG_SETS: Record<string, 'firstNames' | 'lastNames' | 'people' | 'organizations' | 'places' | undefined> = {
  MaleName: 'firstNames',
  FemaleName: 'firstNames',
  FirstName: 'firstNames',
  LastName: 'lastNames',
  Person: 'people',
  Organization: 'organizations',
  City: 'places',
  Country: 'places',
  Region: 'places',
};

/**
 * Tags of proper nouns outside the sets above: such a word is a name of something, not a common word (an abbreviation
 * among them, "st", "ave", stays one).
 */
const PROPER_TAGS = new Set(['Place', 'ProperNoun', 'SportsTeam', 'Demonym']);

const SPECIAL: Record<string, string> = { ł: 'l', đ: 'd', ø: 'o', æ: 'ae', œ: 'oe', ß: 'ss', ı: 'i', þ: 'th', ð: 'd', ħ: 'h', ŀ: 'l', ʼ: "'", '’': "'" };
const BEYOND_ASCII = /[^\u0020-\u007e]/;
const MARKS = /\p{M}/gu;
const SPECIAL_CHARS = /[łđøæœßıþðħŀʼ’]/g;

/** Lower case without diacritics: the key of every gazetteer lookup ("Łukasz" → "lukasz", "Weiß" → "weiss"). */
export function fold(s: string): string {
  const lower = s.toLowerCase();
  if (!BEYOND_ASCII.test(lower)) return lower;
  return lower
    .normalize('NFD')
    .replace(MARKS, '')
    .replace(SPECIAL_CHARS, (c) => SPECIAL[c]);
}

/**
 * Surname endings of whole language areas: Slavic -ski/-ska/-ović/-enko/-chuk, Nordic -sson/-sen/-dóttir, Romanian
 * -escu/-eanu, Greek -opoulos/-akis/-idis, Georgian -shvili/-dze, Armenian -yan/-ian, Persian -zadeh/-pour/-nejad,
 * Finnish -nen, Turkish -oğlu, and Russian -ov(a)/-ev(a) on a word of at least six letters.
 */
const SURNAME_SHAPE =
  /(?:sk[iay]|ck[iay]|dzk[iay]|owicz|ewicz|wicz|czyk|[oe]vi[cć]|enko|chuk|[iy]uk|sson|ss[oe]n|dottir|dóttir|escu|eanu|opoulos|opoulou|akis|idis|shvili|adze|[iy]an|zadeh|pour|nejad|inen|[aä]nen|oglu|oğlu|[oe]va?|[oe]vs?k[iy]y?|ovich|evich|ovna|evna)$/;

/** Whether a folded word looks like a surname by its ending alone. */
export function surnameShaped(key: string): boolean {
  if (key.length < 6) return false;
  return SURNAME_SHAPE.test(key);
}

function addWords(set: Set<string>, text: string): void {
  for (const w of text.split(/\s+/)) if (w) set.add(fold(w));
}

function phrases(text: string): string[] {
  return text
    .split(',')
    .map((p) => fold(p.trim().replace(/\s+/g, ' ')))
    .filter((p) => p.length > 0);
}

const plural = (w: string): string => (/(?:s|sh|ch|x)$/.test(w) ? w + 'es' : w.endsWith('y') && !/[aeiou]y$/.test(w) ? w.slice(0, -1) + 'ies' : w + 's');

/** The gazetteers (built on first use). */
export function lexicon(): Lexicon {
  if (cached) return cached;
  const model = nlp.model() as unknown as {
    one: { lexicon: Record<string, string | string[]> };
    two: { orgWords: Record<string, boolean>; placeWords: Record<string, boolean> };
  };
  const lex: Lexicon = {
    firstNames: new Set(),
    lastNames: new Set(),
    people: new Set(),
    organizations: new Set(),
    orgWords: new Set([...Object.keys(model.two.orgWords), ...ORG_SUFFIXES].map(fold)),
    places: new Set(),
    groups: new Map(),
    jobHeads: new Set(),
    common: new Set(),
    longestPhrase: 1,
    phraseStarts: new Set(),
  };
  for (const [word, tagOrTags] of Object.entries(model.one.lexicon)) {
    const tags = Array.isArray(tagOrTags) ? tagOrTags : [tagOrTags];
    let named = false;
    for (const tag of tags) {
      const set = TAG_SETS[tag];
      if (set) {
        lex[set].add(fold(word));
        named = true;
      } else if (PROPER_TAGS.has(tag) && !tags.includes('Abbreviation')) named = true;
    }
    // compromise files many places under `Place` alone ("asia", "baltimore"); its abbreviations ("st", "fla") are not.
    if (tags.includes('Place') && !tags.includes('Abbreviation') && word.length >= 4) lex.places.add(fold(word));
    if (tags.includes('SportsTeam')) lex.organizations.add(fold(word));
    if (!named && !word.includes(' ')) lex.common.add(word);
  }
  // Abbreviations the lexicon files under Organization/Place ("co", "st") are suffixes, not names on their own.
  for (const w of ['dept', 'univ', 'assn', 'inc', 'ltd', 'co']) lex.organizations.delete(w);
  addWords(lex.firstNames, data.GIVEN_NAMES);
  addWords(lex.lastNames, data.SURNAMES);
  addWords(lex.firstNames, CENSUS_GIVEN_NAMES);
  addWords(lex.firstNames, WORLD_GIVEN_NAMES);
  addWords(lex.lastNames, WORLD_SURNAMES);
  addWords(lex.jobHeads, data.JOB_HEADS);
  for (const p of phrases(data.PLACES)) lex.places.add(p);
  // Names in brackets ("Cocos (Keeling) Islands") are read whole by named-entities.ts.
  for (const n of COUNTRY_NAMES) if (!n.includes('(')) lex.places.add(fold(n.replace(/^the /, '')));
  for (const p of phrases(data.ORGANIZATIONS)) lex.organizations.add(p);
  const groups: [string, GroupKind][] = [
    [data.NATIONALITIES, 'nationality'],
    [data.RELIGIONS, 'religion'],
    [data.POLITICAL, 'political'],
  ];
  for (const [list, kind] of groups) {
    for (const p of phrases(list)) {
      lex.groups.set(p, kind);
      const words = p.split(' ');
      words[words.length - 1] = plural(words[words.length - 1]);
      if (!lex.groups.has(words.join(' '))) lex.groups.set(words.join(' '), kind);
    }
  }
  // Card brands and words of every sentence are no organizations on their own ("charge the visa", "Orange juice").
  for (const w of ['visa', 'mastercard', 'amex', 'target', 'orange', 'shell', 'total', 'seat', 'wise', 'puma', 'ola', 'who']) lex.organizations.delete(w);
  for (const set of [lex.places, lex.organizations, lex.groups.keys()]) {
    for (const p of set) {
      const words = p.split(' ');
      lex.longestPhrase = Math.max(lex.longestPhrase, words.length);
      lex.phraseStarts.add(words[0]);
    }
  }
  cached = lex;
  return lex;
}
