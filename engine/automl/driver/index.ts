/** The AutoML driver: config, data preparation, the model plan, candidates, leaderboard order. */
export * from './config';
export * from './prepare';
export * from './plan';
export * from './candidate';
export * from './model-metrics';
export { readParquetFrame, readParquetFrameWithin, FrameRead } from './read';
export * from './ensemble';
