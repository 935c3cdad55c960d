import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // A minute each, in `npm run test:ci` (vitest.ci.config.ts; CI runs both).
    // fixtures are code the rules lint (a fixture application's own tests too), never suites
    exclude: ['tests/consumer/**', 'tests/isolation/named-server.test.ts', 'tests/fixtures/**', '**/node_modules/**'],
    globalSetup: ['tests/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
