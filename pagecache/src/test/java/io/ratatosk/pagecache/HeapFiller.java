package io.ratatosk.pagecache;

/** Fills a (child JVM's) heap for tests of what the cache does when an allocation fails for want of memory. */
public final class HeapFiller {
    /** What {@link #fillAndHold} filled the heap with, reachable until {@link #release}. */
    private static Object[] held;

    private HeapFiller() {
    }

    /**
     * Fills the heap as {@link #fill} does and keeps it full until {@link #release}: for a hook deep in the library
     * (a swapper's close, a policy's callback) that has nowhere to keep what fills it.
     */
    public static void fillAndHold() {
        held = fill();
    }

    /** Lets go of what {@link #fillAndHold} filled the heap with, and collects it: the checks after need the heap. */
    public static void release() {
        held = null;
        System.gc();
    }

    /**
     * Closes {@code closeable}, whose close fills the heap on its way ({@link #fillAndHold}) or finds it full, then
     * {@link #release}s the heap; returns what the close threw, or null. Nothing here allocates: only the close meets
     * the full heap.
     */
    public static Throwable closeAndRelease(AutoCloseable closeable) {
        try {
            closeable.close();
            return null;
        } catch (Throwable t) {
            return t;
        } finally {
            release();
        }
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
