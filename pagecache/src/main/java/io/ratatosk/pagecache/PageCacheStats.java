package io.ratatosk.pagecache;

import java.util.Objects;

/**
 * A snapshot of the page cache's counters. Hits and faults count accesses: every successful
 * {@code next()} of a cursor is one or the other. A read that {@code shouldRetry()} sends back to the
 * same page is the same access: it counts again only if the page had been evicted and must be faulted
 * in anew, so contention on a page does not inflate the hit ratio. {@code nvm} holds the NVM tier's
 * counters with {@code pagecache.swap=nvm}, and {@link NvmCacheStats#NONE} (all zero) otherwise;
 * {@code io} the write calls, pages written and pages reheated ({@link IoStats}). {@code hugePages} says,
 * in words, what came of {@code pagecache.huge_pages} for the page memory: advised to the kernel, off, or
 * why not (no JDK 22+, no native access, not Linux). {@code policyState} is what the policy says of its own
 * state ({@code best-of}: the expert the frames follow, its switches, its sampled requests and each expert's miniature
 * hit ratio over them), "" for most.
 */
public record PageCacheStats(
    long hits,
    long faults,
    long backgroundEvictions,
    long cooperativeEvictions,
    long evictionWrites,
    long flushedPages,
    long bytesRead,
    long bytesWritten,
    long evictionErrors,
    int frames,
    int freeFrames,
    String policy,
    String policyState,
    NvmCacheStats nvm,
    IoStats io,
    String hugePages) {

    /**
     * @throws NullPointerException naming the component, for a null {@code policy}, {@code policyState}, {@code nvm},
     *                              {@code io} or {@code hugePages} (use "", {@link NvmCacheStats#NONE}, {@link IoStats#NONE})
     */
    public PageCacheStats {
        // Here, not where toString() would meet it later, far from the code that made the snapshot.
        Objects.requireNonNull(policy, "PageCacheStats.policy must not be null");
        Objects.requireNonNull(policyState, "PageCacheStats.policyState must not be null: \"\" for a policy with nothing to say");
        Objects.requireNonNull(nvm, "PageCacheStats.nvm must not be null: NvmCacheStats.NONE without a tier");
        Objects.requireNonNull(io, "PageCacheStats.io must not be null: IoStats.NONE for no IO");
        Objects.requireNonNull(hugePages, "PageCacheStats.hugePages must not be null");
    }

    public long evictions() {
        return backgroundEvictions + cooperativeEvictions;
    }

    /** hits / (hits + faults), or 0 before the first pin. */
    public double hitRatio() {
        long pins = hits + faults;
        return pins == 0 ? 0.0 : (double) hits / pins;
    }

    @Override
    public String toString() {
        return String.format(
            "policy=%s frames=%d free=%d hits=%d faults=%d hitRatio=%.4f evictions=%d (background %d, cooperative %d)"
                + " evictionWrites=%d flushedPages=%d bytesRead=%d bytesWritten=%d evictionErrors=%d",
            policy + (policyState.isEmpty() ? "" : " (" + policyState + ")"), frames, freeFrames, hits, faults,
            hitRatio(), evictions(), backgroundEvictions, cooperativeEvictions, evictionWrites, flushedPages, bytesRead, bytesWritten, evictionErrors)
            + (io.equals(IoStats.NONE) ? "" : " " + io)
            + (nvm.equals(NvmCacheStats.NONE) ? "" : " " + nvm) + " hugePages=" + hugePages;
    }
}
