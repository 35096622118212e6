/** ISO 3166-1 alpha-2 codes (SWIFT/BIC country field, ccTLDs) and IBAN lengths by country. */
export const COUNTRY_CODES = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV ' +
    'CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL ' +
    'IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU ' +
    'MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN ' +
    'SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW XK'
  ).split(' '),
);

export const IBAN_LENGTHS: Record<string, number> = {
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BR: 29,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IQ: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LC: 32,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MR: 27,
  MT: 31,
  MU: 30,
  NL: 18,
  NO: 15,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  SA: 24,
  SC: 31,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  TL: 23,
  TN: 24,
  TR: 26,
  UA: 29,
  VA: 22,
  VG: 24,
  XK: 20,
};

/**
 * The English names of the countries and territories of ISO 3166-1, short and official ("Syrian Arab Republic",
 * "Cocos (Keeling) Islands", "Kingdom of the Netherlands"), as Debian's iso-codes writes them (pycountry 26.2.16); the
 * database forms with a comma ("Korea, Republic of") are left out, since prose never inverts a name.
 */
export const COUNTRY_NAMES: readonly string[] = (
  'Afghanistan|Albania|Algeria|American Samoa|Andorra|Angola|Anguilla|Antarctica|Antigua and Barbuda|' +
  'Arab Republic of Egypt|Argentina|Argentine Republic|Armenia|Aruba|Australia|Austria|Azerbaijan|Bahamas|' +
  'Bahrain|Bangladesh|Barbados|Belarus|Belgium|Belize|Benin|Bermuda|Bhutan|Bolivarian Republic of Venezuela|' +
  'Bolivia|Bosnia and Herzegovina|Botswana|Bouvet Island|Brazil|British Indian Ocean Territory|' +
  'British Virgin Islands|Brunei Darussalam|Bulgaria|Burkina Faso|Burundi|Cabo Verde|Cambodia|Cameroon|Canada|' +
  'Cayman Islands|Central African Republic|Chad|Chile|China|Christmas Island|Cocos (Keeling) Islands|Colombia|' +
  'Commonwealth of Dominica|Commonwealth of the Bahamas|Commonwealth of the Northern Mariana Islands|Comoros|' +
  "Congo|Cook Islands|Costa Rica|Croatia|Cuba|Curaçao|Cyprus|Czech Republic|Czechia|Côte d'Ivoire|" +
  "Democratic People's Republic of Korea|Democratic Republic of Sao Tome and Principe|" +
  'Democratic Republic of Timor-Leste|Democratic Socialist Republic of Sri Lanka|Denmark|Djibouti|Dominica|' +
  'Dominican Republic|Eastern Republic of Uruguay|Ecuador|Egypt|El Salvador|Equatorial Guinea|Eritrea|Estonia|' +
  'Eswatini|Ethiopia|Falkland Islands (Malvinas)|Faroe Islands|Federal Democratic Republic of Ethiopia|' +
  'Federal Democratic Republic of Nepal|Federal Republic of Germany|Federal Republic of Nigeria|' +
  'Federal Republic of Somalia|Federated States of Micronesia|Federative Republic of Brazil|Fiji|Finland|' +
  'France|French Guiana|French Polynesia|French Republic|French Southern Territories|Gabon|Gabonese Republic|' +
  'Gambia|Georgia|Germany|Ghana|Gibraltar|Grand Duchy of Luxembourg|Greece|Greenland|Grenada|Guadeloupe|Guam|' +
  'Guatemala|Guernsey|Guinea|Guinea-Bissau|Guyana|Haiti|Hashemite Kingdom of Jordan|' +
  'Heard Island and McDonald Islands|Hellenic Republic|Holy See (Vatican City State)|Honduras|Hong Kong|' +
  'Hong Kong Special Administrative Region of China|Hungary|Iceland|Independent State of Papua New Guinea|' +
  'Independent State of Samoa|India|Indonesia|Iran|Iraq|Ireland|Islamic Republic of Afghanistan|' +
  'Islamic Republic of Iran|Islamic Republic of Mauritania|Islamic Republic of Pakistan|Isle of Man|Israel|' +
  'Italian Republic|Italy|Jamaica|Japan|Jersey|Jordan|Kazakhstan|Kenya|Kingdom of Bahrain|Kingdom of Belgium|' +
  'Kingdom of Bhutan|Kingdom of Cambodia|Kingdom of Denmark|Kingdom of Eswatini|Kingdom of Lesotho|' +
  'Kingdom of Morocco|Kingdom of Norway|Kingdom of Saudi Arabia|Kingdom of Spain|Kingdom of Sweden|' +
  'Kingdom of Thailand|Kingdom of Tonga|Kingdom of the Netherlands|Kiribati|Kuwait|Kyrgyz Republic|Kyrgyzstan|' +
  "Lao People's Democratic Republic|Laos|Latvia|Lebanese Republic|Lebanon|Lesotho|Liberia|Libya|Liechtenstein|" +
  'Lithuania|Luxembourg|Macao|Macao Special Administrative Region of China|Madagascar|Malawi|Malaysia|Maldives|' +
  'Mali|Malta|Marshall Islands|Martinique|Mauritania|Mauritius|Mayotte|Mexico|Moldova|Monaco|Mongolia|' +
  'Montenegro|Montserrat|Morocco|Mozambique|Myanmar|Namibia|Nauru|Nepal|Netherlands|New Caledonia|New Zealand|' +
  'Nicaragua|Niger|Nigeria|Niue|Norfolk Island|North Korea|North Macedonia|Northern Mariana Islands|Norway|' +
  "Oman|Pakistan|Palau|Panama|Papua New Guinea|Paraguay|People's Democratic Republic of Algeria|" +
  "People's Republic of Bangladesh|People's Republic of China|Peru|Philippines|Pitcairn|" +
  'Plurinational State of Bolivia|Poland|Portugal|Portuguese Republic|Principality of Andorra|' +
  'Principality of Liechtenstein|Principality of Monaco|Puerto Rico|Qatar|Republic of Albania|' +
  'Republic of Angola|Republic of Armenia|Republic of Austria|Republic of Azerbaijan|Republic of Belarus|' +
  'Republic of Benin|Republic of Bosnia and Herzegovina|Republic of Botswana|Republic of Bulgaria|' +
  'Republic of Burundi|Republic of Cabo Verde|Republic of Cameroon|Republic of Chad|Republic of Chile|' +
  'Republic of Colombia|Republic of Costa Rica|Republic of Croatia|Republic of Cuba|Republic of Cyprus|' +
  "Republic of Côte d'Ivoire|Republic of Djibouti|Republic of Ecuador|Republic of El Salvador|" +
  'Republic of Equatorial Guinea|Republic of Estonia|Republic of Fiji|Republic of Finland|Republic of Ghana|' +
  'Republic of Guatemala|Republic of Guinea|Republic of Guinea-Bissau|Republic of Guyana|Republic of Haiti|' +
  'Republic of Honduras|Republic of Iceland|Republic of India|Republic of Indonesia|Republic of Iraq|' +
  'Republic of Kazakhstan|Republic of Kenya|Republic of Kiribati|Republic of Latvia|Republic of Liberia|' +
  'Republic of Lithuania|Republic of Madagascar|Republic of Malawi|Republic of Maldives|Republic of Mali|' +
  'Republic of Malta|Republic of Mauritius|Republic of Moldova|Republic of Mozambique|Republic of Myanmar|' +
  'Republic of Namibia|Republic of Nauru|Republic of Nicaragua|Republic of North Macedonia|Republic of Palau|' +
  'Republic of Panama|Republic of Paraguay|Republic of Peru|Republic of Poland|Republic of San Marino|' +
  'Republic of Senegal|Republic of Serbia|Republic of Seychelles|Republic of Sierra Leone|' +
  'Republic of Singapore|Republic of Slovenia|Republic of South Africa|Republic of South Sudan|' +
  'Republic of Suriname|Republic of Tajikistan|Republic of Trinidad and Tobago|Republic of Tunisia|' +
  'Republic of Türkiye|Republic of Uganda|Republic of Uzbekistan|Republic of Vanuatu|Republic of Yemen|' +
  'Republic of Zambia|Republic of Zimbabwe|Republic of the Congo|Republic of the Gambia|' +
  'Republic of the Marshall Islands|Republic of the Niger|Republic of the Philippines|Republic of the Sudan|' +
  'Romania|Russian Federation|Rwanda|Rwandese Republic|Réunion|Saint Barthélemy|Saint Kitts and Nevis|' +
  'Saint Lucia|Saint Martin (French part)|Saint Pierre and Miquelon|Saint Vincent and the Grenadines|Samoa|' +
  'San Marino|Sao Tome and Principe|Saudi Arabia|Senegal|Serbia|Seychelles|Sierra Leone|Singapore|' +
  'Sint Maarten (Dutch part)|Slovak Republic|Slovakia|Slovenia|Socialist Republic of Viet Nam|Solomon Islands|' +
  'Somalia|South Africa|South Georgia and the South Sandwich Islands|South Korea|South Sudan|Spain|Sri Lanka|' +
  'State of Israel|State of Kuwait|State of Qatar|Sudan|Sultanate of Oman|Suriname|Svalbard and Jan Mayen|' +
  'Sweden|Swiss Confederation|Switzerland|Syria|Syrian Arab Republic|Taiwan|Tajikistan|Tanzania|Thailand|' +
  'Timor-Leste|Togo|Togolese Republic|Tokelau|Tonga|Trinidad and Tobago|Tunisia|Turkmenistan|' +
  'Turks and Caicos Islands|Tuvalu|Türkiye|Uganda|Ukraine|Union of the Comoros|United Arab Emirates|' +
  'United Kingdom|United Kingdom of Great Britain and Northern Ireland|United Mexican States|' +
  'United Republic of Tanzania|United States|United States Minor Outlying Islands|United States of America|' +
  'Uruguay|Uzbekistan|Vanuatu|Venezuela|Viet Nam|Vietnam|Virgin Islands of the United States|Wallis and Futuna|' +
  'Western Sahara|Yemen|Zambia|Zimbabwe|the State of Eritrea|the State of Palestine|Åland Islands' +
  // Older and longer forms other lists and generators still write (Faker's en_US country list, for one)
  "|Antarctica (the territory South of 60 deg S)|Bouvet Island (Bouvetoya)|British Indian Ocean Territory (Chagos Archipelago)|Cape Verde|Cote d'Ivoire|Korea|" +
  'Libyan Arab Jamahiriya|Micronesia|Netherlands Antilles|Palestinian Territory|Pitcairn Islands|Reunion|Saint Barthelemy|Saint Helena|Saint Martin|' +
  'Slovakia (Slovak Republic)|Svalbard & Jan Mayen Islands|Swaziland|Turkey|United States Virgin Islands'
).split('|');
