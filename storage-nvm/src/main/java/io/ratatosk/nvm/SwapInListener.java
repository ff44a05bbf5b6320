package io.ratatosk.nvm;

/**
 * Hears every fault that {@link NvmSwapStore} served from NVM instead of the file. The hook for
 * prefetching (Fedorov 2016, chapter 5, {@code pagecache.nvm.prefetch}): a prefetcher queues the neighbours of
 * {@code pageId}, and the pages written next to {@code slot}, as low-priority hints for the page
 * cache's background thread. Called on the faulting thread after the page is in its frame and no
 * tier lock is held; it must be quick and must not block.
 */
@FunctionalInterface
public interface SwapInListener {
    SwapInListener NONE = (fileId, pageId, slot) -> {
    };

    void swappedIn(int fileId, long pageId, int slot);
}
