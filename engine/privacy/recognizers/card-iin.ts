/**
 * Payment card schemes by issuer identification number (IIN, the leading digits) and length, after the schemes'
 * published ranges: each row a brand, its prefixes (single prefixes or inclusive ranges of equally long prefixes), its
 * lengths, and how sure a Luhn-valid number of that shape is to be a card. Rows are tried in order, so the specific
 * ranges come before the broad ones they overlap (Mir 2200-2204 before nothing else claims 22; Maestro's named
 * prefixes before its whole 50/56-58 space). Every scheme here uses the Luhn check digit.
 */

interface Scheme {
  brand: string;
  /** "51-55,2221-2720": prefixes and inclusive ranges of prefixes of the same length. */
  prefixes: string;
  /** "16", "13,16,19", "16-19". */
  lengths: string;
  /** Base confidence of a Luhn-valid number of this shape in free text (before context words). */
  score: number;
}

const SCHEMES: Scheme[] = [
  { brand: 'visa', prefixes: '4', lengths: '13,16,19', score: 0.92 },
  { brand: 'mastercard', prefixes: '51-55,2221-2720', lengths: '16', score: 0.92 },
  { brand: 'amex', prefixes: '34,37', lengths: '15', score: 0.92 },
  { brand: 'mir', prefixes: '2200-2204', lengths: '16-19', score: 0.92 },
  { brand: 'jcb', prefixes: '3528-3589', lengths: '16-19', score: 0.92 },
  { brand: 'jcb', prefixes: '1800,2131', lengths: '15', score: 0.88 },
  { brand: 'diners', prefixes: '300-305,3095,36,38-39', lengths: '14-19', score: 0.9 },
  { brand: 'discover', prefixes: '6011,644-649,65,622126-622925', lengths: '16-19', score: 0.92 },
  { brand: 'unionpay', prefixes: '62,8100-8171', lengths: '16-19', score: 0.9 },
  { brand: 'rupay', prefixes: '60,508,353,356,82', lengths: '16', score: 0.88 },
  { brand: 'troy', prefixes: '9792', lengths: '16', score: 0.88 },
  { brand: 'verve', prefixes: '506099-506198,507865-507964,650002-650027', lengths: '16,18,19', score: 0.88 },
  { brand: 'dankort', prefixes: '5019', lengths: '16', score: 0.9 },
  { brand: 'hipercard', prefixes: '606282,3841', lengths: '16,19', score: 0.88 },
  { brand: 'elo', prefixes: '401178,401179,431274,438935,451416,457393,457631,457632,504175,506699-506778,509000-509999,627780,636297,636368', lengths: '16', score: 0.88 },
  { brand: 'maestro', prefixes: '5018,5020,5038,5893,6304,6759,6761-6763,0604,6390', lengths: '12-19', score: 0.88 },
  { brand: 'instapayment', prefixes: '637-639', lengths: '16', score: 0.85 },
  { brand: 'interpayment', prefixes: '636', lengths: '16-19', score: 0.85 },
  { brand: 'lankapay', prefixes: '357111', lengths: '16', score: 0.85 },
  // JCB's block 35 outside its assigned range, Maestro's whole space and UATP's 15-digit 1: a Luhn-valid number of
  // that shape is a card less surely (a tenth of all such numbers pass Luhn), so context words have to confirm it.
  { brand: 'jcb', prefixes: '35', lengths: '16-19', score: 0.8 },
  { brand: 'maestro', prefixes: '50,56-58,67,69', lengths: '12-19', score: 0.6 },
  { brand: 'uatp', prefixes: '1', lengths: '15', score: 0.4 },
];

interface Range {
  lo: number;
  hi: number;
  digits: number;
}

interface CompiledScheme {
  brand: string;
  ranges: Range[];
  lengths: Set<number>;
  score: number;
}

function parseLengths(spec: string): Set<number> {
  const out = new Set<number>();
  for (const part of spec.split(',')) {
    const [a, b] = part.split('-').map(Number);
    for (let n = a; n <= (b ?? a); n++) out.add(n);
  }
  return out;
}

const COMPILED: CompiledScheme[] = SCHEMES.map((s) => ({
  brand: s.brand,
  lengths: parseLengths(s.lengths),
  score: s.score,
  ranges: s.prefixes.split(',').map((p) => {
    const [lo, hi] = p.split('-');
    return { lo: Number(lo), hi: Number(hi ?? lo), digits: lo.length };
  }),
}));

/** The scheme whose IIN range and length the card number (digits only) fits, or undefined. */
export function cardScheme(d: string): { brand: string; score: number } | undefined {
  for (const s of COMPILED) {
    if (!s.lengths.has(d.length)) continue;
    for (const r of s.ranges) {
      const p = Number(d.slice(0, r.digits));
      if (p >= r.lo && p <= r.hi && d.slice(0, r.digits).length === r.digits) return { brand: s.brand, score: s.score };
    }
  }
  return undefined;
}
