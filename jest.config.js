/**
 * One jest run for everything: unit tests beside the code (src/** /*.spec.ts) and e2e tests in
 * test/ (*.e2e-spec.ts) on the full application over real PostgreSQL (DATABASE_URL) or the
 * embedded PGlite, real Redis (REDIS_URL) and real Chromium. Types are checked by `tsc` in
 * `npm test`; ts-jest only transpiles here, to keep the run short on two cores.
 */
module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json' }] },
  testTimeout: 60000,
  maxWorkers: 2,
  // The files known to take longest start first: scripts/jest-sequencer.js.
  testSequencer: '<rootDir>/scripts/jest-sequencer.js',
  setupFiles: ['reflect-metadata'],
};
