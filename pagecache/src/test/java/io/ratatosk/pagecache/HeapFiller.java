package io.ratatosk.pagecache;

/** Fills a (child JVM's) heap for tests of what the cache does when an allocation fails for want of memory. */
public final class HeapFiller {
    private HeapFiller() {
    }

    /**
     * Fills the heap down to its last bytes and returns what fills it: while the caller keeps that reachable, the next
     * allocation of more than a few bytes fails; once it lets go, the heap is free again.
     */
    public static Object[] fill() {
        Object[] chain = null;
        int size = 1 << 16;
        while (true) {
            try {
                Object[] link = new Object[2];
                link[0] = chain;
                link[1] = new long[size];
                chain = link;
            } catch (OutOfMemoryError full) {
                if (size == 0) {
                    return chain;
                }
                size /= 2;
            }
        }
    }
}
