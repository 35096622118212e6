/**
 * engine/privacy: PII detection and transformation, pure (no HTTP, no database, no Temporal). The only door callers use.
 *
 * Types
 * - `piiTypes()`: the 88 PII types `{id, name, category, country?, evidence}` (`GET /api/privacy/pii-types`).
 * - `confidenceBucket(c)`: `high` (>= 0.9), `medium` (0.7-0.9), `low` (< 0.7).
 *
 * Detection
 * - `detectText(text, {types?, minConfidence = 0.5})` → `{type, start, end, text, confidence, evidence}[]`, overlaps
 *   resolved (highest confidence, then longest span). Evidence names what supported it: `checksum`, `context`,
 *   `brand:visa`, `gazetteer`, `title`, `libphonenumber`...
 * - `detectColumns(columns: {name, values}[], {sampleSize?, deepScan?, types?, minShare = 0.5, minConfidence = 0.5})`
 *   → per column at most one column-level finding `{column, piiType, confidence, scope: 'column', instances,
 *   scanned, share, evidence, samples (masked)}`, plus with deepScan the types found inside free-text cells
 *   (`scope: 'cells'`).
 *
 * Actions (`ACTIONS`, `applyAction(action, value, piiType, config, secrets) → {value, dropColumn?}`)
 * - mask {char, visible, from, keepSeparators}; hash {length, prefix} (HMAC-SHA256, `secrets.hmacSecret`);
 *   redact {replacement}; encrypt (AES-256-GCM, `secrets.encryptionKey` + `keyId`; token
 *   `enc:v1:<keyId>:<iv>:<tag>:<ciphertext>`, base64url; `decrypt(token, secrets)` reverses it); generalize
 *   {dateTo, ageBand, postalPrefix, gridDegrees, ipv4Prefix}; suppress {scope: 'cell' | 'column'} (null, and
 *   `dropColumn` for the caller); pseudonymize (`secrets.hmacSecret`: the same input gets the same valid fake).
 * - `transformText(text, detections, rulesByType, secrets)` applies rules to the spans of a free-text value.
 *
 * Named entities
 * - `nerEntities(text)` → `{label, start, end, score}[]`: spaCy `en_core_web_sm`'s entities (OntoNotes labels), its
 *   inference ported to TypeScript (./ner); [] with a warning when the model (NER_MODEL_DIR) is missing.
 *
 * Profiles
 * - `profiles()`, `profileById(id)`: hipaa (18 Safe Harbor identifiers, redact), gdpr (pseudonymize), pci_dss
 *   (mask), ccpa (hash), custom (mask, no types); each identifier with its clause and covered engine types.
 */
export { confidenceBucket, type ConfidenceBucket, type Detection, type PiiCategory, type PiiTypeInfo } from './types';
export { piiTypes } from './recognizers';
export { configureEntityTagger, detectText, detectionsBeforeTagger, type DetectTextOptions } from './detect-text';
export { TAGS as TAGGER_TAGS, TaggerModel, TaggerTrainer, setTaggerModelForTests, tokenInputs as taggerInputs, tokenize as taggerTokens, type TokenInput } from './tagger';
export type { TaggerMode } from './tagger/merge';
export { classesOfWords, decodeWordClasses, encodeWordClasses, wordClassesPath } from './tagger/word-classes';
/** spaCy's string hash (the setup maps a vocabulary's strings to its rows by it). */
export { hashString } from './ner/hash';
export { detectColumns, type ColumnFinding, type ColumnInput, type DetectColumnsOptions } from './detect-columns';
export { ACTIONS, applyAction, decrypt, isAction, isEncryptedToken, type ActionConfig, type ActionId, type ActionResult, type ProjectSecrets } from './actions';
export { transformText, type TextRule, type TransformedText } from './transform-text';
export { profiles, profileById, type Profile, type ProfileId, type ProfileIdentifier } from './profiles';
export { nerEntities, nerAvailable, configureNer, defaultNerModelDir, nerModelPaths, NER_FORMAT_VERSION, NER_MODEL_NAME, type NerEntity, type NerManifest, type MoveSpec, type TensorRef } from './ner';
