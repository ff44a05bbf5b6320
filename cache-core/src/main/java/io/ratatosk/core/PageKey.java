package io.ratatosk.core;

/**
 * A page's identity as one {@code long}: file id + 1 in the top 16 bits and the file page id in the
 * low 48, so 0 never names a page and can mean "unbound". The simulator uses file id 0.
 */
public final class PageKey {
    public static final int FILE_ID_BITS = 16;
    public static final int PAGE_ID_BITS = 48;
    public static final long MAX_PAGE_ID = (1L << PAGE_ID_BITS) - 1;
    /** Highest file id; one value is spent so that no key is 0. */
    public static final int MAX_FILE_ID = (1 << FILE_ID_BITS) - 2;
    public static final long UNBOUND = 0L;

    private PageKey() {
    }

    public static long of(int fileId, long pageId) {
        if (fileId < 0 || fileId > MAX_FILE_ID) {
            throw new IllegalArgumentException("file id must be in [0, " + MAX_FILE_ID + "]: fileId=" + fileId);
        }
        if (pageId < 0 || pageId > MAX_PAGE_ID) {
            throw new IllegalArgumentException("page id must be in [0, " + MAX_PAGE_ID + "]: pageId=" + pageId);
        }
        return ((fileId + 1L) << PAGE_ID_BITS) | pageId;
    }

    public static int fileId(long key) {
        return (int) (key >>> PAGE_ID_BITS) - 1;
    }

    public static long pageId(long key) {
        return key & MAX_PAGE_ID;
    }

    /** A well-mixed 64-bit hash of a key (murmur3 finalizer), for history bitsets and ghost tables. */
    public static long hash(long key) {
        long h = key;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }

    public static String toString(long key) {
        return key == UNBOUND ? "unbound" : "file " + fileId(key) + " page " + pageId(key);
    }
}
