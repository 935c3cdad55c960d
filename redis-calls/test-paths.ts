/**
 * Where the tests of a package are, by path: one definition for every reading that leaves tests
 * out (`cross-file-lifecycle.ts`: a test's DEL is no cleanup; `facades.ts`: a test's call makes no
 * production caller; `uncalled.ts`: a test's call does not make a wrapper called).
 */
import { relative } from 'node:path';
import { importersOf } from './importers.js';

/**
 * A module of the tests, not of the application (its `afterEach` DEL is no cleanup the application
 * runs): a test or spec file (`.test.ts`, `.spec.ts`, `.e2e-spec.ts`, `.e2e.ts`), a folder of
 * tests, end-to-end tests, mocks, fixtures or test helpers (`__tests__/`, `test/`, `e2e/`,
 * `cypress/`, `playwright/`, `testing/`, `test-utils/`, `mocks/`, `fixtures/`), a test runner's
 * setup or teardown (`jest.setup.ts`, `vitest.setup.ts`, `setupTests.ts`, `global-teardown.ts`).
 */
export const TEST_PATH =
  /(?:^|[\\/])(?:__tests__|__mocks__|__fixtures__|tests?|specs?|e2e|cypress|playwright|testing|test-?(?:utils|helpers|support)|mocks?|fixtures)[\\/]|\.(?:test|spec|e2e|e2e-spec)\.[cm]?[jt]sx?$|(?:^|[\\/])(?:(?:jest|vitest|playwright|cypress)\.(?:setup|teardown)[\w.-]*|setup-?tests|test-?setup|global-?(?:setup|teardown))\.[cm]?[jt]sx?$/i;

/**
 * Whether the module at `path` (of the package at `root`) is test code for a reading that leaves
 * a finding out when only tests call it (`uncalled.ts`, `import-callers.ts`): on a test path, and
 * imported by no module off test paths. A folder named like a test folder can be the application's
 * own (a sports application's `src/fixtures/`, an A/B `src/testing/`): when its routes import it,
 * its calls run in production. Importers are read from the package listing (`importers.ts`).
 */
export function testOnlyModule(root: string, path: string): boolean {
  if (!TEST_PATH.test(relative(root, path))) return false;
  return !importersOf(path, root).some((importer) => !TEST_PATH.test(relative(root, importer)));
}
