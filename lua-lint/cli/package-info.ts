/** Where lua-lint's documentation lives, for `--help` and the SARIF report. */
import { docsUrl } from '../../cli/package-info.js';

export { REPOSITORY_URL } from '../../cli/package-info.js';

/** The CLI reference page at the installed version's tag, also the help page of parse errors in SARIF output. */
export const CLI_DOCS_URL = docsUrl('docs/lua-lint.md');
