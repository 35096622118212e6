/**
 * Street addresses as one block, in the formats of Europe, the UK, the US, Canada, Australia and Latin America.
 *
 * A street line is found first, in one of its orders: number first with an English street word after the name
 * ("221B Baker Street", "1250 René-Lévesque Blvd W") or a Romance one before it ("12 rue de la Paix"); the street
 * word first and the number after ("Calle Mayor 12", "Via Roma 10", "ul. Długa 5/7", "Carrera 7 #71-21"); a
 * compound street name ("Hauptstraße 5", "Keizersgracht 123", "Drottninggatan 53"); a post-office box. A unit may
 * come before it ("Flat 3, 14 Victoria Road"). Then the lines that follow it, separated by commas, new lines or
 * dashes, are taken into the same span while each is a unit ("Apt 2B", "piso 3", "Wohnung 4"), a postcode of one of
 * the main countries with or without its city ("28013 Madrid", "00-238 Warszawa", "1015 CJ Amsterdam"), a city with
 * a state or postcode ("Sydney NSW 2000", "Montreal, QC H3B 4W8"), a region code or a country. A city nothing vouches
 * for (no postcode, region or gazetteer entry) joins only when it ends the sentence or a known line follows it.
 */
import { fold, lexicon } from '../lexicon';
import { define, NEEDS_DIGIT, NEEDS_LETTER, type RawMatch, type Recognizer } from './define';

const L = '\\p{L}\\p{M}';
/** A word in either case of its first letter ("rue"/"Rue"), or all in capitals. */
/** The words of length four or more of an alternation, in lower case ("Street|St|Road" → "street|road"). */
const lowerWords = (words: string): string =>
  words
    .split('|')
    .filter((w) => w.replace(/\?|s\?/g, '').length >= 4)
    .map((w) => w.toLowerCase())
    .join('|');
const either = (words: string): string =>
  words
    .split('|')
    .map((w) => (/^\p{Ll}/u.test(w) ? `[${w[0]}${w[0].toUpperCase()}]${w.slice(1)}|${w.toUpperCase()}` : `${w}|${w.toUpperCase()}`))
    .join('|');

/** A capitalized word, or a short abbreviation with its full stop ("Col.", "Mt."). */
const CAP_WORD = `(?:\\p{Lu}\\p{Ll}{0,3}\\.(?=[\\s,])|\\p{Lu}[${L}'’\\-]*)`;
/** The first word of a street name may be a number or an ordinal ("Calle 50", "5th Avenue"). */
const NAME_WORD = `(?:${CAP_WORD}|\\d{1,3}(?:st|nd|rd|th|º|ª|°)?(?![\\d${L}]))`;
const PARTICLE = "(?:de|del|de la|de las|de los|des|du|di|da|do|dos|das|della|delle|dei|degli|la|le|les|los|las|el|van|von|der|den|the|of|y|e|und|am|an|auf|zum|zur|im|d’|d')";
const NAME_SEQ = `${NAME_WORD}(?:[ \\t]+(?:${PARTICLE}[ \\t]+)*${CAP_WORD}){0,4}`;
/** An English street name: capitalized words, the first of them may be an ordinal ("5th Avenue", "West 42nd Street"). */
const NAME_SEQ_EN = `(?:${CAP_WORD}|\\d{1,3}(?:st|nd|rd|th)(?![\\d${L}]))(?:[ \\t]+(?:${PARTICLE}[ \\t]+)*${CAP_WORD}){0,4}`;
/** A house number after the street name: at most four digits, so a postcode after it is not taken for one. */
const HOUSE_AFTER = `(?:\\d{1,4}[A-Za-z]?(?:[-/]\\d{1,4}[A-Za-z]?)?(?:[ \\t]+\\d{1,4}(?=[ \\t]*[,\\n]))?(?![\\d${L}])|[Ss]/[Nn](?![${L}]))`;
const NUMBER = `\\d{1,5}[A-Za-z]?(?:\\s?(?:bis|ter|BIS|TER))?(?:[-/]\\d{1,5}[A-Za-z]?)?(?![\\d${L}])`;
const DIRECTION = '(?:N|S|E|W|NE|NW|SE|SW|North|South|East|West|Nord|Sud|Est|Ouest)(?!\\d)\\.?';

const ENGLISH_STREET =
  'Street|St|Avenue|Ave|Av|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Way|Place|Pl|Terrace|Ter|Tce|Circle|Cir|Parkway|Pkwy|Highway|Hwy|Square|Sq|Trail|Trl|Close|Crescent|Cres|Row|Walk|Gardens|Gdns|Plaza|Alley|Mews|Grove|Hill|Park|Green|Rise|Vale|View|Wharf|Quay|Esplanade|Parade|Pde|Promenade|Broadway|Causeway|Crossing|Expressway|Freeway|Loop|Path|Pike|Ridge|Turnpike|Wynd|Yard|Embankment|Circus|Approach|Strand|Heights|Hts';
/**
 * The rest of the USPS street suffixes (and those of British address books): a street line that ends in one of them
 * is an address surely only with a city, postcode or address word near it ("0742 Wright Burgs Suite 953").
 */
const RARE_STREET =
  'Annex|Arcade|Bayou|Beach|Bend|Bluffs?|Bottom|Branch|Bridge|Brooks?|Burgs?|Bypass|Camp|Canyon|Cape|Centers?|Centre|Circles|Cliffs?|Commons?|Corners?|Course|Courts|Coves?|Creek|Crest|Crossroads?|Curve|Dale|Dam|Divide|Drives|Estates?|Extensions?|Falls|Ferry|Fields?|Flats?|Fords?|Forest|Forges?|Forks?|Fort|Garden|Gateway|Glens?|Greens|Groves|Harbors?|Haven|Hills|Hollow|Inlet|Islands?|Isle|Junctions?|Keys?|Knolls?|Lakes?|Landing|Lights?|Locks?|Lodge|Mall|Manors?|Meadows?|Mills?|Mission|Motorway|Mount|Mountains?|Neck|Orchard|Oval|Overpass|Parks|Pass|Passage|Pines?|Plains?|Points?|Ports?|Prairie|Radial|Ramp|Ranch|Rapids?|Rest|Ridges|River|Roads|Route|Shoals?|Shores?|Skyway|Springs?|Spurs?|Squares|Station|Stravenue|Stream|Streets|Summit|Throughway|Trace|Track|Trafficway|Club|Tunnel|Underpass|Unions?|Valleys?|Via|Viaduct|Views|Villages?|Ville|Vista|Walks|Ways|Wells?|' +
  // Australia Post's street types and USPS's last few ("52 Ashley Tollway", "8/02 Anderson Foreshore")
  'Access|Alleyway|Amble|Anchorage|Artery|Basin|Block|Brace|Brae|Break|Brow|Byway|Centreway|Chase|Circlet|Circuit|Colonnade|Concourse|Copse|Corso|Courtyard|Cross|Crossway|Cruiseway|Cul-de-sac|Cutting|Dell|Deviation|Dip|Distributor|Driveway|Edge|Elbow|End|Entrance|Fairway|Fire Track|Firetrail|Follow|Footway|Foreshore|Formation|Front|Frontage|Gap|Gates?|Glade|Grange|Ground|Gully|Highroad|Interchange|Intersection|Laneway|Lees|Line|Link|Little|Lookout|Lower|Meander|Mew|Nook|Outlook|Parklands|Part|Pathway|Plateau|Pocket|Quad|Quadrangle|Quadrant|Ramble|Range|Reach|Reserve|Retreat|Ride|Ridgeway|Right Of Way|Ring|Riverway|Riviera|Roadside|Roadway|Ronde|Rosebowl|Rotary|Round|Run|Service Way|Siding|Slope|Sound|Stairs|State Highway|Steps|Strip|Subway|Tarn|Thoroughfare|Tollway|Top|Tor|Towers|Trailer|Triangle|Trunkway|Turn|Upper|Villas|Wade|Walkway|Fall|Land|Loaf|Wall';
/** Every street suffix: capitalized, the full words also in lower case ("Jones walks") and the common ones in capitals. */
const ANY_STREET = [ENGLISH_STREET, RARE_STREET, lowerWords(ENGLISH_STREET), lowerWords(RARE_STREET), lowerWords(ENGLISH_STREET).toUpperCase()].join('|');
/** The common suffixes, capitalized: a street line ending in one is an address on its own. */
const COMMON_STREET_END = new RegExp(`(?:${ENGLISH_STREET}|${lowerWords(ENGLISH_STREET).toUpperCase()})\\.?(?:\\s+${DIRECTION})?$`);
/** Street words written before the name, after a house number ("12 rue de la Paix", "5 Chemin des Vignes"). */
const ROMANCE_AFTER_NUMBER = either('rue|avenue|av|boulevard|bd|bld|place|allée|chemin|impasse|quai|route|cours|passage|square|esplanade|faubourg|via|viale|corso|piazza|calle|avenida|rua');
/**
 * Street words before the name with the number after it ("Calle Mayor 12", "ul. Długa 5/7"): capitalized (in lower
 * case, "via DHL 3" is prose), or the lower-case abbreviations of Polish and Czech addresses.
 */
const STREET_FIRST =
  'Calle|Avenida|Avda|Av|Paseo|Plaza|Pza|Camino|Carrera|Cra|Kra|Diagonal|Transversal|Jirón|Ronda|Travesía|Carretera|Ctra|Acceso|Bajada|Callejón|Cañada|Cuesta|Glorieta|Pasadizo|Pasaje|Rambla|Urbanización|Vía|Vial|Carrer|Avinguda|Passeig|Plaça|' +
  // Mexico's and Colombia's street words ("Privada Barrientos 386", "Cl. 71 # 95-37")
  'Diag(?=\\.)|Privada|Cerrada|Circuito|Circunvalación|Periférico|Viaducto|Continuación|Prolongación|Retorno|Andador|Calzada|Cl(?=\\.)|Cll|Recanto|Esplanada|R(?=\\.\\s+(?:da|de|do|dos|das)\\s)|' +
  'Rua|Travessa|Praça|Largo|Alameda|Estrada|Rodovia|Jardim|Ladeira|Parque|Quadra|Setor|Vila|Viela|Chácara|Condomínio|Conjunto|Loteamento|Residencial|Trevo|Vereda|' +
  'Aeroporto|Área|Campo|Colônia|Distrito|Estação|Favela|Fazenda|Feira|Lago|Lagoa|Morro|Núcleo|Passarela|Pátio|Praia|Sítio|Trecho|Vale|Viaduto|Corredor|Ampliación|Peatonal|Eje vial|Blv|Bv|Bulevar|' +
  'Via|Viale|Piazza|Corso|Vicolo|Lungomare|Strada|Contrada|Borgo|Canale|Incrocio|Rotonda|Stretto|Rue|Avenue|Boulevard|Ulica|Ul|Aleja|Al|Plac|Osiedle|Calea|Str|Bulevardul|Piața|Odos|Sokak|Caddesi|Cad|Mahallesi|Rruga|Ulice|Náměstí|Třída|' +
  'CALLE|AVENIDA|AVDA|AV|PASEO|RUA|VIA|VIALE|PIAZZA|CORSO|RUE|AVENUE|ULICA|UL|C/|ulica|aleja|plac|osiedle|ul(?=\\.)|al(?=\\.)|pl(?=\\.)|os(?=\\.)|nám(?=\\.)';
/** Endings of one-word street names ("Hauptstraße", "Keizersgracht", "Drottninggatan"). */
const COMPOUND =
  'straße|strasse|str\\.|weg|gasse|platz|allee|damm|ufer|chaussee|steig|pfad|markt|graben|gracht|laan|straat|plein|kade|singel|dijk|steeg|hof|ring|boulevard|dreef|baan|vej|gade|gatan|gata|vägen|väg|veien|katu|kuja|utca|ulice|iela|gatvė';
const UNIT_WORD =
  either(
    'apt|apartment|suite|ste|unit|flat|floor|fl|room|rm|level|lvl|bldg|building|block|shop|piso|planta|puerta|pta|dpto|depto|departamento|apto|apartamento|andar|sala|bloco|casa|interior|int|wohnung|whg|stock|etage|étage|appartement|appt|bâtiment|bât|escalier|esc|piano|scala|interno|appartamento|studio|oficina|local|lote|bloque|portal|escalera|lok|mieszkanie|m|edif|edificio|dto|torre|bodega|etapa|manzana|mz|lt',
  ) + '|#';

const UNIT = `(?:(?:${UNIT_WORD})(?![${L}])\\.?\\s*(?:No\\.?\\s*)?#?\\s*[A-Za-z0-9º°ª][A-Za-z0-9º°ª\\-/]{0,5}(?:\\s*(?:izq|izda|dcha|der|drcha|esq|izquierda|derecha)\\.?)?|\\d{1,2}[º°ª]\\s*(?:[A-Za-z]{1,4}\\.?)?)`;
const UNIT_FIRST =
  `(?:(?:${either('flat|apt|apartment|unit|suite|ste|level|floor|room|shop')})\\.?\\s*#?\\s*(?:\\d[A-Za-z0-9\\-]{0,4}|[A-Z](?![A-Za-z])),?\\s+` +
  // Australian unit/number: "Unit 5/23 Smith St" (the unit word before the house number it shares a slash with)
  `|(?:${either('unit|flat|apt|apartment|villa|townhouse|shop|suite')})\\.?\\s+(?=\\d{1,4}[A-Za-z]?/\\d))?`;

const POSTCODE =
  '(?:[A-Z]{1,2}\\d[A-Z\\d]? ?\\d[A-Z]{2}' + // UK
  '|[A-Z]\\d[A-Z] ?\\d[A-Z]\\d' + // Canada
  '|\\d{5}-\\d{4}' + // US ZIP+4
  '|\\d{5}-\\d{3}|\\d{4}-\\d{3}|\\d{8}(?=[ \\t]+\\p{Lu})' + // Brazil (also without its hyphen, before the city), Portugal
  '|\\d{3}-\\d{4}' + // Japan
  '|\\d{2}-\\d{3}' + // Poland
  '|[1-9]\\d{3} ?[A-Z]{2}(?![A-Za-z])' + // Netherlands
  '|\\d{3} \\d{2}' + // Sweden, Czechia, Slovakia, Greece
  '|[A-Z]\\d{4}(?:[A-Z]{3})?' + // Argentina
  '|[A-Z]\\d{2} ?[A-Z0-9]{4}' + // Ireland (Eircode)
  '|(?:[A-Z]{1,2}-)?\\d{4,6})'; // 4-6 digits: US, DE, FR, ES, IT, MX, AU, CH, AT, BE, DK, NO, IN...
/** Words that end the name of a building a unit is in ("Flat 4B, Sunrise Apartments"). */
const BUILDING = 'Apartments|Apts|Residency|Residences|Towers?|Mansions?|Enclave|Complex|Chambers|House|Building|Plaza|Court|Heights';
/** An address line that starts with a unit ("Flat 12, Oakwood Court"). */
const UNIT_START = new RegExp(`^(?:${either('flat|apt|apartment|unit|suite|ste|level|floor|room|shop|studio')})(?![${L}])`, 'u');

const STREET_LINE = new RegExp(
  // Not the last group of a phone number or a date before it ("+55 21 99876-5432, Rua ...").
  `(?<![${L}\\d]|\\d[ .\\-]|\\+)(?:${UNIT_FIRST}(?:` +
    // 1600 Amphitheatre Pkwy, 45 Queen Street West
    `${NUMBER},?[ \\t]+(?:${DIRECTION}[ \\t]+)?${NAME_SEQ_EN}[ \\t]+(?:${ANY_STREET})(?![${L}])\\.?(?:[ \\t]+${DIRECTION}(?![${L}]))?` +
    // Flat 9\nVictoria Road: a unit, then a street without a house number
    `|(?:${either('flat|apartment|apt|unit|suite|studio')})\\.?\\s*\\d{1,4}[A-Za-z]?,?\\s+${NAME_SEQ_EN}[ \\t]+(?:${ANY_STREET}|${BUILDING})(?![${L}])\\.?` +
    // Japan, block numbers first: "4-2-8 Shibakoen, Minato-ku"
    `|\\d{1,2}-\\d{1,2}(?:-\\d{1,3})?,?\\s+${CAP_WORD}(?=,\\s*\\p{Lu}\\p{Ll}+-(?:ku|shi|cho|machi|gun)(?![${L}]))` +
    // Turkey, the street word after the name: "Bağdat Caddesi No: 215", "Atatürk Blv. No:5"
    `|${CAP_WORD}(?:\\s+${CAP_WORD}){0,2}\\s+(?:Caddesi|Cad\\.|Sokak|Sokağı|Sk\\.|Bulvarı|Blv\\.)\\s*,?\\s*(?:No\\s*[:.]?\\s*)?${HOUSE_AFTER}` +
    // A one-word street and its number before a postcode and city: "Damrak 70, 1012 LM Amsterdam"
    // (on one line: the line above may be the addressee's name)
    `|${CAP_WORD}(?:[ \\t]+${CAP_WORD}){0,2}[ \\t]+${HOUSE_AFTER}(?=,?\\s+(?:${POSTCODE})[ \\t]+\\p{Lu})` +
    // US military mail: "USNS Miller", "PSC 1234, Box 5678", "Unit 1234 Box 5678" (then "FPO AP 12345")
    `|(?:USNS|USNV|USS|USCGC)\\s+${CAP_WORD}|PSC\\s+\\d{4},?\\s+Box\\s+\\d{4}|Unit\\s+\\d{4},?\\s+Box\\s+\\d{4}` +
    // 12 rue de la Paix
    `|${NUMBER},?\\s+(?:${ROMANCE_AFTER_NUMBER})\\.?\\s+(?:${PARTICLE}\\s+)*${NAME_WORD}(?:\\s+(?:${PARTICLE}\\s+)*${NAME_WORD}){0,4}` +
    // Colombia's grid: the way and its number, then "#" and the crossing street's number with the distance from it
    // ("Cl. 158S Sur # 31-6 Sur", "Cr. 8 Bis J # 5-3", "Av. calle 100 # 2-78 Este", "Av. Padilla # 69W-11 Este")
    `|(?:(?:Avenida|Av\\.)[ \\t]+(?:[Cc]alle|[Cc]arrera)|Calle|Cl\\.|Cll\\.?|Carrera|Cra\\.?|Cr\\.|Kr\\.?|Transversal|Tr\\.|Tv\\.|Diagonal|Dg\\.|Avenida|Av\\.|Ak\\.|Ac\\.)[ \\t]+` +
    `(?:\\d{1,3}[A-Z]?[ª°]?(?:[ \\t]+Bis)?(?:[ \\t]?[A-Z](?![${L}]))?|${CAP_WORD})(?:[ \\t]+(?:Sur|Este|Norte|Oeste))?` +
    `[ \\t]*(?:#|No\\.?|N[°º])[ \\t]*\\d{1,3}[A-Z]{0,2}-\\d{1,3}(?:[ \\t]+(?:Sur|Este|Norte|Oeste)(?![${L}]))?` +
    // France without a house number, before its postcode: "rue Dos Santos, 58619 Wagner"
    `|(?<![${L}])(?:rue|avenue|boulevard|chemin|impasse|allée|place|quai|Rue|Avenue|Boulevard|Chemin|Impasse|Allée|Quai)[ \\t]+(?:${PARTICLE}[ \\t]+)*${CAP_WORD}(?:[ \\t]+(?:${PARTICLE}[ \\t]+)*${CAP_WORD}){0,3}(?=,?\\s+\\d{5}[ \\t]+\\p{Lu})` +
    // Calle Mayor 12, ul. Długa 5/7, Carrera 7 #71-21
    `|(?:${STREET_FIRST})\\.?\\s+(?:${PARTICLE}\\s+)*${NAME_SEQ},?\\s+(?:[Nn][º°o]\\.?\\s*|No\\.?\\s*|[Nn]r\\.?\\s*|#\\s*)?${HOUSE_AFTER}` +
    // (after the forms with a number) Brazil and Portugal without a number, the neighbourhood's line and the CEP after it: "Vereda Pacheco, Penha,
    // 40368131 Guerra de Mendes / TO"
    `|(?:${STREET_FIRST})\\.?[ \\t]+(?:${PARTICLE}[ \\t]+)*${NAME_SEQ}(?=(?:,[ \\t]*|\\n)(?:[^\\n,\\d]{2,40}(?:,[ \\t]*|\\n)){0,2}(?:\\d{5}-?\\d{3}|\\d{4}-\\d{3})[ \\t]+\\p{Lu})` +
    // Hauptstraße 5, Am Markt 3
    `|\\p{Lu}[${L}\\-]*?(?:${COMPOUND})\\s+${HOUSE_AFTER}|(?:Am|An der|Auf der|Im|In der|Zum|Zur|Unter den)\\s+${CAP_WORD}\\s+${HOUSE_AFTER}` +
    `)|(?:P\\.?\\s?[Oo]\\.?\\s?Box|Post Office Box|GPO Box|Apartado(?: Postal| de Correos)?|Caixa Postal|Casilla(?: de Correo)?|Postfach|Boîte Postale|B\\.P\\.)\\s+\\d{1,6}` +
    // lower case after an address cue: "i live at 42 baker street"
    `|(?<=\\b(?:live at|lives at|living at|address is|moved to|ship to|deliver to|send to|located at)\\s)\\d{1,5}[a-z]?\\s+(?:[a-z]+\\s+){1,3}(?:street|avenue|road|lane|drive|boulevard|court|place|terrace|way|close|crescent)(?![${L}])` +
    ')',
  'gu',
);

/** Words of one line: a city does not run on over a line break ("London\\nSW1A 2AA" is two lines). */
const H = '[ \\t]+';
const CITY_WORD = `(?:\\p{Lu}\\p{Ll}{1,3}\\.(?=[\\s,])|\\p{Lu}[${L}'’\\-]*(?![\\d${L}]))`;
const CITY = `${CITY_WORD}(?:${H}(?:${PARTICLE}${H})*${CITY_WORD}){0,3}`;
const REGION = '(?:[A-Z]{2,4}|[A-Z]\\.[A-Z]\\.(?:[A-Z]\\.)?)';
const END = `(?![${L}\\d])`;

/** One line of an address after the street, anchored where the previous one ended. */
const UNIT_LINE = new RegExp(`${UNIT}${END}`, 'uy');
const POSTCODE_LINE = new RegExp(`${POSTCODE}${END}(?:${H}(${CITY}))?(?:${H}(?:[-–/]${H})?(\\(?${REGION}\\)?)${END})?`, 'uy');
const CITY_LINE = new RegExp(`(${CITY})(?:,?${H}(${REGION})${END}|(?:${H}?\\(|${H}\\/${H})(${REGION})\\)?${END})?(?:,?${H}(${POSTCODE})${END}|${H}(\\d{1,2})${END})?`, 'uy');
const SEPARATOR = /\s*(?:,|\n|;(?=\s*\n))\s*|\s+[-–/]\s+|\s+/y;

/** `bare`: a postcode alone on its line, whose city follows ("13853, Crosa (BI)"). */
type Line = { end: number; strong: boolean; city: boolean; postcodeLast: boolean; bare?: boolean };

function knownPlace(words: string): boolean {
  const lex = lexicon();
  const key = fold(words.replace(/\.$/, ''));
  return lex.places.has(key) || lex.places.has(key.replace(/^(?:col|colonia|bairro|barrio)\.?\s+/, ''));
}

/** The address line starting at `pos` (after a separator), or undefined. */
function line(text: string, pos: number, spaceOnly: boolean, afterPostcode: boolean): Line | undefined {
  UNIT_LINE.lastIndex = pos;
  let m = UNIT_LINE.exec(text);
  if (m) return { end: pos + m[0].length, strong: true, city: false, postcodeLast: false };
  POSTCODE_LINE.lastIndex = pos;
  m = POSTCODE_LINE.exec(text);
  if (m) return { end: pos + m[0].length, strong: true, city: false, postcodeLast: !m[1] && !m[2], bare: !m[1] && !m[2] };
  CITY_LINE.lastIndex = pos;
  m = CITY_LINE.exec(text);
  if (!m) return undefined;
  const [, city, region, province, postcode, district] = m;
  // After a bare space only a region or postcode may follow ("Sydney NSW 2000" is one line, "Smith said" is not),
  // or the city of a postcode ("Col. Juárez, 06600 Ciudad de México").
  if (spaceOnly && !afterPostcode) return undefined;
  const lex = lexicon();
  const words = city.split(/\s+/);
  // A line of common words ("Please", "Thanks Anna") is the sentence going on, not a city, unless a region or a
  // postcode vouches for it ("New Holly, MB B3C7M9").
  const known = knownPlace(city);
  const vouched = !!(region || province || postcode || district);
  // Common words need a region to be a city: "TEL 1155" is a label and a number.
  if (!known && !(region || province) && words.every((w) => lex.common.has(fold(w)))) return undefined;
  const strong = vouched || known;
  return { end: pos + m[0].length, strong: strong || afterPostcode, city: true, postcodeLast: !!postcode };
}

/** The lines after a street line that belong to the same address; returns the end of the block. */
function extend(text: string, from: number): { end: number; lines: number } {
  let end = from;
  let lines = 0;
  let pos = from;
  let pendingCity = -1;
  let pendingStart = -1;
  let postcodeLast = false;
  let bare = false;
  // A postcode and its city came: a region or country may end the block ("190879, Santa Rosa, Cauca").
  let postcodeAndCity = false;
  for (let n = 0; n < 7; n++) {
    SEPARATOR.lastIndex = pos;
    const sep = SEPARATOR.exec(text);
    if (!sep) break;
    const spaceOnly = !/[,\n\-–;/]/.test(sep[0]);
    const l = line(text, pos + sep[0].length, spaceOnly, (postcodeLast && spaceOnly) || bare);
    if (!l) break;
    if (l.city && (postcodeLast || l.postcodeLast)) postcodeAndCity = true;
    if (l.strong) {
      end = l.end;
      lines = n + 1;
      pendingCity = -1;
    } else if (pendingCity < 0) {
      pendingStart = pos + sep[0].length;
      pendingCity = l.end;
    } else break;
    pos = l.end;
    postcodeLast = l.postcodeLast;
    bare = !!l.bare;
  }
  // A last city nothing vouches for joins when the sentence ends right after it, or after a postcode and its city
  // when it is no given name ("..., 28013 Madrid, Bob said").
  if (pendingCity > end) {
    const ends = /^\s*(?:$|[.!?;)\]\n]|\s+(?:by|before|after|on|in|at|for|with|and|antes|bis)\b)/.test(text.slice(pendingCity, pendingCity + 10));
    if (ends || (postcodeAndCity && !lexicon().firstNames.has(fold(text.slice(pendingStart, pendingCity).split(/\s+/)[0])))) end = pendingCity;
  }
  return { end, lines };
}

/** The street lines and their blocks in one reading of a text. */
function scan(text: string, out: RawMatch[], needBlock: boolean): void {
  STREET_LINE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = STREET_LINE.exec(text)) !== null) {
    const start = m.index;
    let end = start + m[0].length;
    // A street line ends at a word: drop a trailing full stop that ends the sentence ("... Baker Street.").
    if (text[end - 1] === '.' && /^\s*(?:$|\n|[A-Z])/.test(text.slice(end, end + 3)) && !/\b(?:St|Ave|Rd|Blvd|Dr|Ln|Ct|Pl|Pkwy|Hwy|Sq)\.$/.test(text.slice(start, end))) end--;
    const line = text.slice(start, end);
    const block = extend(text, end);
    STREET_LINE.lastIndex = Math.max(end, block.end);
    if (needBlock && block.lines === 0) continue;
    end = Math.max(end, block.end);
    // A unit and building line before the street line is the same address ("Flat 12, Oakwood Court, 45 High St").
    const before = out[out.length - 1];
    if (before && before.evidence?.length === 1 && UNIT_START.test(text.slice(before.start, before.end)) && /^\s*[,\n]\s*$/.test(text.slice(before.end, start))) {
      out.pop();
      out.push({ start: before.start, end, score: 0.92, evidence: ['pattern', 'address_block'] });
      continue;
    }
    // A line that ends in a rare or lower-case street word ("Wright Burgs", "Jones walks") needs its block or an
    // address word near it; the others stand alone.
    const alone = !/^\d/.test(line) || COMMON_STREET_END.test(line.replace(/\.$/, '')) ? 0.85 : 0.45;
    out.push({ start, end, score: block.lines > 0 ? 0.92 : alone, evidence: block.lines > 0 ? ['pattern', 'address_block'] : ['pattern'] });
  }
}

const HAS_UPPER = /\p{Lu}/u;
const HAS_LOWER = /\p{Ll}/u;
const RECASE_WORD = /[\p{L}\p{M}\d'’]+/gu;
/** Words that go on a sentence, not an address line: they stay lower case in the re-cased reading. */
const FUNCTION_WORDS = new Set(
  'a an and are as at be before after but by for from has have he her his i if in into is it its me my no not of on or our out she so than that the their them then there they this to until was we were when which while who will with you your please thanks thank asap today tomorrow soon now again also just only here antes bis'.split(
    ' ',
  ),
);
/** State, province and territory codes written after a city (US, Canada, Australia, Brazil, Mexico, Italy). */
const REGION_CODES = new Set(
  (
    'al ak az ar ca co ct de fl ga hi id il in ia ks ky la me md ma mi mn ms mo mt ne nv nh nj nm ny nc nd oh ok or pa ri sc sd tn tx ut vt va wa wv wi wy dc ' +
    'ab bc mb nb nl ns nt nu on pe qc sk yt nsw vic qld tas act sp rj mg rs pr sc ba pe ce df cdmx jal rm na to ge bo fi bs bg ve vr pd ts ct pa'
  ).split(' '),
);

/**
 * A text written all in lower case or all in capitals is read a second time as an address book would write it
 * ("calle mayor 12, 28013 madrid" → "Calle Mayor 12, 28013 Madrid", "nw1 6xe" → "NW1 6XE", "or 97477" → "OR
 * 97477"); there a street line counts only with the city, postcode or region lines after it, since case no longer
 * tells names from prose.
 */
function recased(text: string): string | undefined {
  const upper = HAS_UPPER.test(text);
  const lower = HAS_LOWER.test(text);
  if (upper && lower) return undefined;
  const base = upper ? text.toLowerCase() : text;
  const out = base.replace(RECASE_WORD, (w: string, at: number) => {
    if (/\d/.test(w)) return w.toUpperCase();
    const next = /^[ \t]+(\S+)|^\s*(?:$|[,\n])/.exec(base.slice(at + w.length, at + w.length + 12));
    if (REGION_CODES.has(w) && next && (!next[1] || /\d/.test(next[1]))) return w.toUpperCase();
    if (FUNCTION_WORDS.has(w)) return w;
    return w[0].toUpperCase() + w.slice(1);
  });
  return out.length === text.length ? out : undefined;
}

/** Words that announce an address, whatever its format: "My address is …", "lives at …", "Send the package to …". */
const ADDRESS_CUE =
  /\b(?:(?:my|his|her|their|our|the|new|home|mailing|postal|billing|shipping|delivery|current|registered|street) address(?: is| was|:)|address:|(?:lives?|lived|living|resides?|residing|located|based) at|(?:send|ship|deliver|mail|post|forward|return)(?: [\p{Ll}]+){0,3} to:?)[ \t]+/giu;
/** Where the address ends inside its last part: the sentence goes on. */
const ADDRESS_TAIL = /[ \t]+(?:with|and|but|before|after|since|until|if|when|for|so|because|which|where|on|by|last|next|this|please|asap|today|tomorrow|yesterday|now|from|it|we|i|he|she|they)\b/iu;
/** Abbreviations a full stop does not end the sentence after ("No. 5", "Jl. Merdeka", "St. Kilda"). */
const ABBREVIATION =
  /(?:^|[\s,])(?:\p{Lu}|No|Nr|Jl|St|Ste|Apt|Ave|Av|Avda|Rd|Dr|Blvd|Bd|Str|Ul|Al|Pl|Os|Bldg|Dept|Depto|Edif|Gral|Col|Mt|Ft|Pte|Sta|Sto|Fl|Cr|Cl|Dg|Tv|Tr|Kr|Ak|Ac|Pso|Pza|Ch|Imp|Sq|Ct|Hwy|Pkwy|Ln|Tce|Cres|Int|Dto|Bis|Lt|Co|ul|al|pl|os|ap|apt|nr|str|bl|sc|et)$/u;
/** Lower-case words a part without a number may hold: "Stratford upon Avon", "Alcácer do Sal". Others are prose. */
const LOWER_IN_PLACE = new Set('de del della di da do dos das la le les los las el y e van von der den am an im upon on en sur sous bei zum zur op aan'.split(' '));
/** A comma-separated part of an address: short, and with a number or a capital at its start. */
const ADDRESS_PART = /^(?:\d|\p{Lu}|[\p{Ll}]{1,6}\.?\s+\p{Lu}|(?:ul|al|pl|os|ulica|aleja|rue|calle|via|rua|avenida|strada|str|utca|út|ut|jl|jalan|c\/)\.?\s)/u;

/**
 * After words that announce an address, its parts up to the sentence's end are one address in any format the street
 * patterns do not know ("My address is Bulevardul Ardelean, Campia Turzii, 751305", "Jl. Merdeka No. 5, Tual, JB
 * 77779", "30/622, Nath Ganj, Dhule 071902"): at most six short parts, a number among them. After "send … to", the
 * first part is the addressee when it holds no number ("to Nidra Gola, 91, Dua Zila, Sambhal-706632").
 */
function cuedAddresses(text: string): RawMatch[] {
  const out: RawMatch[] = [];
  for (const cue of text.matchAll(ADDRESS_CUE)) {
    let start = cue.index + cue[0].length;
    // The sentence's end: a full stop before a space and a capital (or the text's end) after no abbreviation, a
    // semicolon, a question or exclamation mark, or a blank line.
    let end = start;
    const limit = Math.min(text.length, start + 160);
    while (end < limit) {
      const c = text[end];
      if (c === ';' || c === '!' || c === '?' || (c === '\n' && text[end + 1] === '\n')) break;
      if (c === '.' && /^(?:\s+\p{Lu}|\s*$)/u.test(text.slice(end + 1, end + 4)) && !ABBREVIATION.test(text.slice(Math.max(start, end - 6), end))) break;
      end++;
    }
    if (end >= limit && end < text.length) continue; // no end in sight: not an address phrase
    const parts = text.slice(start, end).split(/(?<=,)[ \t]*|\n/);
    if (/\bto:?[ \t]+$/i.test(cue[0]) && parts.length > 1 && !/\d/.test(parts[0]) && /^\p{Lu}/u.test(parts[0])) {
      start += parts[0].length + (/^[ \t]*/.exec(text.slice(start + parts[0].length))?.[0].length ?? 0);
      parts.shift();
    }
    let stop = start;
    let taken = 0;
    for (const part of parts) {
      const trimmed = part.replace(/^[ \t]+/, '');
      if (taken >= 6 || trimmed.length > 50 || !ADDRESS_PART.test(trimmed)) break;
      // "…, London NW1 6XE, Bob said": a part without a number is a place's name, in capitals but for particles.
      if (!/\d/.test(trimmed) && trimmed.split(/[\s,]+/).some((w, k) => k > 0 && /^\p{Ll}/u.test(w) && !LOWER_IN_PLACE.has(w))) break;
      const lead = text.indexOf(trimmed, stop);
      const tail = ADDRESS_TAIL.exec(trimmed);
      stop = lead + (tail ? tail.index : trimmed.replace(/[,\s]+$/, '').length);
      taken++;
      if (tail) break;
    }
    const span = text.slice(start, stop);
    if (taken < 2 || !/\d/.test(span) || !/\p{L}{2}/u.test(span)) continue;
    out.push({ start, end: stop, score: 0.9, evidence: ['pattern', 'address_block', 'context'] });
  }
  return out;
}

export function findAddresses(text: string): RawMatch[] {
  const out: RawMatch[] = cuedAddresses(text);
  const other = recased(text);
  // In capitals every word looks like a name: the re-cased reading alone tells "ITALY" from "BEFORE FRIDAY".
  if (other !== undefined && !HAS_LOWER.test(text)) {
    scan(other, out, false);
    return out;
  }
  scan(text, out, false);
  if (other !== undefined) {
    const more: RawMatch[] = [];
    scan(other, more, true);
    for (const m of more) {
      // The re-cased reading may see the block a lower-case street line could not ("..., springfield, or 97477").
      const clash = out.filter((o) => o.start < m.end && m.start < o.end);
      if (clash.every((o) => o.start >= m.start && o.end <= m.end && o.end - o.start < m.end - m.start)) {
        for (const o of clash) out.splice(out.indexOf(o), 1);
        out.push(m);
      }
    }
    out.sort((a, b) => a.start - b.start);
  }
  return out;
}

export const ADDRESS_RECOGNIZERS: Recognizer[] = [
  define({
    id: 'address',
    name: 'Street address',
    category: 'geography',
    find: findAddresses,
    matchCell: (v) => {
      const t = v.trim();
      const found = findAddresses(t);
      return found.length === 1 && found[0].start === 0 && found[0].end >= t.length - 1 ? { start: 0, end: v.length, score: found[0].score, evidence: found[0].evidence } : null;
    },
    evidence: 'format',
    score: 0.88,
    contextScore: 0.95,
    context: [
      'address',
      'lives at',
      'live at',
      'resides',
      'ship to',
      'mail to',
      'located at',
      'street',
      'deliver to',
      'send to',
      'dirección',
      'adresse',
      'endereço',
      'indirizzo',
      'adres',
      'domicilio',
    ],
    columnHint: 'address|street|addr',
    needs: NEEDS_DIGIT | NEEDS_LETTER,
  }),
];
