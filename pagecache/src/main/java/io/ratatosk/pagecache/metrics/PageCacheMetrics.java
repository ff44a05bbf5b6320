package io.ratatosk.pagecache.metrics;

import io.ratatosk.pagecache.PageCacheStats;
import java.util.function.Supplier;

/** The MBean behind {@link PageCacheMXBean}: every attribute a fresh {@link PageCacheStats} snapshot's counter. */
public final class PageCacheMetrics implements PageCacheMXBean {
    private final String name;
    private final Supplier<PageCacheStats> stats;

    public PageCacheMetrics(String name, Supplier<PageCacheStats> stats) {
        this.name = name;
        this.stats = stats;
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public String getPolicy() {
        return stats.get().policy();
    }

    @Override
    public String getPolicyState() {
        return stats.get().policyState();
    }

    @Override
    public long getHits() {
        return stats.get().hits();
    }

    @Override
    public long getFaults() {
        return stats.get().faults();
    }

    @Override
    public double getHitRatio() {
        return stats.get().hitRatio();
    }

    @Override
    public long getEvictions() {
        return stats.get().evictions();
    }

    @Override
    public long getBackgroundEvictions() {
        return stats.get().backgroundEvictions();
    }

    @Override
    public long getCooperativeEvictions() {
        return stats.get().cooperativeEvictions();
    }

    @Override
    public long getEvictionWrites() {
        return stats.get().evictionWrites();
    }

    @Override
    public long getEvictionErrors() {
        return stats.get().evictionErrors();
    }

    @Override
    public long getFlushedPages() {
        return stats.get().flushedPages();
    }

    @Override
    public long getBytesRead() {
        return stats.get().bytesRead();
    }

    @Override
    public long getBytesWritten() {
        return stats.get().bytesWritten();
    }

    @Override
    public long getPagesWritten() {
        return stats.get().io().pagesWritten();
    }

    @Override
    public long getWriteCalls() {
        return stats.get().io().writeCalls();
    }

    @Override
    public long getPagesReheated() {
        return stats.get().io().pagesReheated();
    }

    @Override
    public int getFrames() {
        return stats.get().frames();
    }

    @Override
    public int getFreeFrames() {
        return stats.get().freeFrames();
    }
}
