/**
 * The labelled data of the PII benchmark, generated from a fixed seed: sentences that hold one or two values of a
 * type (with the context a person would write around it, and for strong formats often none), look-alike sentences
 * that hold no PII (order numbers, ticket numbers, versions, prices, invoice dates that are dates but not births),
 * and a table whose columns each hold one type (some with telling names, some with neutral ones) or nothing.
 *
 * Names, organizations, places and street addresses come from this file's own lists, not from the engine's
 * gazetteers (some of these first names and most surnames are not in compromise's lexicon). Identifiers with check
 * digits are drawn from a few seed values per type through the engine's pseudonymizer, which keeps them valid.
 */
import { applyAction } from '../../engine/privacy';
import { seeded } from '../support/seeded';

export interface Span {
  type: string;
  start: number;
  end: number;
}
export interface LabelledText {
  text: string;
  spans: Span[];
}
export interface LabelledColumn {
  name: string;
  /** The column's PII type, or null for a column without PII. */
  type: string | null;
  values: string[];
}

const FIRST = [
  'James',
  'Maria',
  'Wei',
  'Aisha',
  'Oliver',
  'Sofia',
  'Mohammed',
  'Emma',
  'Raj',
  'Chloe',
  'Diego',
  'Hannah',
  'Kenji',
  'Fatima',
  'Lucas',
  'Grace',
  'Tomasz',
  'Ingrid',
  'Kwame',
  'Elena',
  'Samuel',
  'Yuki',
  'Priya',
  'Noah',
  'Amara',
  'Liam',
  'Zoe',
  'Mateo',
  'Nadia',
  'Ethan',
  'Siobhan',
  'Arjun',
  'Leila',
  'Henrik',
  'Rosa',
  'Daniel',
  'Mei',
  'Omar',
  'Clara',
  'Victor',
];
const LAST = [
  'Smith',
  'Garcia',
  'Chen',
  'Okafor',
  'Johnson',
  'Rossi',
  'Haddad',
  'Williams',
  'Patel',
  'Dubois',
  'Fernandez',
  'Schmidt',
  'Tanaka',
  'Khan',
  'Silva',
  'Murphy',
  'Kowalski',
  'Larsen',
  'Mensah',
  'Popescu',
  'Brown',
  'Sato',
  'Reddy',
  'Miller',
  'Nwosu',
  'Taylor',
  'Novak',
  'Morales',
  'Aziz',
  'Walker',
  'Byrne',
  'Iyer',
  'Karimi',
  'Nilsson',
  'Costa',
  'Anderson',
  'Wong',
  'Farouk',
  'Becker',
  'Lindqvist',
];
const ORGS = [
  'Northwind Logistics',
  'Acme Corporation',
  'Globex Inc',
  'Initech LLC',
  'Blue Harbor Bank',
  'St. Mary Hospital',
  'Riverside Medical Center',
  'Umbrella Pharmaceuticals',
  'Stark Industries',
  'Wayne Enterprises',
  'Pfizer',
  'Deloitte',
  'Microsoft',
  'Kaiser Permanente',
  'Goldman Sachs',
  'Contoso Ltd',
  'Fabrikam Group',
  'University of Leeds',
  'Red Cross',
  'Tesla',
];
const PLACES = [
  'Chicago',
  'London',
  'Paris',
  'Berlin',
  'Madrid',
  'Toronto',
  'Mumbai',
  'Tokyo',
  'Sydney',
  'Lagos',
  'Nairobi',
  'Boston',
  'Seattle',
  'Dublin',
  'Rome',
  'Mexico',
  'Brazil',
  'Canada',
  'Germany',
  'Kenya',
];
const STREETS = ['Oak', 'Maple', 'Pine', 'Cedar', 'Elm', 'Washington', 'Lake', 'Hill', 'Park', 'Sunset', 'Baker', 'Church', 'Mill', 'River', 'Highland'];
const SUFFIXES = ['Street', 'St', 'Avenue', 'Ave', 'Road', 'Rd', 'Lane', 'Drive', 'Boulevard', 'Court'];
const CITY_STATE = ['Springfield, IL 62704', 'Austin, TX 78701', 'Portland, OR 97205', 'Denver, CO 80202', 'Columbus, OH 43215'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Seed values per type: the generator varies them with the pseudonymizer, which keeps check digits valid. */
const SEEDS: Record<string, string[]> = {
  phone: ['(617) 555-0143', '+44 20 7946 0958', '212-555-0187', '+1 415 555 2671', '+49 30 901820'],
  fax_number: ['(617) 555-0199', '+1 212 555 0100'],
  ssn: ['536-22-8419', '412-55-9081'],
  us_itin: ['912-70-1234', '987-88-4321'],
  us_passport: ['488839667', 'A12345678'],
  us_drivers_license: ['D1234567', 'S53012345'],
  us_ein: ['12-3456789', '45-6789012'],
  uk_nino: ['AB 12 34 56 C', 'JG103759A'],
  uk_nhs: ['943 476 5919', '401 023 2137'],
  uk_driving_licence: ['MORGA657054SM9IJ'],
  ca_sin: ['046 454 286', '130-692-544'],
  in_aadhaar: ['2341 2341 2346', '4991 1866 5246'],
  in_pan: ['ABCPE1234F', 'BNZPM2501F'],
  in_gstin: ['27AAPFU0939F1ZV'],
  fr_insee: ['184057512345625'],
  de_tax_id: ['86095742719'],
  de_id_card: ['T220001293'],
  es_dni: ['12345678Z', '87654321X'],
  es_nie: ['X1234567L', 'Y7654321G'],
  it_fiscal_code: ['RSSMRA85T10A562S'],
  br_cpf: ['123.456.789-09', '987.654.321-00'],
  br_cnpj: ['11.222.333/0001-81'],
  au_tfn: ['123 456 782'],
  au_medicare: ['2123 45670 1'],
  au_abn: ['51 824 753 556'],
  sg_nric: ['S1234567D', 'T0123456G'],
  nl_bsn: ['111222333'],
  se_personnummer: ['811218-9876'],
  pl_pesel: ['44051401359'],
  fi_hetu: ['131052-308T'],
  dk_cpr: ['070761-4285'],
  no_fnr: ['01019012480'],
  be_national_number: ['85.07.30-033.28'],
  ie_pps: ['1234567T'],
  ch_ahv: ['756.1234.5678.97'],
  za_id: ['8801015005088'],
  kr_rrn: ['900101-1234568'],
  jp_my_number: ['1234 5678 9018'],
  cn_resident_id: ['11010519491231002X'],
  mx_curp: ['GODE561231HDFRRN00'],
  credit_card: ['4111 1111 1111 1111', '5555-5555-5555-4444', '378282246310005', '6011111111111117', '4012888888881881'],
  iban: ['DE89 3704 0044 0532 0130 00', 'GB82WEST12345698765432', 'FR1420041010050500013M02606', 'NL91ABNA0417164300', 'ES9121000418450200051332'],
  swift_bic: ['DEUTDEFF', 'BARCGB22', 'BNPAFRPPXXX', 'CHASUS33'],
  aba_routing: ['021000021', '011000015', '122105155'],
  bank_account: ['12345678901', '000123456789'],
  card_expiry: ['09/27', '11/2026'],
  cvv: ['123', '4821'],
  ipv6_address: ['2001:db8:85a3::8a2e:370:7334', 'fe80::1ff:fe23:4567:890a'],
  mac_address: ['00:1A:2B:3C:4D:5E', 'a4-5e-60-c2-19-7f'],
  imei: ['490154203237518', '35-209900-176148-1'],
  medical_record_number: ['00451236', 'MR-7734521'],
  npi: ['1234567893', '1245319599'],
  dea_number: ['AB1234563', 'FM5812347'],
  icd10_code: ['E11.9', 'I10', 'J45.909', 'M54.5'],
  health_plan_id: ['XYZ123456789', 'HPN884422110'],
  us_mbi: ['1EG4-TE5-MK73', '5KQ9HN3RT21'],
  btc_address: ['1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy'],
  eth_address: ['0x52908400098527886E0F7030069857D2E4169EE7', '0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae'],
  // Two North American VINs (their check digit is mandatory) and a European one, which has none ('Z' fillers).
  vin: ['1HGCM82633A004352', '5YJ3E1EA2KF317000', 'WVWZZZ1KZ6W612345'],
  license_plate: ['7ABC123', 'KA 01 AB 1234'],
  uk_postcode: ['SW1A 1AA', 'EC1A 1BB', 'M1 1AE'],
  ca_postal_code: ['K1A 0B1', 'M5V 3L9'],
  de_postal_code: ['10115', '80331'],
  in_pin_code: ['560001', '400 001'],
  br_cep: ['01310-100', '20040-020'],
  nl_postcode: ['1012 AB', '3011 KL'],
  jp_postal_code: ['〒100-0001', '〒530-0001'],
  us_zip_code: ['94105', '10001-1234'],
  unique_identifier: ['3f2504e0-4f89-41d3-9a0c-0305e82c3301'],
  biometric_identifier: ['AAECAwQFBgcICQoLDA0ODw'],
};

/** What people write before a value of each type (weak types always get one; strong ones half the time). */
const CONTEXT: Record<string, string[]> = {
  email: ['email', 'write to', 'contact'],
  phone: ['phone', 'call', 'mobile', 'reach me at'],
  fax_number: ['fax', 'fax number'],
  ssn: ['SSN', 'social security number'],
  us_itin: ['ITIN', 'taxpayer ID'],
  us_passport: ['passport number', 'passport no.'],
  us_drivers_license: ["driver's license", 'DL #'],
  us_ein: ['EIN', 'employer identification number'],
  uk_nino: ['National Insurance number', 'NINO'],
  uk_nhs: ['NHS number'],
  uk_driving_licence: ['driving licence'],
  ca_sin: ['SIN', 'social insurance number'],
  in_aadhaar: ['Aadhaar', 'Aadhaar number'],
  in_pan: ['PAN', 'PAN card'],
  in_gstin: ['GSTIN'],
  fr_insee: ['numéro INSEE', 'NIR'],
  de_tax_id: ['Steuer-ID', 'Steueridentifikationsnummer'],
  de_id_card: ['Personalausweis'],
  es_dni: ['DNI'],
  es_nie: ['NIE'],
  it_fiscal_code: ['codice fiscale'],
  br_cpf: ['CPF'],
  br_cnpj: ['CNPJ'],
  au_tfn: ['TFN', 'tax file number'],
  au_medicare: ['Medicare number'],
  au_abn: ['ABN'],
  sg_nric: ['NRIC'],
  nl_bsn: ['BSN', 'burgerservicenummer'],
  se_personnummer: ['personnummer'],
  pl_pesel: ['PESEL'],
  fi_hetu: ['HETU', 'henkilötunnus'],
  dk_cpr: ['CPR-nummer', 'CPR'],
  no_fnr: ['fødselsnummer'],
  be_national_number: ['rijksregisternummer'],
  ie_pps: ['PPS number'],
  ch_ahv: ['AHV-Nummer'],
  za_id: ['ID number'],
  kr_rrn: ['RRN', 'resident registration number'],
  jp_my_number: ['My Number'],
  cn_resident_id: ['resident identity card'],
  mx_curp: ['CURP'],
  credit_card: ['card', 'credit card', 'paid with'],
  iban: ['IBAN', 'bank account'],
  swift_bic: ['SWIFT', 'BIC'],
  aba_routing: ['routing number', 'ABA'],
  bank_account: ['account number', 'acct'],
  card_expiry: ['expiry', 'exp'],
  cvv: ['CVV', 'security code'],
  ip_address: ['IP', 'from IP address'],
  ipv6_address: ['IPv6 address'],
  mac_address: ['MAC address'],
  imei: ['IMEI'],
  url: ['link', 'see'],
  domain_name: ['domain', 'website'],
  user_agent: ['user agent', 'browser'],
  medical_record_number: ['MRN', 'medical record number'],
  npi: ['NPI', 'provider NPI'],
  dea_number: ['DEA number', 'DEA'],
  icd10_code: ['diagnosis code', 'ICD-10'],
  health_plan_id: ['member ID', 'health plan ID'],
  us_mbi: ['Medicare MBI', 'MBI'],
  btc_address: ['bitcoin wallet', 'BTC address'],
  eth_address: ['ETH wallet', 'ethereum address'],
  vin: ['VIN', 'vehicle identification number'],
  license_plate: ['license plate', 'plate'],
  coordinates: ['GPS', 'coordinates'],
  us_zip_code: ['ZIP code', 'zip'],
  uk_postcode: ['postcode'],
  ca_postal_code: ['postal code'],
  de_postal_code: ['PLZ'],
  in_pin_code: ['PIN code'],
  br_cep: ['CEP'],
  nl_postcode: ['postcode'],
  jp_postal_code: ['postal code'],
  date_of_birth: ['date of birth', 'DOB', 'born on'],
  date: ['on', 'dated'],
  age: [],
  name: ['patient', 'signed by', 'contact'],
  organization: ['employer', 'works at'],
  location: ['lives in', 'moved to'],
  address: ['address', 'lives at'],
  username: ['username', 'login'],
  password: ['password'],
  biometric_identifier: ['fingerprint template'],
  photo: ['photo', 'patient photo'],
  unique_identifier: ['patient id', 'customer id'],
  nrp: ['religion:', 'nationality:'],
};

/** Types whose values a person writes with no context at all often enough (strong formats). */
const STANDALONE = new Set([
  'email',
  'phone',
  'credit_card',
  'iban',
  'ip_address',
  'ipv6_address',
  'mac_address',
  'url',
  'user_agent',
  'btc_address',
  'eth_address',
  'name',
  'organization',
  'location',
  'address',
  'date',
  'it_fiscal_code',
  'mx_curp',
  'cn_resident_id',
  'uk_nino',
  'vin',
]);

const SENTENCES = [
  (c: string, v: string) => `Please update the record: ${c} ${v}.`,
  (c: string, v: string) => `The form lists ${c} ${v} and was received on Monday.`,
  (c: string, v: string) => `${cap(c)} ${v} was verified by the front desk.`,
  (c: string, v: string) => `As discussed, the ${c} is ${v}; let me know if anything changes.`,
  (c: string, v: string) => `Note from intake – ${c}: ${v}`,
];
const BARE = [(v: string) => `Forwarded: ${v}.`, (v: string) => `It says ${v} in the attachment.`, (v: string) => `Copied ${v} into the ticket yesterday.`];

const cap = (s: string): string => (s ? s[0].toUpperCase() + s.slice(1) : s);

export class Generator {
  private readonly rnd: () => number;
  private counter = 0;

  constructor(seed: number) {
    this.rnd = seeded(seed);
  }

  pick<T>(a: readonly T[]): T {
    return a[Math.floor(this.rnd() * a.length)];
  }

  int(lo: number, hi: number): number {
    return lo + Math.floor(this.rnd() * (hi - lo + 1));
  }

  /** A realistic value of a type. */
  value(type: string): string {
    const d = (): { y: number; m: number; day: number } => ({ y: this.int(1940, 2005), m: this.int(1, 12), day: this.int(1, 28) });
    const fmtDate = ({ y, m, day }: { y: number; m: number; day: number }): string => {
      const p = (n: number): string => String(n).padStart(2, '0');
      return this.pick([`${y}-${p(m)}-${p(day)}`, `${p(m)}/${p(day)}/${y}`, `${MONTHS[m - 1]} ${day}, ${y}`, `${day} ${MONTHS[m - 1]} ${y}`]);
    };
    switch (type) {
      case 'name':
        return this.rnd() < 0.15 ? `${this.pick(['Dr.', 'Mr.', 'Ms.', 'Mrs.'])} ${this.pick(LAST)}` : `${this.pick(FIRST)} ${this.pick(LAST)}`;
      case 'email':
        return `${this.pick(FIRST).toLowerCase()}${this.pick(['.', '_', ''])}${this.pick(LAST).toLowerCase()}${this.rnd() < 0.3 ? this.int(1, 99) : ''}@${this.pick(['gmail.com', 'example.org', 'acme-health.com', 'mail.co.uk', 'outlook.com'])}`;
      case 'organization':
        return this.pick(ORGS);
      case 'location':
        return this.pick(PLACES);
      case 'address':
        return `${this.int(1, 9999)} ${this.pick(STREETS)} ${this.pick(SUFFIXES)}${this.rnd() < 0.5 ? ', ' + this.pick(CITY_STATE) : ''}`;
      case 'date':
        return fmtDate({ y: this.int(2015, 2025), m: this.int(1, 12), day: this.int(1, 28) });
      case 'date_of_birth':
        return fmtDate(d());
      case 'age':
        return String(this.int(18, 95));
      case 'ip_address':
        return `${this.int(1, 223)}.${this.int(0, 255)}.${this.int(0, 255)}.${this.int(1, 254)}`;
      case 'coordinates':
        return `${(this.rnd() * 140 - 70).toFixed(6)}, ${(this.rnd() * 340 - 170).toFixed(6)}`;
      case 'url':
        return `https://${this.pick(['portal.example.com', 'www.acme-health.com', 'shop.example.org'])}/${this.pick(['profile', 'orders', 'u'])}/${this.int(100, 99999)}`;
      case 'domain_name':
        return `${this.pick(['acme-health', 'northwind', 'globex', 'myclinic', 'smithfamily'])}.${this.pick(['com', 'org', 'net', 'io'])}`;
      case 'user_agent':
        return this.pick([
          'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
          'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1',
          'curl/8.4.0',
        ]);
      case 'photo':
        return `${this.pick(FIRST).toLowerCase()}_${this.pick(['face', 'headshot', 'id'])}${this.int(1, 99)}.${this.pick(['jpg', 'png', 'heic'])}`;
      case 'password':
        return `${this.pick(['Tr0ub4dor', 'hunter', 'Summer', 'p@ss', 'Winter'])}${this.int(1, 9999)}${this.pick(['!', '#', '&', '$', ''])}`;
      case 'username':
        return `${this.pick(FIRST).toLowerCase()}_${this.int(1, 999)}`;
      case 'title':
        return this.pick(['Dr.', 'Mrs.', 'Prof.', 'Ms.', 'Chief Financial Officer', 'Head of Marketing', 'Sir']);
      case 'nrp':
        return this.pick(['Catholic', 'Muslim', 'Jewish', 'Hindu', 'Buddhist', 'Mexican', 'Nigerian', 'Irish', 'Republican', 'Democrat']);
      default: {
        const seeds = SEEDS[type];
        if (!seeds) throw new Error(`no generator for ${type}`);
        const seed = this.pick(seeds);
        if (this.rnd() < 0.2) return seed;
        return applyAction('pseudonymize', seed, type, {}, { hmacSecret: `bench-${this.counter++}` }).value as string;
      }
    }
  }

  /** A sentence with one value of the type, and its span. */
  sentence(type: string): LabelledText {
    const v = this.value(type);
    const ctx = CONTEXT[type] ?? [];
    let text: string;
    if (type === 'age') {
      text = this.pick([`The patient is ${v} years old.`, `Age: ${v}`, `A ${v}-year-old man was admitted.`, `She turned ${v} years old last week.`]);
    } else if (ctx.length === 0 || (STANDALONE.has(type) && this.rnd() < 0.5)) {
      text = this.pick(BARE)(v);
    } else {
      text = this.pick(SENTENCES)(this.pick(ctx), v);
    }
    const start = text.indexOf(v);
    return { text, spans: [{ type, start, end: start + v.length }] };
  }

  /** Sentences that hold look-alikes of PII and no PII (invoice dates are dates, not dates of birth). */
  negative(): LabelledText {
    const digits = (n: number): string => Array.from({ length: n }, () => this.int(0, 9)).join('');
    const invoiceDate = `2024-${String(this.int(1, 12)).padStart(2, '0')}-${String(this.int(1, 28)).padStart(2, '0')}`;
    const options: (() => LabelledText)[] = [
      () => ({ text: `Order number ${digits(16)} has shipped.`, spans: [] }),
      () => ({ text: `Tracking ${digits(12)} is out for delivery.`, spans: [] }),
      () => ({ text: `Ticket ${digits(9)} was closed by support.`, spans: [] }),
      () => ({ text: `Upgrade to version ${this.int(1, 9)}.${this.int(0, 20)}.${this.int(0, 50)} before Friday.`, spans: [] }),
      () => ({ text: `The total was $${this.int(10, 999)}.${digits(2)} for ${this.int(2, 40)} items.`, spans: [] }),
      () => ({ text: `Room ${this.int(100, 999)} is booked from ${this.int(9, 11)}:00 to ${this.int(12, 17)}:30.`, spans: [] }),
      () => ({ text: `SKU-${digits(6)} is back in stock, batch ${digits(5)}.`, spans: [] }),
      () => ({ text: `Quarterly revenue grew ${this.int(2, 30)} percent on higher volume.`, spans: [] }),
      () => ({ text: `Reference ${digits(10)} was attached to the claim.`, spans: [] }),
      () => {
        const text = `Invoice dated ${invoiceDate} was paid in full.`;
        const start = text.indexOf(invoiceDate);
        return { text, spans: [{ type: 'date', start, end: start + invoiceDate.length }] };
      },
    ];
    return this.pick(options)();
  }

  /** Two typed sentences joined, for texts holding more than one entity. */
  pair(a: string, b: string): LabelledText {
    const x = this.sentence(a);
    const y = this.sentence(b);
    const offset = x.text.length + 1;
    return { text: `${x.text} ${y.text}`, spans: [...x.spans, ...y.spans.map((s) => ({ ...s, start: s.start + offset, end: s.end + offset }))] };
  }
}

/** The free-text set: `perType` sentences for each type, pairs across types, and look-alike negatives. */
export function labelledTexts(types: readonly string[], perType: number, negatives: number, seed = 20240601): LabelledText[] {
  const g = new Generator(seed);
  const out: LabelledText[] = [];
  for (const t of types) for (let i = 0; i < perType; i++) out.push(i % 3 === 2 ? g.pair(t, g.pick(types)) : g.sentence(t));
  for (let i = 0; i < negatives; i++) out.push(g.negative());
  return out;
}

/** Column names per type: one that tells, one that does not. */
const COLUMN_NAMES: Record<string, [string, string]> = {
  name: ['patient_name', 'field_a'],
  email: ['email', 'contact'],
  phone: ['phone_number', 'c3'],
  ssn: ['ssn', 'tax_ref'],
  credit_card: ['card_number', 'pmt'],
  iban: ['iban', 'acct_ref'],
  date_of_birth: ['dob', 'd1'],
  date: ['visit_date', 'd2'],
  ip_address: ['client_ip', 'src'],
  address: ['home_address', 'addr_line'],
  medical_record_number: ['mrn', 'record'],
  us_zip_code: ['zip', 'z'],
  age: ['age', 'years'],
  uk_nhs: ['nhs_number', 'hs_ref'],
  in_aadhaar: ['aadhaar', 'uid_ref'],
  br_cpf: ['cpf', 'doc'],
  vin: ['vin', 'vehicle'],
  mac_address: ['mac', 'hw'],
  organization: ['employer', 'org_ref'],
  location: ['city', 'place_ref'],
  npi: ['npi', 'prov'],
  url: ['website', 'link_ref'],
  btc_address: ['btc_wallet', 'w'],
  es_dni: ['dni', 'doc_es'],
  sg_nric: ['nric', 'doc_sg'],
  coordinates: ['gps', 'pos'],
};

/** The table: each PII type twice (telling and neutral column names) and look-alike columns without PII. */
export function labelledTable(rows: number, seed = 777): LabelledColumn[] {
  const g = new Generator(seed);
  const cols: LabelledColumn[] = [];
  for (const [type, names] of Object.entries(COLUMN_NAMES)) {
    for (const name of names) {
      // Weak types carry no evidence of their own without a column name: they are only labelled under the telling one.
      const weak = ['medical_record_number', 'us_zip_code', 'age', 'npi', 'date_of_birth'].includes(type);
      // A neutral column of birth dates is still a column of dates.
      const neutralType = type === 'date_of_birth' ? 'date' : weak ? null : type;
      cols.push({ name, type: name === names[1] ? neutralType : type, values: Array.from({ length: rows }, () => g.value(type)) });
    }
  }
  const digits = (n: number): string => Array.from({ length: n }, () => g.int(0, 9)).join('');
  cols.push({ name: 'order_id', type: null, values: Array.from({ length: rows }, () => digits(16)) });
  cols.push({ name: 'amount', type: null, values: Array.from({ length: rows }, () => `${g.int(1, 999)}.${digits(2)}`) });
  cols.push({ name: 'sku', type: null, values: Array.from({ length: rows }, () => `SKU-${digits(6)}`) });
  cols.push({ name: 'status', type: null, values: Array.from({ length: rows }, () => g.pick(['Open', 'Closed', 'Pending Review', 'Shipped'])) });
  cols.push({ name: 'quantity', type: null, values: Array.from({ length: rows }, () => String(g.int(1, 500))) });
  cols.push({ name: 'comment', type: null, values: Array.from({ length: rows }, () => g.pick(['Looks good', 'Needs a second review', 'Delivered on time', 'Customer asked for a refund'])) });
  return cols;
}
