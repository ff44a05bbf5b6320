package io.ratatosk.policies.tinylfu;

/**
 * TinyLFU's popularity estimate: a count-min sketch of 4-bit counters, 16 to a {@code long}, four
 * counters per page (one in each of four words picked by four hashes, at one of four nibble groups
 * picked by the hash), the estimate being the least of the four. After {@code samplePeriod}
 * increments every counter is halved, so that the past fades (TinyLFU's "reset").
 *
 * <p>Not thread-safe: its owners write it under their own lock, on the miss path ({@link TinyLfuRegions}
 * counts hits in the frames' policy words and moves them here when a hand looks at a frame), so the
 * hit path never touches the table and {@link #ageIfDue}'s pass over it never runs on a hit.
 *
 * <p>Source: G. Einziger, R. Friedman, B. Manes, "TinyLFU: A Highly Efficient Cache Admission Policy",
 * ACM Transactions on Storage 13(4), 2017, section 3.
 */
public final class FrequencySketch {
    private static final long[] SEEDS = {0xc3a5c85c97cb3127L, 0xb492b66fbe98f273L, 0x9ae16a3b2f90404fL, 0xcbf29ce484222325L};
    private static final long HALF_MASK = 0x7777777777777777L;
    private static final long ONE_MASK = 0x1111111111111111L;
    /** The largest table: a power-of-two long array. */
    private static final int MAX_WORDS = 1 << 30;

    private final long[] table;
    private final int wordMask;
    private final long samplePeriod;
    /** Uses counted since the last halving. */
    private long additions;

    /**
     * @param entries      pages the cache holds; the table gets one word (16 counters) per entry,
     *                     rounded up to a power of two
     * @param samplePeriod increments between halvings, at least 1
     */
    public FrequencySketch(int entries, long samplePeriod) {
        if (entries < 1) {
            throw new IllegalArgumentException("a sketch needs at least one entry: entries=" + entries);
        }
        if (samplePeriod < 1) {
            throw new IllegalArgumentException("the sample period must be at least 1: samplePeriod=" + samplePeriod);
        }
        int words = wordsFor(entries);
        this.table = new long[words];
        this.wordMask = words - 1;
        this.samplePeriod = samplePeriod;
    }

    /** Whether this sketch is the one {@code new FrequencySketch(entries, samplePeriod)} would make, counts aside. */
    boolean sizedFor(int entries, long samplePeriod) {
        return this.samplePeriod == samplePeriod && table.length == wordsFor(entries);
    }

    /** The table's words for {@code entries} pages: one each, rounded up to a power of two, at least 8. */
    private static int wordsFor(int entries) {
        return (int) Math.min(MAX_WORDS, Math.max(8, Long.highestOneBit(Math.max(1, (long) entries - 1)) << 1));
    }

    /** Counts one more use of the page whose {@code PageKey.hash} is {@code hash}; at most 15 are told apart. */
    public void increment(long hash) {
        int start = (int) (hash & 3) << 2;
        boolean added = false;
        for (int i = 0; i < 4; i++) {
            int word = indexOf(hash, i);
            int shift = (start + i) << 2;
            long value = table[word];
            if (((value >>> shift) & 0xf) != 0xf) {
                table[word] = value + (1L << shift);
                added = true;
            }
        }
        if (added) {
            additions++;
        }
    }

    /** One request for the page with {@code hash}: one more use ({@link #increment}), then the halving if it is due. */
    public void countRequest(long hash) {
        increment(hash);
        ageIfDue();
    }

    /** Counts {@code uses} more uses of the page with {@code hash} at once; each counter stops at 15. */
    public void add(long hash, int uses) {
        if (uses <= 0) {
            return;
        }
        int start = (int) (hash & 3) << 2;
        for (int i = 0; i < 4; i++) {
            int word = indexOf(hash, i);
            int shift = (start + i) << 2;
            long value = table[word];
            long counter = (value >>> shift) & 0xf;
            long raised = Math.min(15, counter + uses);
            table[word] = value + ((raised - counter) << shift);
        }
        additions += uses;
    }

    /** The estimated uses of the page with {@code hash} since the counters were last halved, 0..15. */
    public int frequency(long hash) {
        int start = (int) (hash & 3) << 2;
        int least = 15;
        for (int i = 0; i < 4; i++) {
            int shift = (start + i) << 2;
            least = Math.min(least, (int) ((table[indexOf(hash, i)] >>> shift) & 0xf));
        }
        return least;
    }

    /** Halves every counter once the sample period's increments have been counted; true if it did. */
    public boolean ageIfDue() {
        if (additions < samplePeriod) {
            return false;
        }
        long odd = 0;
        for (int i = 0; i < table.length; i++) {
            odd += Long.bitCount(table[i] & ONE_MASK);
            table[i] = (table[i] >>> 1) & HALF_MASK;
        }
        // Each halving rounds an odd counter down: take those halves off the count too.
        additions = Math.max(0, (additions - (odd >>> 2)) >>> 1);
        return true;
    }

    public long samplePeriod() {
        return samplePeriod;
    }

    private int indexOf(long hash, int i) {
        long h = (hash + SEEDS[i]) * SEEDS[i];
        h += h >>> 32;
        return (int) h & wordMask;
    }
}
