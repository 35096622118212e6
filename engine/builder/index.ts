/** The builder's engine: a closed set of typed data-preparation operations, validated, previewed and run by DuckDB. */
export * from './operations';
