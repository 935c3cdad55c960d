/**
 * Reads the `expect:` annotations of the handed cases (see ../shared/cases/README.md):
 * a trailing `-- expect: rule-a, rule-b` (Lua) or `// expect: rule` (JS/TS) marks the line on which
 * each finding must start; `// expect-at N: rule` names line N explicitly. `parse-error` stands for
 * a fatal parse finding (ruleId null).
 */

/** One expected finding: `rule@line`. */
export type Expectation = `${string}@${number}`;

/**
 * The expected findings of a fixture, sorted.
 * @param source the fixture text
 * @param comment the line-comment marker of its language (`--` or `//`)
 */
export function expectedFindings(source: string, comment: '--' | '//'): Expectation[] {
  const out: Expectation[] = [];
  const marker = comment === '--' ? '--' : '\\/\\/';
  const expect = new RegExp(`${marker}\\s*expect:\\s*([\\w,\\s-]+?)\\s*$`);
  const expectAt = new RegExp(`${marker}\\s*expect-at\\s+(\\d+)\\s*:\\s*([\\w,\\s-]+?)\\s*$`);
  source.split(/\r\n|\r|\n/).forEach((line, index) => {
    const at = expectAt.exec(line);
    if (at) {
      for (const rule of at[2]!.split(',')) out.push(`${rule.trim()}@${Number(at[1])}`);
      return;
    }
    const plain = expect.exec(line);
    if (plain) for (const rule of plain[1]!.split(',')) out.push(`${rule.trim()}@${index + 1}`);
  });
  return out.sort();
}
