/** npm version ranges, read with `semver` (the package npm itself uses). */
import semver from 'semver';

/**
 * The major version of a version or range when every version it allows has that major (`3.1.2`,
 * `^3.1.2`, `~3`, `3.x` give 3; `>=3`, `*`, `latest`, a URL give `undefined`).
 */
export function majorOfRange(range: string): number | undefined {
  const valid = semver.validRange(range.trim());
  if (!valid) return undefined;
  const lowest = semver.minVersion(valid);
  if (!lowest) return undefined;
  return semver.intersects(valid, `>=${lowest.major + 1}.0.0-0`, { includePrerelease: true }) ? undefined : lowest.major;
}
