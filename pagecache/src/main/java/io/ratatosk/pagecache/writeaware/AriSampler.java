package io.ratatosk.pagecache.writeaware;

import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageKey;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.ReentrantLock;

/**
 * ARI's adaptation (Fedorov 2016, sections 2.2.1 and 2.3), for a page cache: a hashed sample of the pages
 * (1 in {@code rate}) is replayed into one {@link ShadowClock} per variant, each {@code 1/rate} of
 * the frames in size. Every {@value #EPOCH_REFERENCES} references (estimated as sampled references
 * x rate) the epoch's misses and writes (ARI's write-backs: the evictions that write, see
 * {@link ShadowClock}) of every variant are smoothed ({@code new = 0.9375 x old + 0.0625 x epoch});
 * a variant whose smoothed misses exceed the plain variant's by more than 1/16 is out, and of the
 * rest the one with the fewest misses + writes wins. An epoch without a sampled reference changes
 * nothing.
 *
 * <p>Threads that pin pages only append to a lossy ring of sampled references; whoever evicts
 * drains it into the shadows under a lock it only tries to take. A page faulted in is recorded with
 * its frame, and the drain reads the frame's modified bit to learn whether the fault was a write.
 * Losing or delaying a few samples under contention skews every variant alike.
 */
final class AriSampler {
    /** ARI's epoch: 25 000 references. */
    static final int EPOCH_REFERENCES = 25_000;
    /** Pages per shadow at least, where the frames allow: fewer make the comparison noisy. */
    static final int MIN_SHADOW_FRAMES = 256;
    static final int MAX_RATE = 64;
    /** Misses a variant may add over the plain policy: 1/16 (ARI's threshold, a shift in hardware). */
    static final double MISS_TOLERANCE = 1.0 / 16;
    static final double HISTORY_WEIGHT = 0.9375;
    static final double EPOCH_WEIGHT = 0.0625;

    private static final int RING_SIZE = 1 << 13;
    private static final int RING_MASK = RING_SIZE - 1;
    /** Entry bit 0: a fault (bits 1..31 the frame) or a hit (bit 1: a write); bits 32..63: the page's id. */
    private static final long FAULT = 1;
    private static final long WRITE = 2;
    private static final int DRAIN_BATCH = 64;

    private final FrameTable frames;
    private final int rate;
    private final long sampleMask;
    private final ShadowClock[] shadows;
    private final double[] smoothedMisses;
    private final double[] smoothedWrites;
    private final AtomicLongArray ring = new AtomicLongArray(RING_SIZE);
    private final AtomicLong tail = new AtomicLong();
    private final ReentrantLock drainLock = new ReentrantLock();
    /** Written under drainLock; producers read it only to see whether the ring is filling up. */
    private volatile long head;
    private long epochSamples;
    private boolean smoothed;
    private long epochs;
    private long lostSamples;
    private volatile int chosen;

    /**
     * @param nvmSlots the NVM tier's slots, which the shadows model at the sample rate; 0 without NVM
     * @param budgets  the variants' skip budgets; {@code budgets[0]} must be 0, the plain policy
     */
    AriSampler(FrameTable frames, int nvmSlots, int[] budgets, int maxUsage, int faultUsage, int evictThreshold) {
        if (budgets.length == 0 || budgets[0] != 0) {
            throw new IllegalArgumentException("the first variant must be the plain policy, budget 0");
        }
        this.frames = frames;
        this.rate = rateFor(frames.frameCount());
        this.sampleMask = rate - 1;
        int shadowFrames = shadowFrames(frames.frameCount());
        int shadowSlots = nvmSlots == 0 ? 0 : Math.max(1, (int) Math.round((double) nvmSlots / rate));
        this.shadows = new ShadowClock[budgets.length];
        for (int v = 0; v < budgets.length; v++) {
            shadows[v] = new ShadowClock(shadowFrames, shadowSlots, budgets[v], maxUsage, faultUsage, evictThreshold);
        }
        this.smoothedMisses = new double[budgets.length];
        this.smoothedWrites = new double[budgets.length];
    }

    /** One page in {@code rate} is sampled: a power of two that leaves each shadow at least 256 frames, at most 64. */
    static int rateFor(int frameCount) {
        int rate = Integer.highestOneBit(Math.max(1, frameCount / MIN_SHADOW_FRAMES));
        return Math.min(MAX_RATE, rate);
    }

    /** Pages each shadow clock models for a cache of {@code frameCount} frames: one in {@link #rateFor} of them. */
    static int shadowFrames(int frameCount) {
        return Math.max(1, (int) Math.round((double) frameCount / rateFor(frameCount)));
    }

    int rate() {
        return rate;
    }

    /** The skip budget of the variant in force. */
    int chosenBudget() {
        return shadows[chosen].budget();
    }

    long epochs() {
        return epochs;
    }

    private static long hash(long key) {
        return PageKey.hash(key);
    }

    private boolean sampled(long h) {
        return (h & sampleMask) == 0;
    }

    /** The page's 32-bit id in the shadows: the hash's top half, never 0 (0 marks an empty entry). */
    private static int id(long h) {
        int id = (int) (h >>> 32);
        return id == 0 ? 1 : id;
    }

    private static long entry(int id, long low) {
        return (long) id << 32 | low;
    }

    // ---- producers (any pinning thread) ---------------------------------------------------------

    /** A hit on {@code frame}; a write cursor holds the frame's write lock while it is counted. */
    void onHit(int frame) {
        long key = frames.binding(frame);
        if (key == PageKey.UNBOUND) {
            return;
        }
        long h = hash(key);
        if (sampled(h)) {
            append(entry(id(h), frames.writeLockCount(frame) > 0 ? WRITE : 0));
        }
    }

    /** {@code frame} was just bound to {@code key}; whether the fault was a write shows later in the frame. */
    void onFault(int frame, long key) {
        long h = hash(key);
        if (sampled(h)) {
            append(entry(id(h), (long) frame << 1 | FAULT));
        }
    }

    private void append(long entry) {
        long t = tail.getAndIncrement();
        ring.lazySet((int) (t & RING_MASK), entry);
        if (t - head > RING_SIZE * 3 / 4) {
            tryDrain(); // nobody evicts (all hits): keep the ring from overrunning
        }
    }

    // ---- consumer (evicting threads, under the lock) ----------------------------------------------

    /** Replays pending samples if a batch is waiting and nobody else is at it; returns at once otherwise. */
    void drainIfDue() {
        if (tail.get() - head >= DRAIN_BATCH) {
            tryDrain();
        }
    }

    void tryDrain() {
        if (!drainLock.tryLock()) {
            return;
        }
        try {
            long end = tail.get();
            long next = head;
            if (end - next > RING_SIZE) {
                lostSamples += end - RING_SIZE - next;
                next = end - RING_SIZE;
            }
            for (; next < end; next++) {
                long entry = ring.getAndSet((int) (next & RING_MASK), 0);
                if (entry != 0) {
                    replay(entry);
                }
            }
            head = next;
        } finally {
            drainLock.unlock();
        }
    }

    private void replay(long entry) {
        int id = (int) (entry >>> 32);
        boolean write;
        if ((entry & FAULT) != 0) {
            int frame = (int) ((entry & 0xFFFF_FFFFL) >>> 1);
            long key = frames.binding(frame);
            write = key != PageKey.UNBOUND && id(hash(key)) == id
                && (frames.isModified(frame) || frames.writeLockCount(frame) > 0);
        } else {
            write = (entry & WRITE) != 0;
        }
        for (ShadowClock shadow : shadows) {
            shadow.reference(id, write);
        }
        if (++epochSamples * rate >= EPOCH_REFERENCES) {
            endEpoch();
        }
    }

    /** Smooths each variant's counts, drops the ones that miss too much, and picks the cheapest. */
    private void endEpoch() {
        epochSamples = 0;
        epochs++;
        for (int v = 0; v < shadows.length; v++) {
            double misses = shadows[v].misses();
            double writes = shadows[v].writes();
            smoothedMisses[v] = smoothed ? HISTORY_WEIGHT * smoothedMisses[v] + EPOCH_WEIGHT * misses : misses;
            smoothedWrites[v] = smoothed ? HISTORY_WEIGHT * smoothedWrites[v] + EPOCH_WEIGHT * writes : writes;
            shadows[v].resetCounts();
        }
        smoothed = true;
        chosen = best(smoothedMisses, smoothedWrites);
    }

    /**
     * The variant to use: the lowest misses + writes among those whose misses are within 1/16 of
     * variant 0's; on a tie the lower index (the smaller budget, down to the plain policy).
     */
    static int best(double[] misses, double[] writes) {
        double allowed = misses[0] * (1 + MISS_TOLERANCE);
        int best = 0;
        double bestScore = misses[0] + writes[0];
        for (int v = 1; v < misses.length; v++) {
            if (misses[v] > allowed) {
                continue;
            }
            double score = misses[v] + writes[v];
            if (score < bestScore) {
                best = v;
                bestScore = score;
            }
        }
        return best;
    }

    /** Puts variant {@code variant} in force until the next epoch decides again; for tests. */
    void choose(int variant) {
        if (variant < 0 || variant >= shadows.length) {
            throw new IllegalArgumentException("variant must be in [0, " + shadows.length + "): variant=" + variant);
        }
        chosen = variant;
    }

    /** Under the lock: the smoothed figures per variant, for reports and tests. */
    String describe() {
        drainLock.lock();
        try {
            StringBuilder sb = new StringBuilder("ari rate=1/" + rate + " epochs=" + epochs + " lost=" + lostSamples
                + " chosen budget=" + chosenBudget());
            for (int v = 0; v < shadows.length; v++) {
                sb.append(String.format(" [budget %d: misses %.1f, writes %.1f]", shadows[v].budget(),
                    smoothedMisses[v], smoothedWrites[v]));
            }
            return sb.toString();
        } finally {
            drainLock.unlock();
        }
    }

    void checkInvariants() {
        drainLock.lock();
        try {
            for (ShadowClock shadow : shadows) {
                shadow.checkInvariants();
            }
        } finally {
            drainLock.unlock();
        }
    }
}
