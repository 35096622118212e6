/**
 * International values from a third-party generator: Faker's names, street addresses, phone numbers, companies and
 * cities in the formats of 16 locales (EU, UK, US, Canada, Australia, Latin America), card numbers, job titles,
 * countries and ages, placed in a few plain carrier sentences written here, one to three values each. Ours and
 * Presidio in the same run.
 *
 *   ~/.cache/mlsvc/venv-pii/bin/pip install faker   # once
 *   node .build-pii/bench/pii/faker-bench.js [PER_LOCALE=25] [SEED=20261128] [first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth]   # → bench/results/pii-faker.json
 *
 * Per type: spans found (at least half of a value's non-space characters inside a detection of any type), spans found
 * as their type, and the share of the value characters redacted; over all types, the span F1 of exact boundaries. The carriers hold no other personal data, so a
 * detection of a judged type outside the values is a false positive (char precision). The sentences are the
 * project's; the values are not, and they are what the recognizers must generalise to.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { detectText } from '../../engine/privacy';
import { runPresidio } from './presidio';

interface Row {
  locale: string;
  name: string;
  address: string;
  phone: string;
  company: string;
  card: string;
  job: string;
  city: string;
  country: string;
  age: string;
  first: string;
  last: string;
  prefix: string;
  nationality: string;
}
/** `name_lower`, `name_upper` and `first_lower` are the row's name re-cased, as people type them; `first_last` a name without an honorific. */
type Slot =
  | 'name'
  | 'address'
  | 'address_block'
  | 'phone'
  | 'company'
  | 'card'
  | 'job'
  | 'city'
  | 'country'
  | 'age'
  | 'first'
  | 'last'
  | 'prefix'
  | 'name_lower'
  | 'name_upper'
  | 'first_lower'
  | 'first_last'
  | 'nationality'
  | 'company_lower';
/** The gold type of each slot. */
const TYPE_OF: Record<Slot, string> = {
  name: 'name',
  address: 'address',
  address_block: 'address',
  phone: 'phone',
  company: 'organization',
  card: 'credit_card',
  job: 'title',
  city: 'location',
  country: 'location',
  age: 'age',
  first: 'name',
  last: 'name',
  prefix: 'title',
  name_lower: 'name',
  name_upper: 'name',
  first_lower: 'name',
  first_last: 'name',
  nationality: 'nrp',
  company_lower: 'organization',
};

function slotValue(row: Row, slot: Slot): string {
  switch (slot) {
    // An address inline is written on one line, its lines joined by commas; as a block it keeps its lines.
    case 'address':
      return row.address.split('\n').join(', ');
    case 'address_block':
      return row.address;
    case 'name_lower':
      return row.name.toLowerCase();
    case 'name_upper':
      return row.name.toUpperCase();
    case 'first_lower':
      return row.first.toLowerCase();
    case 'first_last':
      return `${row.first} ${row.last}`;
    case 'company_lower':
      return row.company.toLowerCase();
    default:
      return row[slot];
  }
}

/** Carrier sentences: `{slot}` is replaced by the row's value. */
const CARRIERS = [
  '{name} moved to {address} last spring.',
  'Please call {name} on {phone} before Friday.',
  '{name}, {job} at {company}, signed the contract yesterday.',
  'Ship to:\n{name}\n{address_block}',
  'Our office is at {address}; it opens at nine.',
  'The card {card} was declined, so the customer rang us from {phone}.',
  'Invoice for {company}, attention of {name}.',
  'New contact: {phone} (mobile).',
  '{name} was born in {city} and now lives in {country}.',
  '{name}, aged {age}, flew from {city} to {country} on Tuesday.',
];

/**
 * A second set of carriers, written on 2026-11-28 after the fourth pass of the engine and before any run on them:
 * `faker-bench.js PER_LOCALE SEED second` scores the same values in sentences the engine was not tuned on.
 */
const SECOND_CARRIERS = [
  'Hello {name}, thanks for your order.',
  '{name} turned {age} on Sunday and celebrated in {city}.',
  'Her phone is {phone}, call after six.',
  'Payment by card {card} failed twice.',
  'She has been a {job} for years.',
  '{company} hired {name} last month.',
  'Visiting {country} next week, {name} asked for advice.',
  'The parcel for {name} goes to {address}.',
  'I live at {address} with my family.',
  'Our new {job}, {name}, starts Monday.',
  'Reach us at {phone} or write to {company}.',
  'Deliver to:\n{name}\n{address_block}',
];

/**
 * A third set, written on 2026-11-28 after the second set had been read and the engine changed on it: the held-out
 * carriers of that change (`… SEED third`).
 */
const THIRD_CARRIERS = [
  'Thanks, {name}! Your table is booked.',
  'Message from {phone}: running late.',
  'The new hire, {name}, is a {job}.',
  'Billing address: {address}',
  'Card {card} was charged twice.',
  '{name} ({age}) from {city} won the prize.',
  'Flights to {country} are cancelled, {name} said.',
  'Contract between {company} and {name}.',
  'Per {name}, the {job} role is filled.',
  'Office:\n{address_block}',
  'Questions? Ring {phone} or write to the team at {company}.',
  'I grew up in {city} but moved to {country} at {age}.',
];

/**
 * A fourth set, written on 2026-11-29 before any run on it, with the forms the first three lack: honorifics and
 * surnames alone, first names alone, names in lower and upper case, values in lists and after colons, an address and
 * a phone in one line (`… SEED fourth`).
 */
const FOURTH_CARRIERS = [
  'Dear {prefix} {last}, your appointment is confirmed.',
  'my name is {name_lower} and i need help with my account',
  'CONTACT {name_upper} ON {phone} FOR DETAILS.',
  '{name} works for {company} in {city}, {country}.',
  'Please send the invoice to {company}, {address}.',
  'Is {card} your card, {first}?',
  'We met {name}, a {age}-year-old {job}, at the fair.',
  'Name: {name}\nPhone: {phone}\nAddress: {address}',
  'According to {prefix} {last} of {company}, the deal is off.',
  '{first} from {city} says hi!',
  'Please update my address to {address}. Thanks, {name}',
  'i ran into {first_lower} at the station in {city} yesterday',
  'Emergency contact: {name} ({phone}), {country}',
  'The {job} we hired, {first_last}, is {age}.',
];

/**
 * A fifth set, written on 2026-11-29 after the fifth pass and before any run on it, with nationalities (mimesis's
 * demonyms: `pip install mimesis`), a name in capitals over an address block, and a firm in lower case (`… SEED fifth`).
 */
const FIFTH_CARRIERS = [
  'As a {nationality} citizen, {name} needs a visa.',
  '{name} is {nationality} and lives in {city}.',
  'Patient: {name}, {age}, {nationality}.',
  'Hi, I am {first}, a {job} from {country}.',
  'The card on file, {card}, belongs to {name}.',
  '{company} ({city}) has appointed {name} as {job}.',
  'Address for correspondence: {address}.',
  '{name} ({nationality}, {age}) was elected chair.',
  'Sent from the {company} office in {city}, {country}.',
  '{name_upper}\n{address_block}',
  'we spoke to {name_lower} from {company_lower} about the refund',
  'Text {first} on {phone} when you land in {city}.',
  'Our {nationality} colleague {prefix} {last} starts on Monday.',
  'Guest list: {name}; {first_last}; {prefix} {last}.',
];

/**
 * A sixth set, written on 2026-11-29 after the seventh pass and before any run on it, to measure that pass on
 * sentences no change was made for; not to be tuned on (`… SEED sixth`).
 */
const SIXTH_CARRIERS = [
  'Ticket #4411 was opened by {name} from {company}.',
  'Can someone call {first} back at {phone}?',
  '{prefix} {last} ({age}) lives at {address}.',
  'Shipping label:\n{name_upper}\n{address_block}',
  '{nationality} national {name} was hired as a {job}.',
  'Refund card {card} for {first_last} please.',
  'On behalf of {company}, {name} signed the lease in {city}.',
  'hey its {first_lower}, moved to {country} last year lol',
  'Speaker: {prefix} {last}, {job}, {company}',
  'The {nationality} team, led by {name}, arrives in {city} on Friday.',
  'Our records show {name} is {age} and works in {city}.',
  'Please forward this to {name} at {company}, {address}.',
  'Contact: {phone} / {name}',
  '{country} has granted {first_last} citizenship.',
];

/**
 * A seventh set, written on 2026-11-29 (the morning session) before any run on it: letters, forms and notes with an
 * age said in a phrase, a card to charge, an emergency contact, a capitals line with a phone (`… SEED seventh`).
 */
const SEVENTH_CARRIERS = [
  'Dear {prefix} {last},\nThank you for your order. We will ship it to {address}.',
  'Emergency contact: {name} (mother), {phone}',
  '{first} just turned {age} and is still working as a {job}.',
  'Invoice addressed to {company}, attn. {name},\n{address_block}',
  'Is {city} far from where {first_lower} lives?',
  'The witness, a {age}-year-old {nationality} {job}, identified {name}.',
  '{name_upper} - {phone} - {city}',
  'Please charge {card} and email the receipt to {first_last}.',
  'Born in {country}, {name} moved to {city} at the age of {age}.',
  'Minutes: {first_last} ({company}) and {prefix} {last} agreed to meet in {city}.',
  '{company_lower} sent {first_lower} a letter at {address}',
  'My neighbour {first} is {nationality} and works for {company}.',
  'Re: claim for {name}, age {age}, tel {phone}',
  'Delivery failed at {address}; {first_last} was not home.',
];

/**
 * An eighth set, written on 2026-11-29 before the eighth pass was measured and before any run on it, to measure that
 * pass on sentences it was not made for: chat, records, signatures (`… SEED eighth`).
 */
const EIGHTH_CARRIERS = [
  'hi {first_lower}, can u send the invoice to {company} by friday?',
  'Employee record: {name_upper}, born in {country}, job: {job}.',
  'Patient {first_last}, {age}, {nationality}, was admitted from {city}.',
  '{prefix} {last} will be replaced by {first_last} at {company}.',
  'Send the parcel c/o {name}, {address}.',
  'Call me on {phone} or drop by {address}.',
  'Card: {card}. Holder: {name}.',
  '{name} and {first_last} both work in {city} for {company}.',
  'Our {job}, {name}, is {age} years old and {nationality}.',
  'The office in {city} ({country}) is run by {prefix} {last}.',
  'Re: {company_lower} / {name_lower}',
  'From {city} with love, {first}',
  'Reference: {first_last}, {job} at {company}, {phone}',
  '{name_upper}\n{job}\n{company}\n{address_block}',
];

/**
 * A ninth set, written on 2026-11-29 before the ninth pass and before any run on it, to measure that pass on
 * sentences it was not made for: notices, messages and forms (`… SEED ninth`).
 */
const NINTH_CARRIERS = [
  'NOTICE: {name_upper} of {address} owes {company} a balance.',
  'Thanks {first}! Say hi to everyone in {city}.',
  'Applicant: {first_last}\nNationality: {nationality}\nAge: {age}\nPhone: {phone}',
  '{first_last} ({job}) transferred from {company} to the {city} branch.',
  'I met {name_lower} in {country} years ago.',
  'Deliver to: {name}, {address_block}',
  'The {job} ({first_last}, {age}) reported the incident.',
  '{company} hired {prefix} {last} last week.',
  'Please update the card on file to {card} for {first}.',
  'We are {nationality} and live near {city}.',
  'Witness statement of {name}, {job}, {company}.',
  '{first} moved from {city} to {country} with {name}.',
  'Contact {prefix} {last} at {phone} (office) for details.',
  'ok so {first_lower} from {company_lower} called again',
];

/**
 * A tenth set, written on 2026-11-29 (the session after the ninth pass) before any change of that session was
 * measured on it: bookings, tickets, bios, reviews and legal lines (`… SEED tenth`).
 */
const TENTH_CARRIERS = [
  'Booking confirmed for {name} at the {company} hotel in {city}.',
  'Ticket #4471 opened by {first_lower}: cannot log in, call back on {phone}.',
  '{first_last} is a {nationality} {job} based in {city}, {country}.',
  'Great service from {first} at {company}, would recommend!',
  'Tenant: {name_upper}\nProperty: {address_block}',
  'The claimant, {prefix} {last}, aged {age}, resides at {address}.',
  'sent {card} to pay for {first}s flight lol',
  'Speakers include {name} ({company}) and {first_last}, a {job} from {country}.',
  'Ask for {first} when you get to {address}.',
  '{name_lower} - {job} - {phone}',
  'Our {nationality} colleague {first_last} turns {age} today.',
  'Transfer approved: {company_lower} to {name}.',
  'Lost wallet near {city}; owner {first_last}, {phone}.',
  'Signed, {prefix} {last}\n{job}, {company}',
];

/**
 * An eleventh set, written on 2026-11-29 after the tenth set's per-type figures were read and before any change they
 * prompted: clinic notes, HR mail, shipping labels, school forms, listings and chat (`… SEED eleventh`).
 */
const ELEVENTH_CARRIERS = [
  'Seen today: {first_last} ({age}), referred by {prefix} {last} of {company}.',
  'Hi all, please welcome {first}, our new {job} in the {city} office!',
  'SHIP TO\n{name_upper}\n{address_block}\nTEL {phone}',
  'Parent/guardian: {name}; mobile {phone}; nationality {nationality}.',
  'For sale by owner, ask for {first} on {phone}, viewing in {city}.',
  '{first_lower}: r u still at {company_lower}?? lol',
  'Police were called to {address} where {first_last}, {age}, was found.',
  'The account of {name} ({card}) was closed by {company}.',
  'As discussed, {first_last} will join {company} as {job} from May.',
  '{last}, {first} - {country} - {phone}',
  '{nationality} {job} {name} wins award in {city}',
  'Return address: {company}, {address}',
  'We visited {country} and met {name_lower} there.',
  'Statement by {prefix} {last}, {job} at {company}, {city}.',
];

/**
 * A twelfth set, written on 2026-11-29 after the eleventh set's per-type figures were read and before the changes
 * they prompted: newsletters, minutes, incident logs, classifieds, travel and directory lines (`… SEED twelfth`).
 */
const TWELFTH_CARRIERS = [
  'In this issue: {first_last} on life as a {job} in {city}.',
  'Present: {name}, {prefix} {last} ({company}); apologies from {first}.',
  '14:32 caller {first_lower} reported a fire at {address}, callback {phone}',
  'Room to let near {city}. Contact {first} ({phone}).',
  '{name} flew from {city} to {country} on business for {company}.',
  'Directory: {last}, {first} | {job} | {phone}',
  'Congratulations to {first_last}, {age}, our {nationality} champion!',
  'Card ending {card} belongs to {name_lower}.',
  '{company} is hiring a {job} in {city}.',
  'From: {first_last}\nTo: {company_lower}\nRe: the {city} account',
  'The {nationality} delegation, led by {prefix} {last}, arrived in {city}.',
  '{first} and {first_last} moved to {address_block}',
  'Guest speaker {name}, {job}, {company}',
  'i think {first_lower} is {age} or something',
];

/**
 * A thirteenth set, written on 2026-11-29 at the end of the session that wrote the tenth to twelfth, before any change
 * of a later session: references, tenancy, sports, alumni notes, customs forms and voice-mail transcripts
 * (`… SEED thirteenth`). Nothing was run on it when it was written.
 */
const THIRTEENTH_CARRIERS = [
  'I have known {first_last} for six years as a colleague at {company}.',
  'Landlord: {company}. Tenant: {name}, {nationality}, aged {age}.',
  '{first_last} scored twice as {city} beat {country}.',
  'Class of 2009: {name_lower} now works in {city} as a {job}.',
  'Declared by {name_upper}, {address}, passport country {country}.',
  'hey its {first_lower} again, call me back on {phone} thx',
  'Refund of {card} approved for {prefix} {last}.',
  '{job} {first_last} ({company}) will chair the session.',
  'Our family moved from {country} to {city} when {first} was {age}.',
  'Mailing list: {name}; {address_block}',
  'Reviewed by {first_last}, {job}, on behalf of {company_lower}.',
  '{first}, a {nationality} student, rents a room in {city}.',
  'URGENT: {company} owes {first_last} three months of pay.',
  'met {first_lower} and {name_lower} at the {city} marathon',
];

/**
 * A fourteenth set, written on 2026-11-29 in the session after the thirteenth was first measured, after that session's
 * first changes and before any later one: insurance claims, dating profiles, hotel registers, court lists, game chat,
 * police logs, recruiter mail, delivery notes, referrals, tax forms (`… SEED fourteenth`). Nothing was run on it when
 * it was written; the session measured it once, at its end.
 */
const FOURTEENTH_CARRIERS = [
  'Claim 88213: policyholder {name} ({age}) reports water damage at {address}.',
  'about me: {first_lower}, {age}, {nationality}, into hiking around {city}',
  'Guest register - {name_upper} - {country} - room 214',
  'R v {first_last}: listed for hearing, counsel instructed by {company}.',
  'gg {first_lower} u carried us lol',
  'Officers attended {address} after {first_last} called {phone}.',
  'Hi {first}, I recruit for {company} and think you would be a great {job}.',
  'Deliver to {name}, {address_block}',
  'Referred by {prefix} {last} of {company} for a second opinion.',
  'Taxpayer: {first_last}; Occupation: {job}; Card on file: {card}',
  "{first_last}'s sister moved to {country} last year.",
  'Thank you, {name}, for your gift to the {city} food bank.',
  '{nationality} chef {first_last} opens her second restaurant in {city}.',
  'spoke to {name_lower} from {company_lower} re the invoice, she was fine',
];

/**
 * A fifteenth set, written on 2026-11-29 at the start of the session after the fourteenth's, before any change of that
 * session and before the fourteenth was run again: obituaries, conference badges, flight manifests, lab reports,
 * sublets, parking notices, volunteer rosters, bank transfers, emergency contacts, school reports, wedding notices,
 * chat (`… SEED fifteenth`).
 */
const FIFTEENTH_CARRIERS = [
  '{first_last}, {age}, of {city}, died peacefully on Tuesday; donations to {company}.',
  'BADGE: {name_upper} | {job} | {company}',
  'Passenger {last}/{first} {prefix}, seat 14C, nationality {nationality}.',
  'Specimen collected from {name} by {prefix} {last}; report sent to {address}.',
  'subletting my room in {city} for june, dm {first_lower} or text {phone}',
  'Penalty notice issued to the keeper at {address_block}',
  'Volunteers this week: {first_last}, {name}, and {first_lower}.',
  'Transfer of 250 EUR from {card} to {company}, ref {last}.',
  'Emergency contact: {name} (mother), {phone}, lives in {country}.',
  'Report for {first}: works hard; her {nationality} classmates elected her captain.',
  'The wedding of {first_last} and {name} will take place in {city}, {country}.',
  'lol {name_lower} just got hired as a {job} at {company_lower}',
  'Our new {job}, {first_last} ({age}), joins from {company} next month.',
  'Sender: {company}, {address}. Recipient: {prefix} {first_last}.',
];

/**
 * A sixteenth set, written on 2026-11-29 late in the session that wrote the fifteenth, after all of that session's
 * changes and before any build ran on it: the held-out check of those changes (`… SEED sixteenth`). Scholarship
 * letters, car hire, lost property, pharmacy labels, choir rotas, alumni chat, visa letters, gym sign-ups, press
 * releases, complaint forms, shift swaps, tenancy renewals, condolence notes, quiz results.
 */
const SIXTEENTH_CARRIERS = [
  'To whom it may concern: {first_last} ({nationality}) has been offered a place to study in {city}.',
  'Vehicle hired by {name} on licence from {country}; additional driver {first_lower}.',
  'Found on the 08:12 from {city}: a wallet belonging to {name_upper}, call {phone}.',
  'Dispense to {prefix} {last}, aged {age}. Prescriber: {first_last}, {company}.',
  'choir rota this sunday: {first_lower}, {name_lower} and me',
  'omg {first_lower} from school is a {job} now?? at {company_lower}??',
  'The embassy in {city} confirms that {name}, {job}, may travel to {country}.',
  'New member: {first_last} | {age} | {address}',
  '{company} announced today that {first_last} will lead its office in {city}.',
  'Complaint #5512 from {name} ({phone}) about card {card}.',
  'Can {first} swap shifts with {first_last} on Friday? - {company}',
  'Tenancy renewed: {address_block}\nTenant: {name}',
  'With deepest sympathy to the family of {first_last} of {city}, {country}.',
  'Quiz night winners: {name_lower} ({company_lower}), {first_last} ({company}).',
];

interface Gold {
  type: string;
  start: number;
  end: number;
}
interface Text {
  locale: string;
  text: string;
  gold: Gold[];
}

function compose(rows: Row[], carriers: readonly string[]): Text[] {
  return rows.map((row, i) => {
    const carrier = carriers[i % carriers.length];
    const gold: Gold[] = [];
    let text = '';
    let at = 0;
    for (const m of carrier.matchAll(/\{(\w+)\}/g)) {
      text += carrier.slice(at, m.index);
      const slot = m[1] as Slot;
      const value = slotValue(row, slot);
      gold.push({ type: TYPE_OF[slot], start: text.length, end: text.length + value.length });
      text += value;
      at = m.index + m[0].length;
    }
    return { locale: row.locale, text: text + carrier.slice(at), gold };
  });
}

/** The types a detection counts as (ours or Presidio's). */
const COUNTS_AS: Record<string, string[]> = {
  address: ['address', 'location'],
  location: ['address', 'location'],
  fax_number: ['phone'],
  PERSON: ['name'],
  LOCATION: ['address', 'location'],
  GPE: ['address', 'location'],
  ORGANIZATION: ['organization'],
  PHONE_NUMBER: ['phone'],
  CREDIT_CARD: ['credit_card'],
  NRP: ['nrp'],
};
const JUDGED = new Set([
  'name',
  'address',
  'location',
  'phone',
  'fax_number',
  'organization',
  'credit_card',
  'title',
  'age',
  'nrp',
  'PERSON',
  'LOCATION',
  'GPE',
  'ORGANIZATION',
  'PHONE_NUMBER',
  'CREDIT_CARD',
  'NRP',
]);

interface Pred {
  label: string;
  start: number;
  end: number;
}
interface Tally {
  spans: number;
  found: number;
  typed: number;
  chars: number;
  charsCovered: number;
}

/** Exact spans, types ignored: a judged detection counts when it starts and ends where a value does. */
interface SpanScore {
  gold: number;
  predicted: number;
  exact: number;
}

function tally(texts: Text[], preds: Pred[][]): { perType: Record<string, Tally>; charPrecision: number; spans: SpanScore } {
  const perType: Record<string, Tally> = {};
  const spans: SpanScore = { gold: 0, predicted: 0, exact: 0 };
  let predicted = 0;
  let predictedInGold = 0;
  texts.forEach((t, i) => {
    const judged = preds[i].filter((p) => JUDGED.has(p.label));
    const keys = new Set(judged.map((p) => `${p.start}:${p.end}`));
    spans.gold += t.gold.length;
    spans.predicted += keys.size;
    spans.exact += t.gold.filter((g) => keys.has(`${g.start}:${g.end}`)).length;
    const cover = new Uint8Array(t.text.length);
    const inGold = new Uint8Array(t.text.length);
    for (const g of t.gold) inGold.fill(1, g.start, g.end);
    for (const p of preds[i]) {
      if (!JUDGED.has(p.label)) continue;
      cover.fill(1, p.start, p.end);
    }
    for (let k = 0; k < t.text.length; k++) {
      if (!cover[k] || /\s/.test(t.text[k])) continue;
      predicted++;
      predictedInGold += inGold[k];
    }
    for (const g of t.gold) {
      let chars = 0;
      let covered = 0;
      for (let k = g.start; k < g.end; k++) {
        if (/\s/.test(t.text[k])) continue;
        chars++;
        covered += cover[k];
      }
      const typedCover = preds[i].some((p) => (COUNTS_AS[p.label] ?? [p.label]).includes(g.type) && Math.min(p.end, g.end) - Math.max(p.start, g.start) >= (g.end - g.start) / 2);
      for (const key of ['all', g.type]) {
        const c = (perType[key] ??= { spans: 0, found: 0, typed: 0, chars: 0, charsCovered: 0 });
        c.spans++;
        if (covered * 2 >= chars) c.found++;
        if (typedCover) c.typed++;
        c.chars += chars;
        c.charsCovered += covered;
      }
    }
  });
  return { perType, charPrecision: predicted ? predictedInGold / predicted : 0, spans };
}

/** Carriers for the names of the further locales: `{n}` is the name. */
const NAME_CARRIERS = ['{n} moved to Leeds last spring.', 'Please call {n} before Friday.', 'Invoice for Acme Ltd, attention of {n}.', 'I spoke with {n} about the delay.'];

/**
 * Names of the locales the address rows leave out, each in one carrier: the share found with exact boundaries (any
 * judged type) and found at all (half its characters or more in a detection of a judged type); ours and Presidio.
 */
function scoreMoreNames(more: [string, string][], work: string, withPresidio: boolean): Record<'ours' | 'presidio', { exact: number; found: number }> {
  const texts: Text[] = more.map(([locale, name], i) => {
    const carrier = NAME_CARRIERS[i % NAME_CARRIERS.length];
    const start = carrier.indexOf('{n}');
    return { locale, text: carrier.replace('{n}', name), gold: [{ type: 'name', start, end: start + name.length }] };
  });
  const ours = texts.map((t) => detectText(t.text).map((d) => ({ label: d.type, start: d.start, end: d.end })));
  const pres = withPresidio ? runPresidio(texts, `faker-names-${more.length}`, work) : { texts: texts.map(() => []) };
  const presidio = pres.texts.map((rs) => rs.map(([label, start, end]) => ({ label, start, end })));
  const score = (preds: Pred[][]): { exact: number; found: number } => {
    let exact = 0;
    let found = 0;
    texts.forEach((t, i) => {
      const g = t.gold[0];
      const judged = preds[i].filter((p) => JUDGED.has(p.label));
      if (judged.some((p) => p.start === g.start && p.end === g.end)) exact++;
      if (judged.some((p) => Math.min(p.end, g.end) - Math.max(p.start, g.start) >= (g.end - g.start) / 2)) found++;
    });
    return { exact: exact / texts.length, found: found / texts.length };
  };
  return { ours: score(ours), presidio: score(presidio) };
}

const f3 = (a: number, b: number): string => (b ? (a / b).toFixed(3) : '—');

function main(): void {
  // `--no-presidio`: ours alone (Presidio's columns read 0), for comparing two builds of ours quickly.
  const withPresidio = !process.argv.includes('--no-presidio');
  const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const perLocale = Number(args[0] ?? 25);
  const seed = args[1] ?? '20261128';
  const outDir = join(__dirname, '../../../bench/results');
  const work = join(outDir, 'pii-faker');
  mkdirSync(work, { recursive: true });
  const python = process.env.PII_PYTHON ?? join(homedir(), '.cache/mlsvc/venv-pii/bin/python');
  const valuesPath = join(work, 'values.json');
  // A fixed string hash seed: some of Faker's lists are sets (it_IT's cities), whose order, and so the value a seeded
  // draw picks, would otherwise change from run to run.
  const made = spawnSync(python, [join(__dirname, '../../../bench/pii/faker_values.py'), valuesPath, String(perLocale), seed], {
    stdio: 'inherit',
    env: { ...process.env, PYTHONHASHSEED: '0' },
  });
  if (made.status !== 0) throw new Error('faker_values.py failed: pip install faker into the venv (see the header)');
  const values = JSON.parse(readFileSync(valuesPath, 'utf8')) as { faker: string; seed: number; rows: Row[]; more_names: [string, string][] };
  const sets: Record<string, readonly string[]> = {
    first: CARRIERS,
    second: SECOND_CARRIERS,
    third: THIRD_CARRIERS,
    fourth: FOURTH_CARRIERS,
    fifth: FIFTH_CARRIERS,
    sixth: SIXTH_CARRIERS,
    seventh: SEVENTH_CARRIERS,
    eighth: EIGHTH_CARRIERS,
    ninth: NINTH_CARRIERS,
    tenth: TENTH_CARRIERS,
    eleventh: ELEVENTH_CARRIERS,
    twelfth: TWELFTH_CARRIERS,
    thirteenth: THIRTEENTH_CARRIERS,
    fourteenth: FOURTEENTH_CARRIERS,
    fifteenth: FIFTEENTH_CARRIERS,
    sixteenth: SIXTEENTH_CARRIERS,
  };
  const setName = args[2] ?? 'first';
  const carriers = sets[setName];
  if (!carriers) throw new Error(`carrier set ${setName}: one of ${Object.keys(sets).join(', ')}`);
  const texts = compose(values.rows, carriers);

  const t0 = process.hrtime.bigint();
  const ours = texts.map((t) => detectText(t.text).map((d) => ({ label: d.type, start: d.start, end: d.end })));
  const oursSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const pres = withPresidio ? runPresidio(texts, `faker-${values.faker}-${values.seed}-${perLocale}`, work) : { texts: texts.map(() => []), text_seconds: NaN };
  const presidio = pres.texts.map((rs) => rs.map(([label, start, end]) => ({ label, start, end })));
  const a = tally(texts, ours);
  const b = tally(texts, presidio);

  const lines = [
    `Faker ${values.faker} values (seed ${values.seed}), ${values.rows.length} rows from 16 locales in ${carriers.length} carrier sentences (the ${setName} set); ${withPresidio ? 'Presidio at score 0' : 'Presidio not run'}`,
    '',
    '| type | values | ours found | ours as its type | ours char recall | Presidio found | Presidio as its type | Presidio char recall |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const type of Object.keys(a.perType).sort((x, y) => (x === 'all' ? -1 : y === 'all' ? 1 : x.localeCompare(y)))) {
    const o = a.perType[type];
    const p = b.perType[type];
    lines.push(
      `| ${type} | ${o.spans} | ${f3(o.found, o.spans)} | ${f3(o.typed, o.spans)} | ${f3(o.charsCovered, o.chars)} | ${f3(p.found, p.spans)} | ${f3(p.typed, p.spans)} | ${f3(p.charsCovered, p.chars)} |`,
    );
  }
  lines.push('', `char precision (judged types): ours ${a.charPrecision.toFixed(3)}, Presidio ${b.charPrecision.toFixed(3)}`);
  const spanLine = (s: SpanScore): string => {
    const p = s.predicted ? s.exact / s.predicted : 0;
    const r = s.gold ? s.exact / s.gold : 0;
    return `${(p + r ? (2 * p * r) / (p + r) : 0).toFixed(3)} (P ${p.toFixed(3)} / R ${r.toFixed(3)})`;
  };
  lines.push(`exact span F1, types ignored: ours ${spanLine(a.spans)}, Presidio ${spanLine(b.spans)}`);
  const names = scoreMoreNames(values.more_names, work, withPresidio);
  lines.push(
    `names of ${new Set(values.more_names.map(([l]) => l)).size} more locales (${values.more_names.length}, four carriers): ours exact ${names.ours.exact.toFixed(3)}, found ${names.ours.found.toFixed(3)}; Presidio exact ${names.presidio.exact.toFixed(3)}, found ${names.presidio.found.toFixed(3)}`,
  );
  lines.push(`throughput: ours ${(texts.length / oursSeconds).toFixed(0)} texts/s (one pass, cold), Presidio ${(texts.length / pres.text_seconds).toFixed(1)} texts/s`);
  console.log(lines.join('\n'));
  writeFileSync(
    join(outDir, 'pii-faker.json'),
    JSON.stringify({ at: new Date().toISOString(), faker: values.faker, seed: values.seed, rows: values.rows.length, ours: a, presidio: b }, null, 2) + '\n',
  );
  // The misses, for whoever improves the recognizers.
  const misses = texts.flatMap((t, i) =>
    t.gold
      .filter((g) => !ours[i].some((p) => (COUNTS_AS[p.label] ?? [p.label]).includes(g.type) && Math.min(p.end, g.end) - Math.max(p.start, g.start) >= (g.end - g.start) / 2))
      .map((g) => `${t.locale} ${g.type}: ${JSON.stringify(t.text.slice(g.start, g.end))} | ${ours[i].map((p) => `${p.label}:${JSON.stringify(t.text.slice(p.start, p.end))}`).join(', ')}`),
  );
  writeFileSync(join(work, 'misses.txt'), misses.join('\n') + '\n');
  writeFileSync(join(work, 'texts.json'), JSON.stringify(texts, null, 1) + '\n');
  // Where exact span F1 is lost: a judged detection that is no value's span, a value no detection spans exactly.
  const boundaries = texts.flatMap((t, i) => {
    const judged = ours[i].filter((p) => JUDGED.has(p.label));
    const extra = judged.filter((p) => !t.gold.some((g) => g.start === p.start && g.end === p.end)).map((p) => `+ ${p.label}:${JSON.stringify(t.text.slice(p.start, p.end))}`);
    const inexact = t.gold.filter((g) => !judged.some((p) => g.start === p.start && g.end === p.end)).map((g) => `- ${g.type}:${JSON.stringify(t.text.slice(g.start, g.end))}`);
    return extra.length + inexact.length > 0 ? [`${t.locale} ${[...inexact, ...extra].join(' ')}`] : [];
  });
  writeFileSync(join(work, 'boundaries.txt'), boundaries.join('\n') + '\n');
}

main();
