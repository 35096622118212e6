/**
 * Engine unit tests only: no PostgreSQL, no Temporal. Run after a build, for example
 * `npx tsc -p tsconfig.json && npx jest -c jest.unit.config.js`.
 */
module.exports = {
  // The host realm's typed arrays, so onnxruntime-node runs in tests as it does in the service.
  testEnvironment: '<rootDir>/dist/test/support/node-environment.js',
  roots: ['<rootDir>/dist/engine'],
  testMatch: ['**/*.test.js'],
  testTimeout: 300000,
  verbose: true,
};
