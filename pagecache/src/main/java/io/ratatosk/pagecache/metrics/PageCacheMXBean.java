package io.ratatosk.pagecache.metrics;

/**
 * The page cache's counters over JMX, registered as {@code io.ratatosk:type=PageCache,name=<pagecache.name>}
 * while the cache is open ({@code pagecache.jmx.enabled}). Each attribute is the counter of the same name
 * in {@code PageCache.stats()}, read when asked; the swap tier's counters ({@code stats().nvm()}) are not among them,
 * and reading an attribute does not ask the tier for them.
 */
public interface PageCacheMXBean {
    /** The cache's {@code pagecache.name}. */
    String getName();

    String getPolicy();

    /** What the policy says of its state ({@code best-of}: the expert it follows), or "". */
    String getPolicyState();

    long getHits();

    long getFaults();

    /** hits / (hits + faults), or 0 before the first pin. */
    double getHitRatio();

    long getEvictions();

    long getBackgroundEvictions();

    long getCooperativeEvictions();

    long getEvictionWrites();

    long getEvictionErrors();

    long getFlushedPages();

    long getBytesRead();

    long getBytesWritten();

    /**
     * Pages the cache wrote out of its frames, by flush, close and eviction: to the files, or with a swap tier
     * ({@code pagecache.swap=nvm}) to the tier, which writes them on to the files itself (its own counters say when).
     */
    long getPagesWritten();

    /**
     * Write calls out of the frames (to the files, or the swap tier): a run of adjacent pages written together counts
     * once.
     */
    long getWriteCalls();

    /** Pages a warm-up faulted back in after a restart. */
    long getPagesReheated();

    int getFrames();

    int getFreeFrames();
}
