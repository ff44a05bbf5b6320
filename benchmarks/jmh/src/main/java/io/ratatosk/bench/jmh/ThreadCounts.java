package io.ratatosk.bench.jmh;

import java.util.Collection;

/**
 * The thread counts the launcher's commands accept: from 1 to {@link #MAX}. A typo such as {@code --threads 99999999}
 * started that many threads (or ran out of memory for their per-thread data) instead of saying what was wrong; the
 * limit is far above any machine these benchmarks run on, so oversubscription stays possible.
 */
public final class ThreadCounts {
    /** The most threads a command starts. */
    public static final int MAX = 4096;

    private ThreadCounts() {
    }

    /** Whether every count is from 1 to {@link #MAX}. */
    public static boolean inRange(Collection<Integer> counts) {
        return counts.stream().allMatch(t -> t != null && t >= 1 && t <= MAX);
    }

    /** "OPTION must be from 1 to 4096: VALUE", the words of every command. */
    public static String outOfRange(String option, Object value) {
        return option + " must be from 1 to " + MAX + ": " + value;
    }
}
