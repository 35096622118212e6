/**
 * Unit tests: no PostgreSQL and no Temporal dev server, so no global setup. The engine, platform/*.test (which must
 * need neither) and the workflows (each workflow test file starts its own time-skipping test server and mocks the
 * activities).
 * Run after a build, for example `npx tsc -p tsconfig.json && npx jest -c jest.unit.config.js` (`npm run test:unit`).
 * `npm test` (jest.config.js) runs these too, beside the integration tests.
 */
module.exports = {
  // The host realm's typed arrays, so onnxruntime-node runs in tests as it does in the service.
  testEnvironment: '<rootDir>/dist/test/support/node-environment.js',
  roots: ['<rootDir>/dist/engine', '<rootDir>/dist/platform', '<rootDir>/dist/test/workflows'],
  testMatch: ['**/*.test.js'],
  testTimeout: 300000,
  verbose: true,
  reporters: ['default', '<rootDir>/dist/test/support/summary-reporter.js'],
};
