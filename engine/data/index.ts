/** Public API of the tabular data engine (DuckDB-backed). */
export { DataValidationError, TooManyCellsError, TooManyColumnsError, TooManyRowsError, UnsupportedFileTypeError } from './errors';
export { DEFAULT_MAX_COLUMNS } from './column-limit';
export { DEFAULT_MAX_CELLS, DEFAULT_MAX_ROWS } from './size-limit';
export { ColumnInfo, Dtype, CATEGORY_MAX_DISTINCT, CATEGORY_MAX_UNIQUE_RATIO } from './dtypes';
export { TextEncoding } from './detect';
export { ingestFile, IngestOptions, IngestResult, STORED_FILE_NAME } from './ingest';
export { analyze, DatasetProfile, ColumnProfile, NumericProfile, CategoricalProfile, MAX_CORRELATION_COLUMNS } from './profile';
export { Histogram } from './histogram';
export { qualityReport, QualityReport, QualityCheck, QualityPolicy, DEFAULT_QUALITY_POLICY, likelyTarget } from './quality';
export { compareVersions, VersionComparison, ColumnDiff } from './compare';
export {
  psiFromShares, psiFromCounts, numericPsi, categoricalPsi, quantileEdges, binCounts, shiftLevel, ShiftLevel, PSI_EPSILON, PSI_BINS,
} from './psi';
export { preview, sample, writeCsv, writeXlsx, JsonRow } from './export';
export { XLSX_MAX_ROWS } from './xlsx';
export { columnCardinality } from './cardinality';
export { referenceDistribution, driftReport, DriftReport, DriftFeatureSpec, FeatureDrift, ReferenceDistribution, DRIFT_MAX_CATEGORIES } from './drift';
export { readTextColumns, withTextRowBatches, TextColumn, TEXT_BATCH_ROWS } from './text-rows';
export { writeRankedRows, csvToParquet } from './subset';
export { typicalValues, TypicalValue } from './typical-values';
