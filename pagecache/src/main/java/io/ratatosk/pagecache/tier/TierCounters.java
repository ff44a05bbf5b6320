package io.ratatosk.pagecache.tier;

/**
 * A swap tier's counters as the page cache reports them ({@code PageCacheStats.nvm()}); what each means
 * is on {@code NvmCacheStats}.
 */
public record TierCounters(
    long reads,
    long writes,
    long bytesRead,
    long bytesWritten,
    long swapIns,
    long swapOuts,
    long dirtySwapOuts,
    long cleanEvictionsAbsorbed,
    long fileReadsAvoided,
    long fileWritesAvoided,
    long writeBacks,
    long wearMax,
    double wearMean,
    long modeledDeviceNanos,
    long injectedNanos,
    double energyJoules) {

    /** No tier. */
    public static final TierCounters NONE = new TierCounters(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
}
