/**
 * npm as the consumer tests run it: quiet, from npm's cache when it can (`--prefer-offline`: what
 * `npm ci` just fetched), and both packages packed as `npm publish` would pack them.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ROOT } from '../helpers/build.js';

const exec = promisify(execFile);

/** What npm needs to install from its cache and stay quiet. */
export const NPM_ENV = {
  ...process.env,
  npm_config_prefer_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
  npm_config_loglevel: 'error',
};

/** A tarball as `npm pack --json` describes it. */
export interface Packed {
  name: string;
  filename: string;
  files: { path: string }[];
  /** Bytes of the .tgz, and of its files unpacked. */
  size: number;
  unpackedSize: number;
}

/** Runs `command` with `sh -c` in `cwd` under {@link NPM_ENV} (4 minutes at most); rejects on a non-zero exit. */
export function sh(command: string, cwd: string): Promise<{ stdout: string; stderr: string }> {
  return exec('sh', ['-c', command], { cwd, env: NPM_ENV, maxBuffer: 32 * 1024 * 1024, timeout: 240_000 });
}

/**
 * Packs both packages into `destination` with `npm pack --ignore-scripts` (the caller builds them
 * first), doing what the root's prepack/postpack do around a real pack: the published
 * package.json has no `prepare`, the repository's keeps it.
 */
export async function packBoth(destination: string): Promise<Packed[]> {
  await exec('node', ['scripts/pack-manifest.mjs', 'strip'], { cwd: ROOT });
  try {
    const { stdout } = await exec('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', destination, '--workspace=redis-ttl-runtime', '--include-workspace-root'], {
      cwd: ROOT,
      env: NPM_ENV,
      maxBuffer: 32 * 1024 * 1024,
    });
    return JSON.parse(stdout) as Packed[];
  } finally {
    await exec('node', ['scripts/pack-manifest.mjs', 'restore'], { cwd: ROOT });
  }
}
