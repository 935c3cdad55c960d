/**
 * The `--max-ops-per-second` limit: a pacing token bucket over Redis commands. Every command the
 * audit sends (SCAN, each PTTL / TYPE / MEMORY USAGE / OBJECT IDLETIME / EXPIRE of a pipeline)
 * takes one token; Redis counts pipelined commands one by one too (INFO stats
 * `total_commands_processed`).
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** Bursts last at most this long at the configured rate, so the load stays smooth. */
const BURST_MS = 50;

export class RateLimiter {
  /** Commands sent so far (acquired tokens). */
  ops = 0;
  private next = 0;

  /**
   * @param opsPerSecond commands per second, > 0; `0` or `Infinity` means no limit.
   * @param now a millisecond clock (tests may pass a fake one).
   */
  constructor(
    readonly opsPerSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Whether there is a limit at all. */
  get limited(): boolean {
    return this.opsPerSecond > 0 && Number.isFinite(this.opsPerSecond);
  }

  /** The largest pipeline to send at once: 50 ms worth of the rate (at least 1), or `Infinity`. */
  get burst(): number {
    return this.limited ? Math.max(1, Math.floor((this.opsPerSecond * BURST_MS) / 1000)) : Number.POSITIVE_INFINITY;
  }

  /**
   * Waits until `n` more commands may be sent, and books them. Over any interval of T seconds the
   * audit sends at most `opsPerSecond * T + burst` commands.
   */
  async acquire(n: number): Promise<void> {
    this.ops += n;
    if (!this.limited) return;
    const now = this.now();
    const start = Math.max(now, this.next);
    this.next = start + (n * 1000) / this.opsPerSecond;
    if (start > now) await sleep(start - now);
  }
}
