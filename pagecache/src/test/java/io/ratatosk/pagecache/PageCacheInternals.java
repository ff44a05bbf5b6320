package io.ratatosk.pagecache;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.pagecache.internal.DaemonWorker;
import io.ratatosk.pagecache.internal.IopsLimiter;
import java.lang.reflect.Field;
import java.util.concurrent.TimeUnit;

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
        BackgroundEvictor evictor = (BackgroundEvictor) field(PageCache.class, "evictor").get(cache);
        if (evictor != null) {
            evictor.shutdown();
        }
    }

    /**
     * Returns once the cache's tier prefetcher has served every hint offered before the call: its queue is empty and its
     * thread is back in its idle sleep, which it enters only from a step that found the queue empty, so the prefetch of
     * the last hint it took has ended. At once where the cache has no prefetcher; fails after a minute, saying what it
     * waited for.
     */
    public static void awaitPrefetcherIdle(PageCache cache) throws ReflectiveOperationException, InterruptedException {
        TierPrefetcher prefetcher = (TierPrefetcher) field(PageCache.class, "prefetcher").get(cache);
        if (prefetcher == null) {
            return;
        }
        Field queued = field(TierPrefetcher.class, "queued");
        Field sleeping = field(DaemonWorker.class, "sleeping");
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        // queued first: a hint taken before that read, and the worker seen asleep after it, means that step has ended
        while ((int) queued.get(prefetcher) != 0 || !(boolean) sleeping.get(prefetcher)) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("after a minute the tier prefetcher still has " + queued.get(prefetcher)
                    + " hints queued or a prefetch under way");
            }
            Thread.sleep(1);
        }
    }

    private static Field field(Class<?> owner, String name) throws NoSuchFieldException {
        Field field = owner.getDeclaredField(name);
        field.setAccessible(true);
        return field;
    }

    /** The page's translation-table entry: 0 absent, -1 being faulted in, else frame + 1. */
    public static int tableEntry(PagedFile file, long pageId) {
        return file.table().get(pageId);
    }
}
