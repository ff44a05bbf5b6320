package io.ratatosk.pagecache.writeaware;

/**
 * What tests of other modules may do to write-aware eviction: shipped in the pagecache test jar only.
 * The randomized lifecycle test pins a skip budget, because its caches live far fewer references than
 * the sampler's epoch, so that left to itself the sampler would never pass over a dirty frame there.
 */
public final class WriteAwareInternals {
    private WriteAwareInternals() {
    }

    /** The skip budgets a variant may have, smallest (0: never pass over a dirty frame) first. */
    public static int[] budgets() {
        return WriteAwareEviction.BUDGETS.clone();
    }

    /** Puts {@code budget} (one of {@link #budgets()}) in force until the sampler closes its next epoch. */
    public static void forceBudget(WriteAwareEviction eviction, int budget) {
        eviction.forceBudget(budget);
    }
}
