package io.ratatosk.bench.jmh;

import io.ratatosk.bench.workload.Zipf;
import java.util.SplittableRandom;

/**
 * A precomputed sequence of page ids that a benchmark thread cycles through, so that drawing the next
 * id costs an array read and both sides see exactly the same ids: the sequence depends only on the
 * distribution, the page count and the seed (the thread's index).
 */
public final class PageIds {
    /** Ids per thread: long enough that the cycle is not learned by the branch predictor or the caches. */
    public static final int LENGTH = 1 << 20;
    /** Skew of the Zipf distribution (YCSB's default). */
    public static final double ZIPF_EXPONENT = 0.99;

    public static final String UNIFORM = "uniform";
    public static final String ZIPF = "zipf";

    /** log2 of the long slots of a page: a drawn slot is the top bits of a hash of the draw's position. */
    private static final int SLOT_BITS = Integer.numberOfTrailingZeros(BenchFile.SLOTS);

    private final int[] ids;
    private int next;
    private int slot;

    private PageIds(int[] ids) {
        this.ids = ids;
    }

    /** The next id of the cycle. Not thread-safe: one instance per thread. */
    public long next() {
        int i = next;
        next = (i + 1) & (LENGTH - 1);
        slot = (int) ((i * 0x9E3779B97F4A7C15L) >>> (Long.SIZE - SLOT_BITS));
        return ids[i];
    }

    /**
     * A long slot of the page {@link #next()} returned last, uniform over the page and fixed by the draw's
     * position in the cycle (a multiplicative hash, so it costs no memory): a loop that reads a random 8-byte
     * offset of a random page, as a store reading records does, touches every cache line of every page.
     */
    public int slot() {
        return slot;
    }

    /** The id at position {@code i} of the cycle, for tests. */
    int at(int i) {
        return ids[i];
    }

    public static PageIds of(String distribution, long pages, long seed) {
        switch (distribution) {
            case UNIFORM:
                return uniform(pages, seed);
            case ZIPF:
                return zipf(pages, ZIPF_EXPONENT, seed);
            default:
                throw new IllegalArgumentException("distribution must be " + UNIFORM + " or " + ZIPF
                    + ": distribution=" + distribution);
        }
    }

    public static PageIds uniform(long pages, long seed) {
        int n = checkedPages(pages);
        SplittableRandom random = new SplittableRandom(seed);
        int[] ids = new int[LENGTH];
        for (int i = 0; i < LENGTH; i++) {
            ids[i] = random.nextInt(n);
        }
        return new PageIds(ids);
    }

    /**
     * Zipf over the pages with the given exponent ({@link Zipf}): rank r (from 1) drawn with probability
     * proportional to 1 / r^exponent. Ranks are scattered over the file by a permutation fixed by the
     * page count alone (the same for every thread), so the hot pages are spread out as they are in a
     * real store, not packed at its start.
     */
    public static PageIds zipf(long pages, double exponent, long seed) {
        int n = checkedPages(pages);
        Zipf zipf = new Zipf(n, exponent);
        int[] pageOfRank = permutation(n, 0x5EEDL);
        SplittableRandom random = new SplittableRandom(seed);
        int[] ids = new int[LENGTH];
        for (int i = 0; i < LENGTH; i++) {
            ids[i] = pageOfRank[zipf.nextRank(random)];
        }
        return new PageIds(ids);
    }

    private static int[] permutation(int n, long seed) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }

    private static int checkedPages(long pages) {
        if (pages <= 0 || pages > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("pages must be in [1, " + Integer.MAX_VALUE + "]: pages=" + pages);
        }
        return (int) pages;
    }
}
