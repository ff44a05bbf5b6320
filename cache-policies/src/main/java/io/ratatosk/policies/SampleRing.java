package io.ratatosk.policies;

import io.ratatosk.core.PageKey;
import java.util.function.LongConsumer;

/**
 * Sampled page keys handed from the lock-free hit path (and, where the simulations run in the background,
 * from the fault path) to a policy's miniature simulations, which run under a lock: {@link #offer} on a hit
 * or fault, {@link #drain} at a fault or in housekeeping.
 *
 * <p>A ring of {@value #SLOTS} keys with plain, racy writes: two threads may write one slot (one sample
 * lost), and a hit that finds the ring full drops its sample. A drain replays the keys in the order they
 * were offered: in one thread, every key in the order of the hits, so a policy using it stays
 * deterministic. (A ring per thread stripe, so that two cores do not pass the write index between them,
 * measured no better in {@code PolicyHitPathBenchmark}, within its run-to-run spread: see docs/policies.md.)
 */
public final class SampleRing {
    /** Keys the hits may offer between two drains before samples are dropped. */
    public static final int SLOTS = 4096;

    private final long[] ring = new long[SLOTS];
    /** Keys offered; racy on the hit path. */
    private long written;
    /** Keys drained; written under the caller's lock, read racily by the hit path. */
    private long replayed;

    /** Offers a sampled request's key; racy, never blocks, drops the key if the ring is full. */
    public void offer(long pageKey) {
        long at = written;
        if (at - replayed >= SLOTS) {
            return;
        }
        ring[(int) (at & (SLOTS - 1))] = pageKey;
        written = at + 1;
    }

    /** Hands every key offered since the last drain to {@code sink}; the caller holds the lock its drains share. */
    public void drain(LongConsumer sink) {
        drain(sink, SLOTS);
    }

    /**
     * Hands the oldest {@code max} keys (at most) offered since the last drain to {@code sink}, leaving the rest, in
     * order, for the next drain; the caller holds the lock its drains share.
     */
    public void drain(LongConsumer sink, int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max must be >= 1: " + max);
        }
        long end = written;
        long from = Math.max(replayed, end - SLOTS);
        long to = Math.min(end, from + max);
        for (long i = from; i < to; i++) {
            long key = ring[(int) (i & (SLOTS - 1))];
            if (key != PageKey.UNBOUND) { // a slot a racing hit has not filled yet
                sink.accept(key);
            }
        }
        replayed = to;
    }

    /** Whether keys were offered since the last drain; racy. */
    public boolean hasPending() {
        return written != replayed;
    }
}
