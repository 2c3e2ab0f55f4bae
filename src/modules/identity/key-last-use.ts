/**
 * When each API key was last used, kept without a write on the request path: a request made with a
 * key's token only notes the key in memory (`note`), and `flush` (the HTTP layer's timer) writes the
 * noted keys in one statement. A key is written at most once per KEY_LAST_USE_INTERVAL_MS by a
 * process, and the statement never moves a key's time backwards, so several processes agree.
 */
import type { Db } from '../../kernel/context.js';

/** How stale a key's lastUsedAt may be: one write per key per minute at most, however busy the key. */
const KEY_LAST_USE_INTERVAL_MS = 60_000;

export class KeyLastUse {
  /** Keys used since the last flush, with the time of their latest use. */
  private readonly pending = new Map<string, Date>();
  /** When each key's use was last written by this process. */
  private readonly written = new Map<string, number>();

  constructor(private readonly intervalMs = KEY_LAST_USE_INTERVAL_MS) {}

  note(apiKeyId: string, at: Date): void {
    const last = this.written.get(apiKeyId);
    if (last !== undefined && at.getTime() - last < this.intervalMs) return;
    this.pending.set(apiKeyId, at);
  }

  async flush(db: Db): Promise<void> {
    if (this.pending.size === 0) return;
    const noted = [...this.pending.entries()];
    this.pending.clear();
    const now = Date.now();
    for (const [id, at] of noted) this.written.set(id, at.getTime());
    // Forget keys not written for a while, so the map holds the recently used keys only.
    for (const [id, at] of this.written) if (now - at > 2 * this.intervalMs) this.written.delete(id);
    const ids = noted.map(([id]) => id);
    const times = noted.map(([, at]) => at);
    await db.$executeRaw`UPDATE api_key AS k SET "lastUsedAt" = u.at
      FROM unnest(${ids}::uuid[], ${times}::timestamp(3)[]) AS u(id, at)
      WHERE k.id = u.id AND (k."lastUsedAt" IS NULL OR k."lastUsedAt" < u.at)`;
  }
}
