/**
 * The project-wide fact "this application builds no Cluster client": a script can reach a Redis
 * Cluster only through a cluster client (`semantics/cluster-clients.ts`), and an application
 * (`redis-calls/project.ts`: `"private": true`, or its `main` is its `bin`) is imported by nobody,
 * so every client its code uses is one its own code builds. When none of its source files even
 * mentions a cluster (`CLUSTER_CLIENT_TEXT`, in any letter case: `new Redis.Cluster`,
 * `createCluster`, `GlideClusterClient`, a wrapper's `type: 'cluster'`; a comment or Node's
 * `cluster` module counts too, which only keeps remarks), no script of it runs on a Cluster. A
 * file naming `@upstash/redis` or `@vercel/kv` (`KEYS_ROUTED_CLIENT_TEXT`: Upstash routes scripts
 * by their KEYS) counts as a mention.
 *
 * Not a fact for a library (its users hand it their clients), for a workspace member (a sibling
 * package may build the Cluster client and pass it in), nor for a package too large to list
 * (`packageFiles`'s bound). The scan reads each file once, stops at the first mention, and is
 * cached per package root for {@link LISTING_TTL_MS} milliseconds, as the listing is.
 */
import { readFileSync } from 'node:fs';
import { CLUSTER_CLIENT_TEXT, KEYS_ROUTED_CLIENT_TEXT } from '../semantics/cluster-clients.js';
import { LISTING_TTL_MS, packageFiles, packageOf } from './project.js';
import { listedAsWorkspace } from './resolve.js';
import type { AnyContext } from './static.js';

const verdicts = new Map<string, { at: number; clusterFree: boolean }>();

/** Whether some file of `files` mentions a cluster (an unreadable file counts as one that may). */
function mentionsCluster(files: readonly string[]): boolean {
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return true;
    }
    // Upstash routes a script by its KEYS too: its application keeps the remark
    if (CLUSTER_CLIENT_TEXT.test(text) || KEYS_ROUTED_CLIENT_TEXT.test(text)) return true;
  }
  return false;
}

/**
 * Whether the linted file belongs to an application that is no workspace member and whose source
 * files never mention a cluster: then every client it uses talks to one server.
 */
export function applicationWithoutClusterClient(context: AnyContext): boolean {
  const file = context.physicalFilename ?? context.filename;
  const pkg = packageOf(file);
  if (!pkg?.application || listedAsWorkspace(pkg.root)) return false;
  const now = Date.now();
  const cached = verdicts.get(pkg.root);
  if (cached && now - cached.at < LISTING_TTL_MS) return cached.clusterFree;
  const files = packageFiles(pkg.root);
  const clusterFree = files !== undefined && files.length > 0 && !mentionsCluster(files);
  verdicts.set(pkg.root, { at: now, clusterFree });
  return clusterFree;
}
