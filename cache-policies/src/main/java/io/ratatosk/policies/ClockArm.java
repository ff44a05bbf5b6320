package io.ratatosk.policies;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A clock arm that any number of threads advance together: each step is one
 * {@code getAndIncrement} of a counter, taken modulo the frame count. Every evicting thread hammers
 * this one counter, so it sits alone on its cache lines (128 bytes of padding either side, enough
 * for adjacent-line prefetch) inside one array, where the JVM cannot reorder fields around it.
 */
final class ClockArm {
    private static final int PADDING_LONGS = 16;
    private final AtomicLongArray cells = new AtomicLongArray(2 * PADDING_LONGS + 1);

    /** Takes one step and returns the frame the arm was over, in [0, frameCount). */
    int next(int frameCount) {
        return Math.floorMod(cells.getAndIncrement(PADDING_LONGS), frameCount);
    }
}
