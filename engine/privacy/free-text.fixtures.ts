/**
 * Hand-written, labelled free text for the detection tests: emails, chat, forms, letters and support tickets with
 * names of many countries, international addresses, organizations, places, nationalities, phones, cards, ages and
 * titles. Written for this project (no generator, no third-party corpus). A span is marked `[[type:text]]`; every
 * personal detail of a sentence is marked, so a detection outside the marks is a false positive.
 *
 * Conventions: a title or honorific is its own span, apart from the name it precedes; an age is the number alone; an
 * address is one span from the house number (or the unit before it) to the country, with the city, region and
 * postcode lines that follow it; a phone number includes its extension.
 */

export interface LabelledSpan {
  type: string;
  start: number;
  end: number;
  text: string;
}

export interface LabelledText {
  text: string;
  spans: LabelledSpan[];
}

const MARK = /\[\[([a-z_]+):((?:(?!\]\]).)+)\]\]/gs;

/** Strip the marks of a labelled sentence, keeping their offsets. */
export function parseLabelled(marked: string): LabelledText {
  const spans: LabelledSpan[] = [];
  let text = '';
  let last = 0;
  for (const m of marked.matchAll(MARK)) {
    text += marked.slice(last, m.index);
    spans.push({ type: m[1], start: text.length, end: text.length + m[2].length, text: m[2] });
    text += m[2];
    last = (m.index ?? 0) + m[0].length;
  }
  text += marked.slice(last);
  return { text, spans };
}

/** Names of many countries, in every case and script the Latin alphabet allows. */
export const NAMES = [
  'Hi team, [[name:Łukasz Wróbel]] will cover the night shift on Friday.',
  'Please forward the contract to [[name:Zoë Müller]] before noon.',
  'The form was signed by [[name:José Luis Rodríguez]] and witnessed by [[name:Ana Sofía Pérez]].',
  'my name is [[name:john smith]] and i need help with my order',
  'hey its [[name:priya]] again, did you get my message?',
  'CUSTOMER: [[name:MARÍA GONZÁLEZ]]',
  'Attendees: [[name:Søren Kierkegaard-Holm]], [[name:Björn Andersson]] and [[name:Ingrid Hansen]].',
  'Thanks [[name:Siobhán]], I will call you tomorrow.',
  'Ticket reassigned from [[name:J Smith]] to [[name:K Patel]].',
  'Dear [[name:Ngozi Okonjo]], thank you for your application.',
  '[[name:Nguyễn Văn An]] submitted the expense report late again.',
  'I spoke with [[name:Mehmet Yılmaz]] about the delivery delay.',
  'Regards,\n[[name:François Lefèvre]]',
  '[[name:Giulia Bianchi]] and [[name:Marco Esposito]] are on leave next week.',
  'Can you add [[name:Wei Zhang]] to the mailing list?',
  'Reported by: [[name:Aisha Al-Farsi]]',
  'The account holder is [[name:Dmitri Ivanov]].',
  'hi my name is [[name:fatima zahra]], my package never arrived',
  'Contact [[name:Hiroshi Tanaka]] for the keys.',
  'Patient: [[name:ŽELJKA KOVAČEVIĆ]]',
  '[[name:Oluwaseun Adeyemi]] has joined the project as a reviewer.',
  'Our new hire, [[name:Kateřina Dvořáková]], starts on Monday.',
  'Best wishes from [[name:Anders]] and [[name:Lotte]]',
  '[[title:Ms]] [[name:Van der Berg]] asked for a refund.',
  'Approved by [[name:Rahul Sharma]] (team lead).',
  'Forwarding this to [[name:Min-jun Kim]] who handles billing.',
  'I am [[name:Juan Carlos Martínez]] and I live alone.',
  "I'm [[name:Astrid]], the new intern.",
  'The tenant, [[name:Thabo Mokoena]], has paid the deposit.',
  'please contact [[name:sarah o’connor]] regarding the invoice',
  'From: [[name:Paweł Nowak]]\nSubject: missing refund',
  '[[name:Camille Dubois]] wrote the minutes.',
  '[[name:Ahmad Karimi]] and his brother were both at the meeting.',
  'Send the scans to [[name:Emily Nakamura]].',
  'Our contact there is [[name:Leilani Kahale]].',
  '[[name:Gabriel Silva Santos]] confirmed the booking by phone.',
  'The interview with [[name:Jürgen Weiß]] went well.',
  'Spoke to [[name:Olga Petrova]] on the phone; she agreed.',
  'Notes taken by [[name:R. Gupta]].',
  'ASSIGNED TO: [[name:TOMASZ KOWALCZYK]]',
];

/** Organizations, single-word ones found by their cue words. */
export const ORGANIZATIONS = [
  'She works at [[organization:Zalando]] as a [[title:data analyst]].',
  'He joined [[organization:Novartis]] in the spring.',
  'I have been employed by [[organization:Petrobras]] for six years.',
  'The loan was approved by [[organization:Banco Santander]].',
  'Shipping is handled by [[organization:Nordic Freight AB]].',
  '[[name:Laura Fischer]] works for [[organization:Siemens Healthineers]].',
  'Our supplier, [[organization:Tata Consultancy Services]], sent the invoice.',
  'The complaint was forwarded to [[organization:Deutsche Telekom]].',
  'I was referred by [[organization:Kaiser Permanente]].',
  'Internship at [[organization:Mercado Libre]], summer term.',
  'Previously at [[organization:Spotify]]; now freelancing.',
  'The grant comes from the [[organization:Wellcome Trust]].',
  'He used to work at [[organization:Accenture]] before moving to [[location:Lisbon]].',
  'A representative of [[organization:Vodafone]] called twice.',
  'The study was run at [[organization:Karolinska Institutet]].',
  'Invoice from [[organization:Müller & Söhne GmbH]] attached.',
  'She is a [[title:nurse]] at [[organization:St Mary’s Hospital]].',
];

/** Places: cities, regions and countries, in capitals too. */
export const PLACES = [
  'We are moving to [[location:Kraków]] in March.',
  'The conference is in [[location:São Paulo]] this year.',
  'She grew up near [[location:Düsseldorf]].',
  'DESTINATION: [[location:NEW YORK]]',
  'He flew from [[location:Reykjavík]] to [[location:Montréal]].',
  'Our office in [[location:Bavaria]] will close early.',
  'The package left [[location:Guadalajara]] yesterday.',
  'I was born in [[location:Nigeria]] but raised in [[location:Canada]].',
  'Family lives in [[location:Tehran]] and [[location:Istanbul]].',
  'Trip: [[location:LISBON]] to [[location:PORTO]]',
  'Relocating from [[location:Bengaluru]] to [[location:Melbourne]].',
  'The warehouse near [[location:Rotterdam]] is full.',
  'Visiting my parents in [[location:Wrocław]] next weekend.',
  'Ship it to our team in [[location:Ho Chi Minh City]].',
  'She has lived in [[location:Mexico]] for ten years.',
];

/** Nationalities, religious and political groups. */
export const NRP = [
  'He is [[nrp:Brazilian]] and speaks three languages.',
  'The applicant is a [[nrp:Sikh]] and requested time off for Vaisakhi.',
  'She describes herself as a lifelong [[nrp:Conservative]] voter.',
  'My mother is [[nrp:Filipino]] and my father is [[nrp:Norwegian]].',
  'Our landlord is a devout [[nrp:Muslim]].',
  'Nationality: [[nrp:Colombian]]',
  'He is a member of the [[nrp:Green Party]].',
  'They are [[nrp:Jehovah’s Witnesses]] and refused the transfusion.',
  'The [[nrp:Kenyan]] runner won the race.',
  'She converted and is now [[nrp:Buddhist]].',
  'Religion: [[nrp:Hindu]]',
];

/** Addresses of the EU, the UK, the US, Canada, Australia and Latin America, as one block each. */
export const ADDRESSES = [
  'Please send the parcel to [[address:Calle Mayor 12, 28013 Madrid, Spain]].',
  'Meine Adresse: [[address:Hauptstraße 5, 10115 Berlin]]',
  'Deliver to [[address:Via Roma 10, 00184 Roma RM, Italy]] before Friday.',
  'Nowy adres: [[address:ul. Długa 5/7, 00-238 Warszawa]]',
  'The shop is at [[address:12 rue de la Paix, 75002 Paris, France]].',
  'Our flat is [[address:221B Baker Street, London NW1 6XE]].',
  'Ship to:\n[[address:350 Fifth Avenue, Suite 3300\nNew York, NY 10118\nUSA]]',
  'Mailing address: [[address:1250 René-Lévesque Blvd W, Montreal, QC H3B 4W8, Canada]]',
  'The office moved to [[address:Level 4, 88 George Street, Sydney NSW 2000, Australia]].',
  'Entregar en [[address:Av. Paulista 1578, Bela Vista, São Paulo - SP, 01310-200, Brasil]].',
  'Dirección: [[address:Avenida Reforma 222, Col. Juárez, 06600 Ciudad de México, CDMX]]',
  'I live at [[address:Av. Corrientes 1234, C1043 Buenos Aires, Argentina]].',
  'Return address: [[address:Keizersgracht 123, 1015 CJ Amsterdam, Netherlands]]',
  'New address is [[address:Flat 3, 14 Victoria Road, Manchester M14 5AH]].',
  'Please update my address to [[address:742 Evergreen Terrace, Apt 2B, Springfield, OR 97477]].',
  'He lives at [[address:Drottninggatan 53, 111 21 Stockholm, Sweden]].',
  'Our [[location:Lisbon]] office: [[address:Rua Augusta 100, 1100-053 Lisboa, Portugal]]',
  'Rechnungsadresse: [[address:Leopoldstraße 27, Wohnung 4, 80802 München]]',
  'Address on file: [[address:45 Queen Street West, Unit 1102, Toronto, ON M5H 2M5]]',
  'Send it to [[address:Calle de Alcalá 45, piso 3, 28014 Madrid]].',
  'The clinic is at [[address:17 Wattle Avenue, Carlton VIC 3053]].',
  'Domicilio: [[address:Carrera 7 #71-21, Bogotá, Colombia]]',
  'We stayed at [[address:Piazza Navona 45, 00186 Roma]].',
  'Delivery address: [[address:1600 Amphitheatre Pkwy, Mountain View, CA 94043]]',
  'Vendor address: [[address:5 Chemin des Vignes, 1200 Genève, Switzerland]]',
  'My address is [[address:ul. Marszałkowska 84, 00-514 Warszawa, Polska]], please confirm.',
  'I moved to [[address:88 Collins St, Melbourne VIC 3000]] last month.',
  'Office: [[address:Bahnhofstrasse 21, 8001 Zürich]]',
  'Billing address:\n[[address:10 Downing Street\nLondon\nSW1A 2AA\nUnited Kingdom]]',
  'Our new place is [[address:1428 Elm Street, Apt #5, Portland, ME 04101]].',
  'the parcel went to [[address:3 rue Victor Hugo, 69002 Lyon]] by mistake',
  'Postal: [[address:P.O. Box 4521, Halifax, NS B3J 3K5]]',
  'Enviar a [[address:Calle 50 #10-15, Medellín]] antes del lunes.',
  'Address: [[address:Rua das Flores 25, 4050-262 Porto]]',
  'Lives at [[address:9 Rathmines Road, Dublin 6, Ireland]] with two flatmates.',
];

/** Phone numbers of many regions, with extensions. */
export const PHONES = [
  'Call me at [[phone:+48 512 345 678]] after six.',
  'Phone: [[phone:+1 (415) 555-0132 x4587]]',
  'You can reach the front desk on [[phone:+1 415 555 0132 ext. 12]].',
  'Mobile: [[phone:+34 612 34 56 78]]',
  'Tel. [[phone:0044 20 7946 0958]]',
  'Her number is [[phone:+55 11 98765-4321]].',
  'WhatsApp me on [[phone:+91 98765 43210]]',
  'The [[location:Sydney]] office phone is [[phone:(02) 9374 4000]].',
  'Please call [[phone:06 12 34 56 78]] to confirm the appointment.',
  'Tel: [[phone:030 12345678]]',
  'Office line [[phone:+1 202-555-0143 extension 3]]',
  'Call the helpdesk at [[phone:(212) 555-0198 x22]].',
  'contact number [[phone:+971 50 123 4567]]',
  'Reach me on my cell, [[phone:+234 803 123 4567]].',
  'Telefone: [[phone:(11) 98765-4321]]',
  'Teléfono móvil: [[phone:55 1234 5678]]',
  'Phone number: [[phone:+81 3-1234-5678]]',
  'His mobile is [[phone:0412 345 678]].',
  'call [[phone:+7 912 345-67-89]] if the courier is late',
  'Numer telefonu: [[phone:512 345 678]]',
  'Text me: [[phone:+90 532 123 45 67]]',
];

/** Payment cards of every issuer. */
export const CARDS = [
  'Card number: [[credit_card:4215 2396 9807 4694]]',
  'Please charge [[credit_card:5170 3666 1698 5568]] for the deposit.',
  'My card is [[credit_card:2221 5050 9931 7643]], expiring 08/27.',
  'Amex [[credit_card:3485 259807 14445]] on file.',
  'Paid with my JCB card [[credit_card:3528096480784797]].',
  'The old JCB card [[credit_card:180074731462302]] was cancelled.',
  'Use card [[credit_card:213122353338382]] instead.',
  'Diners Club [[credit_card:3056 534723 4482]]',
  'Maestro card ending in 2877: [[credit_card:501869292877]]',
  'UnionPay: [[credit_card:6276 2905 6619 2390]]',
  'Mir card [[credit_card:2200 6404 1137 0734]] was declined.',
  'Discover [[credit_card:6011-4305-5141-9479]]',
  'card [[credit_card:3595763308386240]] declined twice',
  'Troy card no [[credit_card:9792 6525 8910 9165]]',
  'Charge the visa [[credit_card:4819108308205]] please.',
];

/** Ages in phrases. */
export const AGES = [
  'My father just turned [[age:60]] and still runs every morning.',
  'A [[age:37]]-year-old woman was admitted overnight.',
  'Participants aged [[age:45]] and over were excluded.',
  'I am [[age:29]] years old and live alone.',
  'The patient, [[age:72]], was discharged on Tuesday.',
  'He will be [[age:18]] next month.',
  'Age: [[age:54]]',
  'she is [[age:33]] yrs old',
  'Our son is [[age:7]] and loves football.',
  'At the age of [[age:81]], she still drives.',
];

/** Titles and honorifics, and job titles. */
export const TITLES = [
  '[[title:Dr.]] [[name:Amara Nwosu]] will see you at ten.',
  'Dear [[title:Mrs.]] [[name:Fernández]],',
  '[[title:Prof.]] [[name:Hans Becker]] chairs the panel.',
  '[[name:Kenji Watanabe]], [[title:Chief Financial Officer]], approved the budget.',
  'Please welcome our new [[title:Head of Marketing]], [[name:Lucía Romero]].',
  '[[title:Sir]] [[name:David Attwood]] opened the ceremony.',
  'The [[title:CEO]] asked for the figures by Friday.',
  'Signed, [[name:Sophie Martin]], [[title:Senior Software Engineer]]',
  '[[title:Mr]] [[name:Okafor]] called about his bill.',
  '[[title:Dame]] [[name:Judith Clarke]] sent her regards.',
];

/** Sentences a careless recognizer would flag: nothing here is personal data. */
export const CLEAN = [
  'The meeting moved to Thursday afternoon.',
  'Please review the Quarterly Report before the board meeting.',
  'We shipped 3 pallets and 12 boxes on Monday.',
  'Order number 4111 1111 1111 1112 was returned.',
  'Release 2.4.1 fixes the login bug.',
  'The invoice total is 1,250.00 EUR including VAT.',
  'Turn left at the second traffic light.',
  'Can you send me the slides from the workshop?',
  'Our Q3 revenue grew by 12 percent.',
  'Room 204 is booked from 10 to 12.',
  'SKU 550012 is out of stock until May.',
  'The API returns HTTP 404 when the key is missing.',
  'Thanks for your patience, we will get back to you soon.',
  'Great News: The New Dashboard Is Live!',
  'Step 3: Click Save And Continue.',
  'Tracking number 1Z999AA10123456784 is in transit.',
  'The printer on floor 5 is out of toner.',
  'Reset your password from the settings page.',
];

/** Mixed: several kinds of personal data in one text, as support tickets and letters carry them. */
export const MIXED = [
  'Hello, I am [[name:Agnieszka Zielińska]] and I moved to [[address:ul. Piękna 20, 00-549 Warszawa]]. My new phone is [[phone:+48 601 234 567]].',
  'Customer [[name:Jean-Pierre Moreau]] ([[email:jp.moreau@example.fr]]) says his card [[credit_card:5170 3666 1698 5568]] was charged twice.',
  'Hi, this is [[name:Carlos Mendoza]] from [[organization:Grupo Bimbo]]. Call me back at [[phone:+52 55 1234 5678]].',
  'Referral: [[title:Dr.]] [[name:Ingrid Solberg]], [[organization:Oslo University Hospital]], tel [[phone:+47 22 11 80 80]].',
  'The [[age:45]]-year-old [[nrp:Egyptian]] engineer, [[name:Youssef Hassan]], relocated to [[location:Dubai]].',
  'My name is [[name:Hannah Schmidt]], I am [[age:34]] and I work at [[organization:Bosch]].',
  'Please deliver to [[name:Mateo Rossi]], [[address:Via Garibaldi 8, 20121 Milano MI]]. Contact: [[phone:+39 02 1234 5678]].',
  'Guest: [[title:Mr.]] [[name:Arjun Mehta]], [[nrp:Indian]] citizen, room 412.',
  'hi its [[name:ayumi]], just turned [[age:40]] lol, can u call me on [[phone:+81 90-1234-5678]]',
  'Applicant [[name:Chinedu Eze]] ([[age:29]]), [[address:14 Adeola Odeku Street, Victoria Island, Lagos, Nigeria]].',
];

/**
 * Written after the recognizers were tuned on the lists above and kept apart from that tuning: form letters and
 * templates of the kind address books and data generators produce, with locale-specific formats.
 */
export const HELD_OUT = [
  'Bonjour, je suis [[name:Mathilde Garnier]] et j’habite au [[address:12, rue de la République\n69001 Lyon]].',
  'Kontakt: [[name:Hans-Jürgen Braun]], [[address:Hauptstr. 5\n12345 Musterstadt]]',
  'Please ship the replacement to [[address:Via Nazionale 44 Piano 3\n00184 Roma (RM)]].',
  'Adres dostawy: [[address:ul. Kwiatowa 12/4\n31-456 Kraków]]',
  'Endereço: [[address:Rua das Flores, 25\nBela Vista\n01310-200 São Paulo / SP]]',
  'Correspondence address:\n[[address:Flat 9\nVictoria Road\nLeeds\nLS6 1AN]]',
  'Our AU office: [[address:Level 12\n1 Martin Place\nSydney, NSW, 2000]]',
  'Shipping to [[address:18 Rideau Street Unit 402\nOttawa, ON K1N 5Y3]]',
  '[[name:Rosalind Hughes]] lives at [[address:402 Maple Avenue Apt. 7\nDayton, OH 45402]].',
  'Het pakket gaat naar [[address:Prinsengracht 263\n1016 GV Amsterdam]].',
  'Enviar a: [[address:Calle de Serrano 41, 3º izq, 28001 Madrid]]',
  'My details: [[name:Ifeoma Chukwu]], [[phone:+234 809 555 0199]], [[email:ifeoma.c@example.ng]]',
  'Hello, my name is [[name:Bartosz Zieliński]] and I am [[age:41]] years old.',
  'The [[nrp:Portuguese]] consul, [[name:Duarte Almeida]], arrived in [[location:Macau]].',
  'i live in [[location:lyon]] and my name is [[name:chloé bernard]]',
  'PASSENGER NAME: [[name:KOFI MENSAH]]',
  'Booking for [[title:Mrs]] [[name:Aiko Yamamoto]], arriving [[location:Osaka]].',
  'Our [[title:Chief Technology Officer]], [[name:Priyanka Nair]], will present.',
  'I work as a [[title:sales executive]] at [[organization:Unilever]].',
  '[[name:Sven Lindqvist]] ([[age:52]]) was appointed [[title:Managing Director]].',
  'Please call [[name:Abdullah Al-Qahtani]] on [[phone:+966 50 123 4567]].',
  'Payment card: [[credit_card:3530 1113 3330 0000]]',
  'Paid by Maestro [[credit_card:6759 6498 2643 8453]].',
  'Card on file [[credit_card:5555-5555-5555-4444]], exp [[card_expiry:11/26]].',
  'card no. [[credit_card:36227206271667]] (Diners)',
  'Hi [[name:Nomvula]], your parcel for [[address:21 Jan Smuts Avenue, Rosebank, Johannesburg, 2196]] is out for delivery.',
  'Dear [[title:Dr]] [[name:Ravindran]], your appointment is confirmed.',
  'The [[nrp:Muslim]] community centre on [[address:14 Green Lane, Birmingham B9 4DL]] hosts the event.',
  'He identifies as [[nrp:Jewish]] and votes [[nrp:Labour]].',
  'Reach our [[location:Berlin]] desk at [[phone:+49 30 901820]] or [[phone:030 901820]].',
  'Ext. help line: [[phone:+1 (800) 555-0199 ext. 204]]',
  'Employee [[name:Takumi Saito]], [[title:Senior Data Analyst]], [[organization:Rakuten]]',
  'A [[age:29]]-year-old [[nrp:Vietnamese]] student, [[name:Tran Thi Mai]], won the prize.',
  'She moved from [[location:Guatemala]] to [[location:Toronto]] when she was [[age:12]].',
  'Kindly contact [[name:Anjali Deshpande]] at [[organization:Infosys]] for the onboarding.',
  'My grandmother is turning [[age:90]] next week!',
  'ATTN: [[name:GONZALO RUIZ]], [[address:AV. LIBERTADOR 1500, C1425 BUENOS AIRES, ARGENTINA]]',
  'Order #55120 shipped on Tuesday via DHL.',
  'See section 4.2 of the manual for details.',
  'The Annual General Meeting takes place in Room 3.',
  'Call center hours are 9 to 5, Monday to Friday.',
  'We bought 2 Samsung monitors and 3 keyboards.',
  'Please update the README before the next release.',
];

export const CORPUS: readonly string[] = [...NAMES, ...ORGANIZATIONS, ...PLACES, ...NRP, ...ADDRESSES, ...PHONES, ...CARDS, ...AGES, ...TITLES, ...CLEAN, ...MIXED];
