/**
 * Engine unit tests only: no PostgreSQL, no Temporal. Run after a build, for example
 * `npx tsc -p tsconfig.json && npx jest -c jest.unit.config.js`.
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/dist/engine'],
  testMatch: ['**/*.test.js'],
  testTimeout: 300000,
  verbose: true,
};
