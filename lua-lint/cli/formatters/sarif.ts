/**
 * SARIF 2.1.0 (https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html), the format of
 * GitHub code scanning and most security dashboards.
 *
 * `tool.driver.rules` lists every Lua rule, plus `parse-error`: a script that does not parse is
 * reported as a result of that pseudo-rule (level `error`), so that it shows up where the other
 * problems do instead of hiding in a tool notification. The warning for an ignored file named on
 * the command line, which concerns no code, is such a notification
 * (`invocations[0].toolExecutionNotifications`, with the file as location). Locations are relative to the working
 * directory (`uriBaseId` `%SRCROOT%`, whose absolute URI is in `originalUriBaseIds`); a file outside
 * it gets an absolute `file:` URI. Columns count UTF-16 code units (`columnKind`), as ESLint's do.
 */
import { pathToFileURL } from 'node:url';
import { RULES, RULE_IDS } from '../../rules.js';
import { CLI_DOCS_URL, REPOSITORY_URL } from '../package-info.js';
import { relativeInside } from '../paths.js';
import { STDIN_FILE_PATH, isFileMessage } from '../results.js';
import type { Formatter } from './types.js';

/** The rule id used in SARIF (and GitHub annotation titles) for a parse error. */
export const PARSE_ERROR_RULE_ID = 'parse-error';

/** The URI base id of every relative location. */
export const SRCROOT = '%SRCROOT%';

type Level = 'error' | 'warning';

const levelOf = (severity: 1 | 2): Level => (severity === 2 ? 'error' : 'warning');

function ruleDescriptors() {
  return [
    ...RULE_IDS.map((id) => ({
      id,
      shortDescription: { text: RULES[id].description },
      helpUri: RULES[id].docsUrl,
      defaultConfiguration: { level: levelOf(RULES[id].defaultSeverity) },
    })),
    {
      id: PARSE_ERROR_RULE_ID,
      shortDescription: { text: 'The script does not parse as Lua 5.1, so nothing else can be checked.' },
      helpUri: `${CLI_DOCS_URL}#parse-errors`,
      defaultConfiguration: { level: 'error' as Level },
    },
  ];
}

function artifactLocation(filePath: string, cwd: string): { uri: string; uriBaseId?: string } {
  if (filePath === STDIN_FILE_PATH) return { uri: encodeURIComponent(filePath), uriBaseId: SRCROOT };
  const relative = relativeInside(cwd, filePath);
  if (relative === undefined) return { uri: pathToFileURL(filePath).href };
  return { uri: relative.split('/').map(encodeURIComponent).join('/'), uriBaseId: SRCROOT };
}


/** The sarif formatter: one run, pretty-printed. */
export const sarif: Formatter = (results, context) => {
  const rules = ruleDescriptors();
  const ruleIndex = new Map(rules.map((rule, index) => [rule.id, index]));
  // A message about a whole file (an ignored file named on the command line) is no result of any
  // rule: it is a tool execution notification of the run, with the file as its location.
  const notifications = results.flatMap((result) =>
    result.messages
      .filter((message) => isFileMessage(message))
      .map((message) => ({
        level: levelOf(message.severity),
        message: { text: message.message },
        locations: [{ physicalLocation: { artifactLocation: artifactLocation(result.filePath, context.cwd) } }],
      })),
  );
  const sarifResults = results.flatMap((result) =>
    result.messages.filter((message) => !isFileMessage(message)).map((message) => {
      const ruleId = message.ruleId ?? PARSE_ERROR_RULE_ID;
      return {
        ruleId,
        ruleIndex: ruleIndex.get(ruleId) as number,
        level: levelOf(message.severity),
        message: { text: message.message },
        locations: [
          {
            physicalLocation: {
              artifactLocation: artifactLocation(result.filePath, context.cwd),
              region: {
                startLine: message.line,
                startColumn: message.column,
                endLine: message.endLine,
                endColumn: message.endColumn,
              },
            },
          },
        ],
      };
    }),
  );
  const log = {
    $schema: 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'lua-lint',
            version: context.version,
            semanticVersion: context.version,
            informationUri: REPOSITORY_URL,
            rules,
          },
        },
        originalUriBaseIds: { [SRCROOT]: { uri: pathToFileURL(context.cwd.endsWith('/') ? context.cwd : `${context.cwd}/`).href } },
        columnKind: 'utf16CodeUnits',
        ...(notifications.length > 0 ? { invocations: [{ executionSuccessful: true, toolExecutionNotifications: notifications }] } : {}),
        results: sarifResults,
      },
    ],
  };
  return JSON.stringify(log, null, 2);
};
