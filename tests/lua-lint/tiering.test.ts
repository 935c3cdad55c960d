import { describe, expect, it, vi } from 'vitest';
import { OPTIMIZE_ABOVE_BYTES, chooseOptimization, deferOptimization } from '../../lua-lint/cli/tiering.js';

// V8 flags are process-wide: the cases leave TurboFan on, as they found it.
describe('lua-lint command: TurboFan by input size', () => {
  it('is a no-op, without asking the size, unless the executable deferred optimization', () => {
    const size = vi.fn(() => 10 * OPTIMIZE_ABOVE_BYTES);
    expect(chooseOptimization(size)).toBe(false);
    expect(size).not.toHaveBeenCalled();
  });

  it('keeps TurboFan off up to 1 MiB of input and turns it on above, deciding once', () => {
    expect(OPTIMIZE_ABOVE_BYTES).toBe(1024 * 1024);
    deferOptimization();
    expect(chooseOptimization(() => OPTIMIZE_ABOVE_BYTES)).toBe(false);
    deferOptimization();
    const size = vi.fn(() => OPTIMIZE_ABOVE_BYTES + 1);
    expect(chooseOptimization(size)).toBe(true);
    expect(size).toHaveBeenCalledTimes(1);
    expect(chooseOptimization(size)).toBe(false);
    expect(size).toHaveBeenCalledTimes(1);
  });
});
