package io.ratatosk.pagecache.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One mapped file's map from file page id to frame: a chunked int array, grown under a lock and read
 * without one. An entry is {@link #ABSENT}, {@link #FAULTING} (one thread is faulting the page in;
 * others wait) or frame index + 1. No hashing, no allocation on lookup.
 */
public final class TranslationTable {
    public static final int ABSENT = 0;
    public static final int FAULTING = -1;

    private static final int CHUNK_SHIFT = 12;
    private static final int CHUNK_SIZE = 1 << CHUNK_SHIFT;
    private static final int CHUNK_MASK = CHUNK_SIZE - 1;
    private static final VarHandle ENTRY = MethodHandles.arrayElementVarHandle(int[].class);

    private volatile int[][] chunks;

    public TranslationTable(long initialPages) {
        int n = (int) Math.max(1, (initialPages + CHUNK_SIZE - 1) >>> CHUNK_SHIFT);
        int[][] c = new int[n][];
        for (int i = 0; i < n; i++) {
            c[i] = new int[CHUNK_SIZE];
        }
        chunks = c;
    }

    /** The entry for {@code pageId}: ABSENT, FAULTING or frame + 1. */
    public int get(long pageId) {
        int[][] c = chunks;
        long chunk = pageId >>> CHUNK_SHIFT;
        if (chunk >= c.length) {
            return ABSENT;
        }
        return (int) ENTRY.getAcquire(c[(int) chunk], (int) (pageId & CHUNK_MASK));
    }

    public boolean compareAndSet(long pageId, int expected, int update) {
        int[] chunk = chunkFor(pageId);
        return ENTRY.compareAndSet(chunk, (int) (pageId & CHUNK_MASK), expected, update);
    }

    public void set(long pageId, int value) {
        ENTRY.setRelease(chunkFor(pageId), (int) (pageId & CHUNK_MASK), value);
    }

    /** Number of page ids the table currently covers; pages at or above it are all ABSENT. */
    public long capacity() {
        return (long) chunks.length << CHUNK_SHIFT;
    }

    private int[] chunkFor(long pageId) {
        long chunk = pageId >>> CHUNK_SHIFT;
        int[][] c = chunks;
        if (chunk < c.length) {
            return c[(int) chunk];
        }
        return grow(chunk)[(int) chunk];
    }

    private synchronized int[][] grow(long chunk) {
        int[][] c = chunks;
        if (chunk < c.length) {
            return c;
        }
        if (chunk >= Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("page id too large for the translation table: chunk=" + chunk);
        }
        int newLength = (int) Math.max(chunk + 1, Math.min(Integer.MAX_VALUE - 8L, c.length * 2L));
        int[][] grown = new int[newLength][];
        System.arraycopy(c, 0, grown, 0, c.length);
        for (int i = c.length; i < newLength; i++) {
            grown[i] = new int[CHUNK_SIZE];
        }
        chunks = grown;
        return grown;
    }
}
