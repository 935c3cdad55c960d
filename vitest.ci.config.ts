import { defineConfig } from 'vitest/config';

// `npm run test:ci`: the tests that take a minute each, apart from `npm test`; CI runs both.
// - tests/consumer/: both packages packed and installed into fresh projects (npm, tsc, ESLint);
// - tests/isolation/named-server.test.ts: every Redis test file again, against a server named
//   with REDIS_TEST_URL, which must be left as found.
// One after the other (vitest's default on 2 cores): side by side they saved little on a busy
// machine and made the timing-sensitive tests of the named-server run share the CPU with tsc.
export default defineConfig({
  test: {
    include: ['tests/consumer/**/*.test.ts', 'tests/isolation/named-server.test.ts'],
    globalSetup: ['tests/helpers/global-setup.ts'],
    testTimeout: 360_000,
    hookTimeout: 300_000,
    fileParallelism: false,
  },
});
