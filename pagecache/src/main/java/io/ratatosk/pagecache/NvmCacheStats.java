package io.ratatosk.pagecache;

import io.ratatosk.pagecache.tier.TierCounters;

/**
 * The swap tier's counters (the NVM tier's, with {@code pagecache.swap=nvm}) as the page cache reports them
 * ({@link PageCacheStats#nvm()}); all zero with {@code pagecache.swap=file}. {@code docs/nvm.md} explains how to read them.
 *
 * <ul>
 *   <li>{@code reads}, {@code writes}, {@code bytesRead}, {@code bytesWritten}: operations on the
 *   NVM device, start-gap's slot moves and the reads of write-backs included.</li>
 *   <li>{@code swapIns}: faults served from NVM; each is a file read avoided
 *   ({@code fileReadsAvoided}). {@code swapOuts}: evictions from the frames that wrote the page
 *   into NVM, of which {@code dirtySwapOuts} kept a dirty page there under write-back;
 *   {@code cleanEvictionsAbsorbed}: clean evictions whose unchanged copy was already in NVM and
 *   cost no write.</li>
 *   <li>{@code writeBacks}: dirty pages written from NVM to their file (when NVM reclaims their
 *   slot, or the file is flushed or closed); {@code fileWritesAvoided} = dirty swap-outs minus
 *   write-backs (and minus the dirty copies the NVM tier gave up, lost), at least 0: the file writes the tier saved,
 *   net.</li>
 *   <li>{@code wearMax}, {@code wearMean}: writes per physical NVM slot.</li>
 *   <li>{@code modeledDeviceNanos}: reads x read latency + writes x write latency, the device time
 *   under the model; {@code injectedNanos}: wall time actually spent inside device operations;
 *   {@code energyJoules}: modeled read, write and standby energy.</li>
 *   <li>{@code dirtySkips}: dirty eviction candidates that write-aware eviction passed over for a
 *   clean one; {@code writeAwareBudget}: how many times it may currently pass over one dirty frame
 *   (0 when the plain policy is in force or write-aware eviction is off).</li>
 *   <li>{@code prefetched}: pages the NVM prefetcher faulted into free frames (they are also counted
 *   in {@code swapIns}); {@code prefetchHintsDropped}: hints it dropped because the page was
 *   resident, no longer in NVM, its file was closing, no frame was free, or newer hints pushed it out
 *   of the prefetcher's full queue.</li>
 * </ul>
 */
public record NvmCacheStats(
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
    double energyJoules,
    long dirtySkips,
    int writeAwareBudget,
    long prefetched,
    long prefetchHintsDropped) {

    /** The counters of a cache without the NVM tier. */
    public static final NvmCacheStats NONE = new NvmCacheStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    static NvmCacheStats of(TierCounters tier, long dirtySkips, int writeAwareBudget, long prefetched, long dropped) {
        return new NvmCacheStats(tier.reads(), tier.writes(), tier.bytesRead(), tier.bytesWritten(),
            tier.swapIns(), tier.swapOuts(), tier.dirtySwapOuts(), tier.cleanEvictionsAbsorbed(),
            tier.fileReadsAvoided(), tier.fileWritesAvoided(), tier.writeBacks(), tier.wearMax(), tier.wearMean(),
            tier.modeledDeviceNanos(), tier.injectedNanos(), tier.energyJoules(), dirtySkips, writeAwareBudget,
            prefetched, dropped);
    }

    @Override
    public String toString() {
        return String.format("nvm reads=%d writes=%d bytesRead=%d bytesWritten=%d swapIns=%d swapOuts=%d (dirty %d)"
                + " cleanEvictionsAbsorbed=%d fileReadsAvoided=%d fileWritesAvoided=%d writeBacks=%d wearMax=%d"
                + " wearMean=%.2f modeledDeviceMs=%.3f injectedMs=%.3f energyJ=%.6f dirtySkips=%d writeAwareBudget=%d"
                + " prefetched=%d prefetchHintsDropped=%d",
            reads, writes, bytesRead, bytesWritten, swapIns, swapOuts, dirtySwapOuts, cleanEvictionsAbsorbed,
            fileReadsAvoided, fileWritesAvoided, writeBacks, wearMax, wearMean, modeledDeviceNanos / 1e6,
            injectedNanos / 1e6, energyJoules, dirtySkips, writeAwareBudget, prefetched, prefetchHintsDropped);
    }
}
