/** Jest in ESM mode (NestJS 12 is ES modules only): run through `npm test`. */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/libs', '<rootDir>/apps', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    '^@hostboard/([a-z-]+)$': '<rootDir>/libs/$1/src/index.ts',
    '^@hostboard/([a-z-]+)/(.*)\\.js$': '<rootDir>/libs/$1/src/$2.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: '<rootDir>/tsconfig.spec.json', diagnostics: false }],
  },
  testTimeout: 120000,
  maxWorkers: 2,
};
