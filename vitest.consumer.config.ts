import { defineConfig } from 'vitest/config';

// `npm run test:consumer`: the packages packed and installed into fresh projects (tests/consumer/).
// Apart from `npm test` because it runs npm itself (about a minute); CI runs both.
export default defineConfig({
  test: {
    include: ['tests/consumer/**/*.test.ts'],
    globalSetup: ['tests/helpers/global-setup.ts'],
    testTimeout: 180_000,
    hookTimeout: 300_000,
    fileParallelism: false,
  },
});
