/** The supervisor's restart decisions: backoff that doubles within the window, and giving up on a loop. */
import { describe, expect, it } from 'vitest';
import { decideRestart, type RestartPolicy } from './restart-policy.js';

const policy: RestartPolicy = { windowMs: 60_000, maxExits: 5, firstDelayMs: 500, maxDelayMs: 3_000 };

describe('restart policy', () => {
  it('restarts after a delay that doubles with each exit within the window, up to the longest', () => {
    const exits: number[] = [];
    expect(decideRestart(exits, 1_000, { ...policy, maxExits: 10 })).toEqual({ action: 'restart', delayMs: 500, recentExits: 1 });
    expect(decideRestart(exits, 2_000, { ...policy, maxExits: 10 })).toEqual({ action: 'restart', delayMs: 1_000, recentExits: 2 });
    expect(decideRestart(exits, 3_000, { ...policy, maxExits: 10 })).toEqual({ action: 'restart', delayMs: 2_000, recentExits: 3 });
    expect(decideRestart(exits, 4_000, { ...policy, maxExits: 10 })).toEqual({ action: 'restart', delayMs: 3_000, recentExits: 4 });
    expect(decideRestart(exits, 5_000, { ...policy, maxExits: 10 })).toEqual({ action: 'restart', delayMs: 3_000, recentExits: 5 });
  });

  it('gives up at the last exit allowed within the window', () => {
    const exits: number[] = [];
    for (const at of [0, 10_000, 20_000, 30_000]) expect(decideRestart(exits, at, policy).action).toBe('restart');
    expect(decideRestart(exits, 40_000, policy)).toEqual({ action: 'give up', recentExits: 5 });
  });

  it('forgets exits older than the window: an occasional crash is restarted at the first delay', () => {
    const exits: number[] = [];
    for (const at of [0, 10_000, 20_000, 30_000]) decideRestart(exits, at, policy);
    // Sixty seconds after the first and later: only the exits within the window count.
    expect(decideRestart(exits, 65_000, policy)).toEqual({ action: 'restart', delayMs: 3_000, recentExits: 4 });
    expect(decideRestart(exits, 200_000, policy)).toEqual({ action: 'restart', delayMs: 500, recentExits: 1 });
    expect(exits).toEqual([200_000]);
  });
});
