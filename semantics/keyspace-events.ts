/**
 * Keyspace notifications, https://redis.io/docs/latest/develop/use/keyspace-notifications/: when
 * `notify-keyspace-events` enables them (`E` or `K` with `x`), Redis publishes an `expired` event
 * each time it deletes a key whose TTL ran out, on the key-event channel `__keyevent@<db>__:expired`
 * (the message is the key's name) and on the key-space channel `__keyspace@<db>__:<key>` (the
 * message is the event name, `expired`). A subscriber to either runs code when a key expires.
 */

/** The key-event channel of expiries, one database (`__keyevent@0__:expired`) or a pattern over all (`__keyevent@*__:expired`). */
export const EXPIRED_KEYEVENT_CHANNEL = /^__keyevent@(?:\d+|\*)__:expired$/;

/**
 * The prefix of a key-space channel or pattern (`__keyspace@0__:booking:*`): the rest is the key, or
 * a glob of keys for PSUBSCRIBE; its messages name the event, {@link EXPIRED_EVENT} among them.
 */
export const KEYSPACE_CHANNEL = /^__keyspace@(?:\d+|\*)__:/;

/** The event name Redis publishes when a key's TTL runs out (key-space message, key-event channel suffix). */
export const EXPIRED_EVENT = 'expired';
