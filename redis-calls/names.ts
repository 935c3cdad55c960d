/**
 * Names that say what a value is, in one place: the word lists the key rules read in the code's
 * own names (identifiers, properties, key text) where nothing more exact is known. Each is a
 * heuristic of the key policy, tested where it is used; none states a Redis fact (those live in
 * `semantics/`).
 */

/** A name or key text that says a TTL value: `ttl`, `expiresIn`, `maxAge`, `lifetime` (opaque-key.ts). */
export const TTL_VALUE_NAME = /ttl|expir|maxage|lifetime/i;

/**
 * A name that says a test is about the TTL even when the other arm's TTL argument is spelled
 * otherwise (optional-ttl.ts): {@link TTL_VALUE_NAME}'s words and `persist`, `timeout`, `duration`
 * (`if (options.persist) set(k, v) else set(k, v, 'EX', ttl)`).
 */
export const TTL_NAME = /ttl|expir|persist|lifetime|maxage|timeout|duration/i;

/** A helper or binding named as a key (`getKey`, `keyQueuePending`, `KEYS`) (opaque-key.ts). */
export const KEY_NAME = /key/i;

/** One word of a name that says a key is meant to expire (`getCacheKey`, `session_id`, `rateLimiter`) (opaque-key.ts). */
export const TEMPORARY_WORD =
  /^(?:cach\w*|sessions?|locks?|locking|mutex\w*|semaphores?|tokens?|otps?|nonces?|limit\w*|ratelimit\w*|throttl\w*|temp|tmp|temporary|ttls?|expir\w*|leases?|verif\w*|captchas?|idempot\w*|dedup\w*)$/i;

/** Words of a key or a value that say the key is a lock: a crashed owner holds it forever (lifecycle.ts). */
export const LOCK_WORDS = /lock|mutex|semaphore|leader|lease|mutual|token|owner|nonce|uuid/i;

/** A parameter name that says the key is a queue: `queue`, `queueName`, `listKey`, `streamName`, `jobs`, `inbox` (lifecycle.ts). */
export const QUEUE_NAME = /queue|list|stream|channel|topic|inbox|outbox|backlog|jobs|tasks/i;

/**
 * A parameter name that says the name of a queue or lane, one of the few the code's configuration
 * sets up: `queueName`, `queue`, `lane`, `targetQueueName`, `queue_name`. Not an id or a key of one
 * (`queueId`, `queueKey`), not a plural (`queues`), not a generic `name` or `type`; not a stream or
 * a topic (an MQTT or Socket.IO topic is the client's choice, event-sourcing keeps a stream per
 * record), nor a queue made per client or per call (`replyQueueName`, `userQueueName`,
 * `tempQueueName`) (bounded.ts namesQueue; review41).
 */
export const QUEUE_NAME_VALUE = /^(?:queue|lane)(?:Name|_name)?$|^(?!(?:reply|callback|temp|tmp|user|client|private|exclusive|session|response)[A-Z])[a-z][a-zA-Z0-9]*(?:Queue|Lane)Name$/;

/**
 * A parameter name that says request input: a handler's `req`, `request`, `input` (tRPC), `body`,
 * `query`, `payload`, `args` (GraphQL), `ctx`, `event`: a queue name read from one of these is the
 * caller's choice, not the configuration's (bounded.ts namesQueue).
 */
export const REQUEST_INPUT_NAME = /^(?:req|request|input|body|query|payload|args|ctx|context|event)$/i;

/** A name that says "identifier" or "sequence": `id`, `jobId`, `job_id`, `nextID`, `seq` (lifecycle.ts). */
export const ID_NAME = /(?:^|[_\-:./])(?:id|ID|Id|seq|sequence)$|^(?:next_?id|nextId|nextID)$|[a-z0-9](?:Id|ID)$/;

/** A name that says limit: `MAX_FAILED_ATTEMPTS`, `limit`, `options.max`, `threshold`, `maxRetries`, `ALLOWED` (lifecycle.ts). */
export const LIMIT_NAME = /limit|max|threshold|allowed|quota|ceiling/i;

/** A name that says a build or deploy id: `BUILD_ID`, `buildId`, `this.BUILD_ID`, `deploymentId`, `DEPLOY_ID` (key-shape.ts). */
export const BUILD_ID_NAME = /\b(?:BUILD_?ID|[bB]uild_?[iI]d|DEPLOY(?:MENT)?_?ID|[dD]eploy(?:ment)?_?[iI]d)\b/;

/** The words of a name or expression: `getQueueKeys` gives get, Queue, Keys; `rate_limit:x` gives rate, limit, x. */
export function wordsOf(text: string): string[] {
  return text.match(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+/g) ?? [];
}

/**
 * One word of a key that names it a lock (locks.ts releasedUnexpiringLock): `jobs:sync:lock`,
 * `syncLock`, `mutex:rebuild`, `leader`, `lease:worker`; a word, so `leaderboard`, `blocked` and
 * `clock` are not.
 */
export const LOCK_KEY_WORD = /^(?:locks?|locked|locking|mutex(?:es)?|semaphores?|leader|leases?)$/i;
