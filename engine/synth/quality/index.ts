/**
 * Judging synthetic data: SDMetrics' quality report and a distance-to-closest-record privacy check. Callers outside
 * engine/synth go through engine/synth's index.
 */
export { evaluateQuality, QualityOptions, QUALITY_MAX_ROWS, QUALITY_MAX_PAIRS, DEFAULT_REAL_CORRELATION_THRESHOLD, DEFAULT_REAL_ASSOCIATION_THRESHOLD } from './report';
export { privacyCheck, PrivacyOptions, PRIVACY_MAX_QUERY_ROWS, PRIVACY_MAX_REFERENCE_ROWS } from './privacy';
