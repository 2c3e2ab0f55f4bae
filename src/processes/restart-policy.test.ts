/** The supervisor's restart decisions: backoff that doubles with exits in a row, and giving up on a loop. */
import { describe, expect, it } from 'vitest';
import { decideRestart, type RestartPolicy } from './restart-policy.js';

const policy: RestartPolicy = { steadyRunMs: 60_000, maxExits: 5, firstDelayMs: 500, maxDelayMs: 3_000 };

describe('restart policy', () => {
  it('restarts after a delay that doubles with each exit in a row, up to the longest', () => {
    const patient = { ...policy, maxExits: 10 };
    expect([1, 2, 3, 4, 5].map((n) => decideRestart(n - 1, 1_000, patient))).toEqual([
      { action: 'restart', delayMs: 500, exitsInARow: 1 },
      { action: 'restart', delayMs: 1_000, exitsInARow: 2 },
      { action: 'restart', delayMs: 2_000, exitsInARow: 3 },
      { action: 'restart', delayMs: 3_000, exitsInARow: 4 },
      { action: 'restart', delayMs: 3_000, exitsInARow: 5 },
    ]);
  });

  it('gives up at the last exit in a row allowed, however long each short run was', () => {
    expect(decideRestart(3, 59_000, policy)).toEqual({ action: 'restart', delayMs: 3_000, exitsInARow: 4 });
    expect(decideRestart(4, 59_000, policy)).toEqual({ action: 'give up', exitsInARow: 5 });
  });

  it('a steady run ends the row: an occasional crash is restarted at the first delay', () => {
    expect(decideRestart(4, 60_000, policy)).toEqual({ action: 'restart', delayMs: 500, exitsInARow: 1 });
    expect(decideRestart(0, 3_600_000, policy)).toEqual({ action: 'restart', delayMs: 500, exitsInARow: 1 });
  });
});
