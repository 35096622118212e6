/**
 * Tests run on the compiled output (`npm test` builds first): workers, worker_threads and
 * child processes then load the same JavaScript the service runs, with no transform layer.
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/dist'],
  testMatch: ['**/*.test.js'],
  globalSetup: '<rootDir>/dist/test/support/global-setup.js',
  globalTeardown: '<rootDir>/dist/test/support/global-teardown.js',
  testTimeout: 120000,
  verbose: true,
};
