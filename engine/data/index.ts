/** Public API of the tabular data engine (DuckDB-backed). */
export { DataValidationError, UnsupportedFileTypeError } from './errors';
export { ColumnInfo, Dtype, CATEGORY_MAX_DISTINCT, CATEGORY_MAX_UNIQUE_RATIO } from './dtypes';
export { TextEncoding } from './detect';
export { ingestFile, IngestResult, STORED_FILE_NAME } from './ingest';
export { analyze, DatasetProfile, ColumnProfile, NumericProfile, CategoricalProfile } from './profile';
export { Histogram } from './histogram';
export { qualityReport, QualityReport, QualityCheck, QualityPolicy, DEFAULT_QUALITY_POLICY, likelyTarget } from './quality';
export { compareVersions, VersionComparison, ColumnDiff } from './compare';
export {
  psiFromShares, psiFromCounts, numericPsi, categoricalPsi, quantileEdges, binCounts, shiftLevel, ShiftLevel, PSI_EPSILON, PSI_BINS,
} from './psi';
export { preview, sample, writeCsv, writeXlsx, JsonRow } from './export';
export { XLSX_MAX_ROWS } from './xlsx';
export { columnCardinality } from './cardinality';
