/** Vehicle identifiers: VIN (ISO 3779 structure, the North American check digit) and licence plates (context needed). */
import * as cs from '../checksums';
import { define, NEEDS_DIGIT, NEEDS_UPPER, type Recognizer } from './define';

/** Model-year codes of position 10 (North America, China): 1-9 and letters other than I, O, Q, U, Z. */
const MODEL_YEAR = /^[1-9A-HJ-NPR-TV-Y]$/;

/**
 * The base confidence of a 17-character VIN candidate (already in the VIN alphabet, without I, O and Q), from what a
 * real VIN carries: a WMI whose first character is a region (ISO 3780: A-H Africa, J-R Asia, S-Z Europe, 1-5 North
 * America, 6-7 Oceania, 8-9 South America; 0 is unassigned) and a vehicle indicator section whose last four
 * characters are digits (ISO 3779). North America (and the check digit elsewhere where it is used) adds position 9:
 * a weighted sum mod 11 that a random string passes once in 11, and a model-year code at position 10. Where that
 * check is mandatory (WMI 1-5) a failed check digit leaves only context; elsewhere it is optional (most European
 * VINs have none), so the structure alone is medium evidence. Context words raise either to contextScore.
 */
export function vinScore(vin: string): number | false {
  if (!/[A-Z]/.test(vin) || !/\d/.test(vin)) return false;
  const structured = vin[0] !== '0' && /\d{4}$/.test(vin);
  if (!structured) return 0.35;
  const northAmerican = vin[0] >= '1' && vin[0] <= '5';
  if (cs.vinValid(vin)) return !northAmerican || MODEL_YEAR.test(vin[9]) ? 0.92 : 0.35;
  return northAmerican ? 0.35 : 0.6;
}

export const VEHICLE_RECOGNIZERS: Recognizer[] = [
  define({
    id: 'vin',
    // The WMI (manufacturer) stays, like an IBAN's country: a fake keeps its region and the rules that come with it.
    fakeKeep: 3,
    name: 'Vehicle identification number (VIN)',
    category: 'vehicle',
    pattern: '[A-HJ-NPR-Z0-9]{17}',
    validate: (d) => vinScore(d),
    score: 0.92,
    contextScore: 0.99,
    context: ['vin', 'vehicle', 'chassis', 'car', 'vehicle identification'],
    // 17-character order, tracking and key codes that happen to fit the structure.
    negativeContext: ['order', 'invoice', 'tracking', 'reference', 'ref', 'ticket', 'sku', 'product key', 'license key', 'licence key', 'api key', 'token'],
    columnHint: '(^|_)vin($|_)|chassis',
    needs: NEEDS_DIGIT | NEEDS_UPPER,
  }),
  define({
    id: 'license_plate',
    name: 'Vehicle licence plate',
    category: 'vehicle',
    pattern: '(?=[A-Z0-9 -]*\\d)(?=[A-Z0-9 -]*[A-Z])[A-Z0-9]{1,4}[- ]?[A-Z0-9]{2,4}(?:[- ][A-Z0-9]{1,4}){0,2}',
    validate: (d) => d.length >= 4 && d.length <= 10,
    evidence: 'context',
    score: 0.1,
    contextScore: 0.85,
    context: ['plate', 'license plate', 'licence plate', 'number plate', 'registration', 'reg', 'tag', 'plates'],
    columnHint: 'plate|registration|(^|_)reg(_|$)',
    needs: NEEDS_DIGIT | NEEDS_UPPER,
  }),
];
