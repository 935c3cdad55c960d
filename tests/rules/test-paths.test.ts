/**
 * The one definition of a test's path (`redis-calls/test-paths.ts` TEST_PATH), which the
 * cross-file lifecycle reading (related modules), the facade reachability (`facades.ts`: a call
 * from a test makes no production caller) and the uncalled-wrapper reading share. Paths are
 * relative to the package root, with `/` or `\`.
 */
import { describe, expect, it } from 'vitest';
import { TEST_PATH } from '../../redis-calls/test-paths.js';
import { TEST_PATH as LIFECYCLE_TEST_PATH } from '../../redis-calls/cross-file-lifecycle.js';

/** Paths that were tests for both readings before they shared one definition. */
const alwaysTests = ['__tests__/cache.ts', 'src/__mocks__/redis.ts', 'test/cache.ts', 'tests/helpers.ts', 'src/spec/a.ts', 'src/cache.test.ts', 'src/cache.spec.tsx', 'lib/a.test.mjs', 'src\\__tests__\\a.ts'];
/** Paths the facade reading took for application code before (its narrower definition), tests now. */
const nowTestsForFacades = [
  'src/__fixtures__/a.ts',
  'specs/a.ts',
  'e2e/login.ts',
  'cypress/support/commands.ts',
  'playwright/auth.ts',
  'src/testing/redis.ts',
  'src/test-utils/redis.ts',
  'src/testutils/redis.ts',
  'test-helpers/a.ts',
  'test-support/a.ts',
  'src/mocks/redis.ts',
  'mock/redis.ts',
  'fixtures/a.ts',
  'apps/web/login.e2e.ts',
  'apps/api/app.e2e-spec.ts',
  'jest.setup.ts',
  'vitest.setup.mts',
  'src/setupTests.ts',
  'src/setup-tests.js',
  'test-setup.ts',
  'global-setup.ts',
  'globalTeardown.js',
  'Tests/a.ts',
  'src/Cache.Test.ts',
];
/** Application paths, also when a name only contains a test word. */
const application = [
  'src/cache.ts',
  'src/latest/cache.ts',
  'src/contest/score.ts',
  'src/specs.ts',
  'src/testimonials/list.ts',
  'src/attestation.ts',
  'src/mockup/page.ts',
  'src/e2e-encryption.ts',
  'src/setup.ts',
  'src/cache.test-data.json',
  'src/fixture.ts',
];

describe('TEST_PATH', () => {
  it('matches the paths of tests, their helpers, mocks, fixtures and runner setups', () => {
    for (const path of [...alwaysTests, ...nowTestsForFacades]) expect([path, TEST_PATH.test(path)]).toEqual([path, true]);
  });

  it('does not match the application', () => {
    for (const path of application) expect([path, TEST_PATH.test(path)]).toEqual([path, false]);
  });

  it('is the definition cross-file-lifecycle.ts exports (uncalled.ts reads it there)', () => {
    expect(LIFECYCLE_TEST_PATH).toBe(TEST_PATH);
  });
});
