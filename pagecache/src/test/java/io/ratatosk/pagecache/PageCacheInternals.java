package io.ratatosk.pagecache;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.pagecache.internal.IopsLimiter;

/**
 * What tests of other modules (the NVM tier's, which plugs into the page cache) may look at inside a
 * page cache: shipped in the pagecache test jar only, never in the library.
 */
public final class PageCacheInternals {
    private PageCacheInternals() {
    }

    public static FrameTable frames(PageCache cache) {
        return cache.frames();
    }

    public static EvictionPolicy policy(PageCache cache) {
        return cache.policy();
    }

    public static int freeFrames(PageCache cache) {
        return cache.freeFrames();
    }

    /** The limiter the cache's flushes keep to. */
    public static IopsLimiter flushLimiter(PageCache cache) {
        return cache.flushLimiter();
    }

    /** The file's id: the file part of its pages' keys. */
    public static int fileId(PagedFile file) {
        return file.fileId();
    }

    /**
     * Stops the cache's background evictor, if it has one, and returns once its thread has ended; the cache's close
     * stops it again, which does nothing. For a check of the policy's bookkeeping, which holds only on a quiet cache:
     * an eviction unbinds its frame before it tells the policy, so a check between the two finds a frame the policy
     * still holds unbound.
     */
    public static void stopBackgroundEvictor(PageCache cache) throws ReflectiveOperationException {
        java.lang.reflect.Field field = PageCache.class.getDeclaredField("evictor");
        field.setAccessible(true);
        BackgroundEvictor evictor = (BackgroundEvictor) field.get(cache);
        if (evictor != null) {
            evictor.shutdown();
        }
    }

    /** The page's translation-table entry: 0 absent, -1 being faulted in, else frame + 1. */
    public static int tableEntry(PagedFile file, long pageId) {
        return file.table().get(pageId);
    }
}
