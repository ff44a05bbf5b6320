package io.ratatosk.pagecache.tier;

/**
 * What the page cache's prefetcher needs from a tier that prefetches: a call on every swap-in, where the
 * neighbours of a page are, and whether demand reads are in flight (a prefetch yields to them).
 */
public interface PrefetchSource {
    /** Hints per swap-in: the pages after it in its file and in the tier's slots after its slot, together. */
    int depth();

    /** Installs the listener the tier calls on every swap-in; null removes it. */
    void swapInListener(SwapInListener listener);

    /** Page reads in progress through the tier (faults): demand a prefetch must not delay. */
    int readsInFlight();

    /** Whether the tier holds a copy of the page. */
    boolean contains(int fileId, long pageId);

    /** The tier's slots. */
    int slots();

    /** The page key in slot {@code slot}, or 0 when it holds none (a hint: it may change at once). */
    long keyInSlot(int slot);

    /** Told about every page a fault found in the tier. */
    @FunctionalInterface
    interface SwapInListener {
        SwapInListener NONE = (fileId, pageId, slot) -> { };

        void swappedIn(int fileId, long pageId, int slot);
    }
}
