/** Shared shapes of the privacy engine: PII types, detections and the confidence buckets of the spec. */

export type PiiCategory = 'personal' | 'contact' | 'national_id' | 'financial' | 'network' | 'health' | 'crypto' | 'vehicle' | 'geography' | 'date';

/** What `GET /api/privacy/pii-types` lists for one type. */
export interface PiiTypeInfo {
  /** Stable id used in rules and results, e.g. `ssn`, `iban`, `date_of_birth`. */
  id: string;
  name: string;
  category: PiiCategory;
  /** ISO 3166 alpha-2 country of a national identifier or postal code. */
  country?: string;
  /** The strongest evidence the recognizer uses: `checksum`, `format`, `context`, `gazetteer`, `ner`. */
  evidence: string;
}

/** One PII span found in free text. Offsets are UTF-16 code units, `end` exclusive. */
export interface Detection {
  type: string;
  start: number;
  end: number;
  text: string;
  /** 0..1 */
  confidence: number;
  /** Why: `pattern`, `checksum`, `context`, `column_name`, `brand:visa`, `gazetteer`, `ner`, ... */
  evidence: string[];
}

export type ConfidenceBucket = 'high' | 'medium' | 'low';

/** The spec's buckets: high >= 0.9, medium 0.7-0.9, low < 0.7. */
export function confidenceBucket(confidence: number): ConfidenceBucket {
  return confidence >= 0.9 ? 'high' : confidence >= 0.7 ? 'medium' : 'low';
}
