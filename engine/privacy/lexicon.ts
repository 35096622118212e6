/**
 * Gazetteers for names, organizations and places, taken once from the lexicon of `compromise` (an English NLP
 * library whose tagger and lexicon ship inside its npm package): ~3,100 first names, ~900 surnames, ~350
 * organizations, ~1,000 cities, countries and regions, the words that end organization and place names, and the
 * common words that start sentences. Loading it costs ~0.5 s once, on the first name/organization/place lookup.
 */
import nlp from 'compromise';

export interface Lexicon {
  firstNames: Set<string>;
  lastNames: Set<string>;
  /** Full names the lexicon knows (public figures). */
  people: Set<string>;
  organizations: Set<string>;
  orgWords: Set<string>;
  places: Set<string>;
  /** Lower-cased words the lexicon tags as something else than a name (sentence-initial "The", "Patient", "Contact"). */
  common: Set<string>;
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
    orgWords: new Set([...Object.keys(model.two.orgWords), ...ORG_SUFFIXES]),
    places: new Set(),
    common: new Set(),
  };
  for (const [word, tagOrTags] of Object.entries(model.one.lexicon)) {
    const tags = Array.isArray(tagOrTags) ? tagOrTags : [tagOrTags];
    let named = false;
    for (const tag of tags) {
      const set = TAG_SETS[tag];
      if (set) {
        lex[set].add(word);
        named = true;
      }
    }
    if (!named && !word.includes(' ')) lex.common.add(word);
  }
  // Abbreviations the lexicon files under Organization/Place ("co", "st") are suffixes, not names on their own.
  for (const w of ['dept', 'univ', 'assn', 'inc', 'ltd', 'co']) lex.organizations.delete(w);
  cached = lex;
  return lex;
}
