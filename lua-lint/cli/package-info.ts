/** Where lua-lint's documentation lives, for `--help` and the SARIF report. */
import { DOCS_BASE_URL } from '../rules.js';

/** The repository's home page (`https://github.com/<owner>/<repo>`), derived from the rule docs URL. */
export const REPOSITORY_URL = DOCS_BASE_URL.replace(/\/blob\/.*$/, '');

/** The CLI reference page, also the help page of parse errors in SARIF output. */
export const CLI_DOCS_URL = new URL('../lua-lint.md', DOCS_BASE_URL).href;
