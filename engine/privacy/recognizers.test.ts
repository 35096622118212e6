/**
 * Every recognizer, table-driven: at least one sentence where it must find the value (a valid check digit, the
 * context a weak pattern needs) and one where it must not (an invalid check digit, a look-alike, no context).
 */
import { detectText } from './detect-text';
import { piiTypes } from './recognizers';

interface Case {
  /** Sentences with the value that must be found as this type. */
  yes: [text: string, value: string][];
  /** Sentences where this type must not be found. */
  no: string[];
}

const CASES: Record<string, Case> = {
  email: { yes: [['Write to jane.doe+work@mail.example.co.uk today.', 'jane.doe+work@mail.example.co.uk']], no: ['The handle is jane@ and nothing more', 'version 1.2@beta'] },
  phone: {
    yes: [
      ['Call me on (617) 555-0143 tomorrow.', '(617) 555-0143'],
      ['Mobile: +44 20 7946 0958', '+44 20 7946 0958'],
      // Written as a phone number, in no numbering plan's assigned ranges (generators and typos make such numbers).
      ['The customer rang us from (988)348-1843.', '(988)348-1843'],
      ['Le numéro est 02 53 27 91 71, merci.', '02 53 27 91 71'],
      ['Or try 926.189.7962 after six.', '926.189.7962'],
    ],
    no: ['Order 1234 shipped', 'Fax: (617) 555-0143', 'It cost 1 234 567 euros on 2024-01-15.', 'Version 10.24.3 ships today.'],
  },
  fax_number: { yes: [['Fax: (617) 555-0143', '(617) 555-0143']], no: ['Call (617) 555-0143'] },
  address: { yes: [['She lives at 1600 Pennsylvania Avenue, Washington, DC 20500 now.', '1600 Pennsylvania Avenue, Washington, DC 20500']], no: ['We walked 3 miles along the river.'] },
  name: {
    yes: [
      ['The report was signed by Margaret Thompson yesterday.', 'Margaret Thompson'],
      // The honorific is a title span of its own, the name starts after it.
      ['Seen by Dr. Okonkwo today.', 'Okonkwo'],
    ],
    no: ['The Quarterly Report is due.', 'we met at the park'],
  },
  organization: {
    yes: [
      ['She works for Northwind Logistics in the city.', 'Northwind Logistics'],
      ['Admitted to Mount Sinai Hospital overnight.', 'Mount Sinai Hospital'],
      // Firms named after their partners, which read as surnames word by word.
      ['Invoice for Ross, Shaffer and Mueller, attention of the partners.', 'Ross, Shaffer and Mueller'],
      ['Debra Ramirez, an actuary at Frey-Ramirez, signed it.', 'Frey-Ramirez'],
    ],
    no: ['The logistics were hard.', 'Jordanian, Palestinian and Syrian forces met.', 'Buckling, Crumbling, and Toppling of beams.'],
  },
  location: { yes: [['He moved to Chicago last year.', 'Chicago']], no: ['He moved to a new flat last year.'] },
  date_of_birth: {
    yes: [
      ['DOB: 03/14/1985', '03/14/1985'],
      ['She was born on March 3, 1990 in Ohio.', 'March 3, 1990'],
    ],
    no: ['Invoice dated 03/14/1985 was paid.', 'Born on 02/30/1990 (no such day)'],
  },
  date: { yes: [['The invoice is dated 2021-03-04.', '2021-03-04']], no: ['Version 2021-13-45 is not a date', 'Build 1.2.3 shipped'] },
  age: {
    yes: [
      ['The patient is 45 years old.', '45'],
      ['Age: 72', '72'],
    ],
    no: ['She has 45 cats.', 'Page 12 of the report'],
  },
  ssn: {
    yes: [
      ['SSN 536-22-8419 on file', '536-22-8419'],
      ['social security number 536228419', '536228419'],
    ],
    no: ['Ref 666-22-8419 is invalid', 'Number 000-12-3456', 'order 536228419'],
  },
  us_itin: { yes: [['ITIN 912-70-1234 issued', '912-70-1234']], no: ['ITIN 912-40-1234 is not a valid group'] },
  us_passport: { yes: [['Passport number 488839667', '488839667']], no: ['Ticket 488839667 booked'] },
  us_drivers_license: { yes: [["Driver's license D1234567 expired", 'D1234567']], no: ['Product D1234567 is in stock'] },
  us_ein: { yes: [['Our EIN is 12-3456789.', '12-3456789']], no: ['Range 07-1234567 of parts'] },
  uk_nino: { yes: [['National Insurance AB 12 34 56 C', 'AB 12 34 56 C']], no: ['Code GB123456A is reserved', 'Code AB123456E'] },
  uk_nhs: { yes: [['NHS number 943 476 5919', '943 476 5919']], no: ['NHS number 943 476 5910'] },
  uk_driving_licence: { yes: [['Licence MORGA657054SM9IJ', 'MORGA657054SM9IJ']], no: ['Licence MORGA657954SM9IJ'] },
  ca_sin: { yes: [['SIN: 046 454 286', '046 454 286']], no: ['SIN: 046 454 287'] },
  in_aadhaar: { yes: [['Aadhaar 2341 2341 2346', '2341 2341 2346']], no: ['Aadhaar 2341 2341 2340', 'Aadhaar 1341 2341 2346'] },
  in_pan: { yes: [['PAN ABCPE1234F', 'ABCPE1234F']], no: ['PAN ABCQE1234F'] },
  in_gstin: {
    yes: [
      ['GSTIN 27AAPFU0939F1ZV', '27AAPFU0939F1ZV'],
      ['Registered under 99AAPFU0939F1ZK (centre jurisdiction)', '99AAPFU0939F1ZK'],
    ],
    // A wrong check character; valid check characters under state codes that do not exist (45, 00).
    no: ['GSTIN 27AAPFU0939F1Z0', 'GSTIN 45AAPFU0939F1ZX', 'GSTIN 00AAPFU0939F1ZB'],
  },
  fr_insee: { yes: [['Numéro de sécurité sociale 184057512345625', '184057512345625']], no: ['Numéro 184057512345600'] },
  de_tax_id: { yes: [['Steuer-ID 86095742719', '86095742719']], no: ['Steuer-ID 86095742710'] },
  de_id_card: { yes: [['Ausweisnummer T220001293', 'T220001293']], no: ['Ausweisnummer T220001290'] },
  es_dni: { yes: [['DNI 12345678Z', '12345678Z']], no: ['DNI 12345678A'] },
  es_nie: { yes: [['NIE X1234567L', 'X1234567L']], no: ['NIE X1234567A'] },
  it_fiscal_code: { yes: [['Codice fiscale RSSMRA85T10A562S', 'RSSMRA85T10A562S']], no: ['Codice RSSMRA85T10A562A'] },
  br_cpf: { yes: [['CPF 123.456.789-09', '123.456.789-09']], no: ['CPF 123.456.789-00', 'CPF 111.111.111-11'] },
  br_cnpj: { yes: [['CNPJ 11.222.333/0001-81', '11.222.333/0001-81']], no: ['CNPJ 11.222.333/0001-00'] },
  au_tfn: { yes: [['TFN 123 456 782', '123 456 782']], no: ['TFN 123 456 780'] },
  au_medicare: { yes: [['Medicare 2123 45670 1', '2123 45670 1']], no: ['Medicare 2123 45671 1'] },
  au_abn: { yes: [['ABN 51 824 753 556', '51 824 753 556']], no: ['ABN 51 824 753 557'] },
  sg_nric: { yes: [['NRIC S1234567D', 'S1234567D']], no: ['NRIC S1234567A'] },
  nl_bsn: { yes: [['BSN 111222333', '111222333']], no: ['BSN 111222330'] },
  se_personnummer: { yes: [['Personnummer 811218-9876', '811218-9876']], no: ['Personnummer 811218-9870'] },
  pl_pesel: { yes: [['PESEL 44051401359', '44051401359']], no: ['PESEL 44051401350'] },
  // 231281-8937 passes the HETU check (1 in 31 DDMMYY-NNNN numbers do): a HETU when bare, a CPR when the text says CPR.
  fi_hetu: {
    yes: [
      ['HETU 131052-308T', '131052-308T'],
      ['Copied 231281-8937 into the ticket.', '231281-8937'],
    ],
    no: ['HETU 131052-3080', 'Note from intake – CPR: 231281-8937'],
  },
  dk_cpr: {
    yes: [
      ['CPR-nummer 070761-4285', '070761-4285'],
      ['Note from intake – CPR: 231281-8937', '231281-8937'],
    ],
    no: ['CPR-nummer 329961-4285', 'Serial 070761-4285', 'Copied 231281-8937 into the ticket.'],
  },
  no_fnr: { yes: [['Fødselsnummer 01019012480', '01019012480']], no: ['Fødselsnummer 01019012481'] },
  be_national_number: { yes: [['Rijksregisternummer 85.07.30-033.28', '85.07.30-033.28']], no: ['Rijksregisternummer 85.07.30-033.00'] },
  ie_pps: { yes: [['PPS 1234567T', '1234567T']], no: ['PPS 1234567A'] },
  ch_ahv: { yes: [['AHV 756.1234.5678.97', '756.1234.5678.97']], no: ['AHV 756.1234.5678.90'] },
  za_id: { yes: [['South African ID number 8801015005088', '8801015005088']], no: ['ID number 8801015005080'] },
  kr_rrn: { yes: [['RRN 900101-1234568', '900101-1234568']], no: ['RRN 900101-1234560'] },
  jp_my_number: { yes: [['My Number 1234 5678 9018', '1234 5678 9018']], no: ['My Number 1234 5678 9010'] },
  cn_resident_id: { yes: [['ID card 11010519491231002X', '11010519491231002X']], no: ['ID card 110105194912310020'] },
  mx_curp: { yes: [['CURP GODE561231HDFRRN00', 'GODE561231HDFRRN00']], no: ['CURP GODE561231HDFRRN01'] },
  credit_card: {
    yes: [
      ['Charged to card 4111 1111 1111 1111 yesterday', '4111 1111 1111 1111'],
      ['Amex 3782 822463 10005 on file', '3782 822463 10005'],
      ['Paid with 5555555555554444.', '5555555555554444'],
    ],
    no: ['Entry 4111 1111 1111 1112 (bad Luhn)', 'Order number 4111111111111111 shipped', 'Tracking 1234567812345670'],
  },
  iban: {
    yes: [
      ['IBAN DE89 3704 0044 0532 0130 00', 'DE89 3704 0044 0532 0130 00'],
      ['to GB82WEST12345698765432.', 'GB82WEST12345698765432'],
    ],
    no: ['Code DE89 3704 0044 0532 0130 01', 'Code GB82WEST1234'],
  },
  swift_bic: { yes: [['SWIFT code DEUTDEFF500', 'DEUTDEFF500']], no: ['The REGISTER is full', 'SWIFT code DEUTQQFF'] },
  aba_routing: { yes: [['Routing number 021000021', '021000021']], no: ['Routing number 021000020', 'Ticket 021000021'] },
  bank_account: { yes: [['Account number 12345678901', '12345678901']], no: ['Reference 12345678901'] },
  card_expiry: { yes: [['Card expires 09/27', '09/27']], no: ['Score 09/27 in the match'] },
  cvv: { yes: [['CVV 123', '123']], no: ['Room 123'] },
  ip_address: { yes: [['Login from 192.168.10.20 failed', '192.168.10.20']], no: ['Address 300.168.10.20 is invalid', 'Use 1.2.3 or later'] },
  ipv6_address: { yes: [['Host 2001:db8:85a3::8a2e:370:7334 replied', '2001:db8:85a3::8a2e:370:7334']], no: ['Meeting at 12:30:45 today'] },
  mac_address: { yes: [['MAC 00:1A:2B:3C:4D:5E seen', '00:1A:2B:3C:4D:5E']], no: ['Time 00:1A only'] },
  imei: { yes: [['IMEI 490154203237518', '490154203237518']], no: ['IMEI 490154203237510'] },
  url: { yes: [['See https://example.org/profile?id=42.', 'https://example.org/profile?id=42']], no: ['See the docs folder'] },
  domain_name: { yes: [['Visit acme-health.com for details', 'acme-health.com']], no: ['Open report.pdf now', 'Pi is 3.14'] },
  user_agent: {
    yes: [['UA Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0', 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0']],
    no: ['Mozilla makes Firefox'],
  },
  medical_record_number: { yes: [['MRN: 00451236', '00451236']], no: ['Invoice 00451236'] },
  npi: { yes: [['NPI 1234567893', '1234567893']], no: ['NPI 1234567890'] },
  dea_number: { yes: [['DEA AB1234563', 'AB1234563']], no: ['DEA AB1234560'] },
  icd10_code: { yes: [['Diagnosis code E11.9 recorded', 'E11.9']], no: ['Seat E11 is free'] },
  health_plan_id: { yes: [['Member ID XYZ123456789', 'XYZ123456789']], no: ['Part XYZ123456789 shipped'] },
  us_mbi: { yes: [['Medicare MBI 1EG4-TE5-MK73', '1EG4-TE5-MK73']], no: ['Code 1SG4-TE5-MK73'] },
  btc_address: {
    yes: [
      ['Send to 1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'],
      ['BTC bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'],
    ],
    no: ['Send to 1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3', 'BTC bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdx'],
  },
  eth_address: { yes: [['ETH 0x52908400098527886E0F7030069857D2E4169EE7', '0x52908400098527886E0F7030069857D2E4169EE7']], no: ['Hash 0x5290840009852788'] },
  vin: {
    yes: [
      ['VIN 1HGCM82633A004352', '1HGCM82633A004352'],
      // Check digit valid without context (a Japanese WMI that uses it), and a European VIN that has none: region,
      // the four numeric last characters of ISO 3779.
      ['Copied JHMCM56557C404453 into the ticket.', 'JHMCM56557C404453'],
      ['It says WVWZZZ1KZ6W612345 in the attachment.', 'WVWZZZ1KZ6W612345'],
      // A North American WMI with a wrong check digit (a typo) is still a VIN when the text says so.
      ['VIN 5YJ3E1EA7KF317000 on file', '5YJ3E1EA7KF317000'],
    ],
    no: [
      'Serial 1HGCM82633A00435Z',
      'Code 1HGCM82633A004353',
      // North America requires the check digit: without it and without context, no VIN.
      'It says 5YJ3E1EA7KF317000 in the attachment.',
      // Check digit valid but U is no model-year code, region 0 does not exist, the last four are not digits.
      'Copied 1HGCM8261UA004352 into the ticket.',
      'Copied 0HGCM82633A004352 into the ticket.',
      'Copied WVWZZZ1KZ6W61234A into the ticket.',
      'Tracking number WVWZZZ1KZ6W612345 is out for delivery.',
    ],
  },
  license_plate: { yes: [['License plate 7ABC123 seen', '7ABC123']], no: ['Model 7ABC123 is sold out'] },
  coordinates: { yes: [['GPS 40.712776, -74.005974', '40.712776, -74.005974']], no: ['Prices 40.7, 74.0'] },
  us_zip_code: { yes: [['ZIP code 94105', '94105']], no: ['Quantity 94105 units'] },
  uk_postcode: { yes: [['Postcode SW1A 1AA', 'SW1A 1AA']], no: ['Reference QQ1 1AA'] },
  ca_postal_code: { yes: [['Postal code K1A 0B1', 'K1A 0B1']], no: ['Code D1A 0B1'] },
  de_postal_code: { yes: [['PLZ 10115 Berlin', '10115']], no: ['Quantity 10115 units'] },
  in_pin_code: { yes: [['PIN code 560001', '560001']], no: ['Quantity 560001 units'] },
  br_cep: { yes: [['CEP 01310-100', '01310-100']], no: ['Part 01310-1000'] },
  nl_postcode: { yes: [['Postcode 1012 AB Amsterdam', '1012 AB']], no: ['Flight 1012 SS'] },
  jp_postal_code: { yes: [['〒100-0001 Tokyo', '〒100-0001']], no: ['Call 100-0001 extension'] },
  username: {
    yes: [
      ['Username: jdoe_77', 'jdoe_77'],
      ['Follow @janedoe on social', '@janedoe'],
    ],
    no: ['Email jane@doe.com'],
  },
  password: {
    yes: [
      ['password: hunter2!', 'hunter2!'],
      ['Login exposed: edward.kim@bytecore.com / W!nter2024.', 'W!nter2024'],
    ],
    no: ['Reset your password tomorrow', 'Write to jane@corp.com / the help desk'],
  },
  biometric_identifier: { yes: [['Fingerprint template: AAECAwQFBgcICQ', 'AAECAwQFBgcICQ']], no: ['Template: AAECAwQFBgcICQ'] },
  photo: { yes: [['Patient photo: jdoe_face.jpg', 'jdoe_face.jpg']], no: ['Chart export: q3_sales.png'] },
  unique_identifier: {
    yes: [
      ['Patient id 3f2504e0-4f89-41d3-9a0c-0305e82c3301', '3f2504e0-4f89-41d3-9a0c-0305e82c3301'],
      // A code the text names as an identifier, in no format a specific recognizer knows.
      ["James Muller's passport number XG9382049 was shared.", 'XG9382049'],
      ['Insurance number 77422-AZC was swapped with medical file #MXC-438220.', '77422-AZC'],
      ['Insurance number 77422-AZC was swapped with medical file #MXC-438220.', '#MXC-438220'],
      ['HR lists employee ID 127854 and driver’s license K932-778-3840.', 'K932-778-3840'],
      ['Stored under account number 12435678X, ID number 24681357K.', '24681357K'],
    ],
    no: ['Build 3f2504e0 done', 'See case 12 in file 2023.', 'The user ID field is empty', 'Your account is 3 days overdue'],
  },
  nrp: { yes: [['Religion: Catholic', 'Catholic']], no: ['We had Chinese food'] },
  title: {
    yes: [
      ['Seen by Dr. Okonkwo today.', 'Dr.'],
      ['Kenji Watanabe, Chief Financial Officer, approved it.', 'Chief Financial Officer'],
      ['HR Manager Lisa Johnson confirmed the breach.', 'HR Manager'],
      ['It exposed the records of senior developer Alex Rivera.', 'senior developer'],
      ['The claims adjuster Samantha Brown noted it.', 'claims adjuster'],
      ['Troy Williams, Sports therapist at Simpson-Copeland, signed it.', 'Sports therapist'],
    ],
    no: ['The doctor will see you now.', 'Mark the box and send it.', 'The manager said no.', 'It compromised John Peterson.'],
  },
};

describe('recognizers', () => {
  it('cover at least 72 types, each with a positive and a negative case', () => {
    const ids = piiTypes().map((t) => t.id);
    expect(ids.length).toBeGreaterThanOrEqual(72);
    for (const id of ids) {
      expect(CASES[id]?.yes.length ?? 0).toBeGreaterThan(0);
      expect(CASES[id]?.no.length ?? 0).toBeGreaterThan(0);
    }
  });

  describe.each(Object.entries(CASES))('%s', (type, c) => {
    it.each(c.yes)('finds it in %j', (text, value) => {
      const found = detectText(text).filter((d) => d.type === type);
      expect(found.map((d) => d.text)).toContain(value);
      for (const d of found) expect(d.confidence).toBeGreaterThanOrEqual(0.5);
    });
    it.each(c.no)('does not find it in %j', (text) => {
      expect(detectText(text).filter((d) => d.type === type)).toEqual([]);
    });
  });
});

describe('identifiers named by their label', () => {
  it('leave a format a specific recognizer knows to that recognizer', () => {
    const types = (text: string): string[] => detectText(text).map((d) => d.type);
    expect(types('Passport number P12345678 on file.')).toContain('us_passport');
    expect(types('His account number 12345678 was frozen.')).toContain('bank_account');
    expect(types('His account number 12345678 was frozen.')).not.toContain('unique_identifier');
  });
});
