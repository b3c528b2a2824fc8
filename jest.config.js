/** Jest in ESM mode (NestJS 12 is ES modules only): run through `npm test`. */
export default {
  // Node's, plus a line naming a test file that leaves a server, socket, process or timer open.
  testEnvironment: '<rootDir>/test/reporters/open-resources-environment.mjs',
  roots: ['<rootDir>/libs', '<rootDir>/apps', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    '^@hostboard/([a-z-]+)$': '<rootDir>/libs/$1/src/index.ts',
    '^@hostboard/([a-z-]+)/(.*)\\.js$': '<rootDir>/libs/$1/src/$2.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
    // libphonenumber-js's ES build imports its metadata JSON without an import attribute, which Jest
    // warns about on every import (144 lines a run); its CommonJS build reads the same JSON with require.
    '^libphonenumber-js$': '<rootDir>/node_modules/libphonenumber-js/index.cjs',
    '^libphonenumber-js/(max|min|mobile|core)$': '<rootDir>/node_modules/libphonenumber-js/$1/index.cjs',
  },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: '<rootDir>/tsconfig.spec.json', diagnostics: false }],
  },
  testTimeout: 120000,
  maxWorkers: 2,
  // A worker past 600 MB of heap is replaced before its next file: test/reporters/open-resources-environment.mjs.
  // A worker with a large heap takes 0.6-0.8 s to exit after the end of the run (Node tearing down every
  // test file's modules, which Node 20 keeps: measured with strace from the 'exit' event to exit_group at
  // 440 MB of heap). Jest's default of 500 ms killed such workers mid-exit: "A worker process has failed
  // to exit gracefully". A worker that really hangs is still named by the environment after 400 ms.
  workerGracefulExitTimeout: 5000,
  reporters: ['default', '<rootDir>/test/reporters/skip-reasons.mjs'],
};
