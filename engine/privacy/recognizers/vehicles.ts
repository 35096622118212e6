/** Vehicle identifiers: VIN (with the North American check digit) and licence plates (context needed). */
import * as cs from '../checksums';
import { define, NEEDS_DIGIT, NEEDS_UPPER, type Recognizer } from './define';

export const VEHICLE_RECOGNIZERS: Recognizer[] = [
  define({
    id: 'vin',
    name: 'Vehicle identification number (VIN)',
    category: 'vehicle',
    pattern: '[A-HJ-NPR-Z0-9]{17}',
    // A valid position-9 check digit is strong; VINs outside North America need not carry one, so format + context.
    validate: (d) => /[A-Z]/.test(d) && /\d/.test(d) && (cs.vinValid(d) ? 0.92 : 0.35),
    score: 0.92,
    contextScore: 0.99,
    context: ['vin', 'vehicle', 'chassis', 'car', 'vehicle identification'],
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
