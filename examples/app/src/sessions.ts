/** Sessions: one string key per session, written once at login. */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

export interface Session {
  userId: string;
  createdAt: number;
}

/** Stores a new session and returns its id. */
export async function createSession(redis: Redis, userId: string): Promise<string> {
  const id = randomUUID();
  const session: Session = { userId, createdAt: Date.now() };
  // LEAK: no expiry, so every session ever created stays in Redis
  await redis.set(`session:${id}`, JSON.stringify(session));
  return id;
}

/** The session stored under `id`, or `null`. */
export async function getSession(redis: Redis, id: string): Promise<Session | null> {
  const text = await redis.get(`session:${id}`);
  return text === null ? null : (JSON.parse(text) as Session);
}
