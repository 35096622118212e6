/**
 * Tests run on the compiled output (`npm test` builds first): workers, worker_threads and
 * child processes then load the same JavaScript the service runs, with no transform layer.
 */
module.exports = {
  // The host realm's typed arrays, so onnxruntime-node runs in tests as it does in the service.
  testEnvironment: '<rootDir>/dist/test/support/node-environment.js',
  roots: ['<rootDir>/dist'],
  testMatch: ['**/*.test.js'],
  globalSetup: '<rootDir>/dist/test/support/global-setup.js',
  globalTeardown: '<rootDir>/dist/test/support/global-teardown.js',
  testTimeout: 120000,
  // A test that leaves a Temporal worker polling (its stack's stop timed out) would keep Jest alive after the global
  // teardown stopped the server: end the run once it is reported (Jest names the forced exit).
  forceExit: true,
  verbose: true,
  reporters: ['default', '<rootDir>/dist/test/support/summary-reporter.js'],
};
