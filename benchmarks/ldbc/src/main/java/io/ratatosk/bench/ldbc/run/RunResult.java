package io.ratatosk.bench.ldbc.run;

import io.ratatosk.bench.ldbc.query.QueryType;
import io.ratatosk.bench.ldbc.update.UpdateType;
import io.ratatosk.pagecache.IoStats;
import io.ratatosk.pagecache.PageCacheStats;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * One policy at one cache size: what the measured phase did.
 *
 * @param measured     the page cache's counters over the measured phase
 * @param wholeRun     over warm-up and measured phase together, from a cold cache: what a replay of
 *                     the run's recorded page trace sees
 * @param latencies    per query type, nanoseconds
 * @param nvm          the NVM tier's counters over the measured phase; null without the tier
 * @param updateLatencies per update type over the measured phase, nanoseconds
 * @param pins         per query type over the measured phase: {executions, page accesses (pins)}
 * @param updates      updates applied over the whole run (warm-up included), of {@code updateStream} in all
 */
public record RunResult(String policy, String cacheSpec, long cacheBytes, int frames, long storeBytes, int threads,
                        long warmupOperations, long operations, double seconds, PageCacheStats measured,
                        PageCacheStats wholeRun, Map<QueryType, Histogram> latencies, NvmCounters nvm,
                        Map<UpdateType, Histogram> updateLatencies, Map<QueryType, long[]> pins, long updates,
                        long updateStream) {

    public double opsPerSecond() {
        return seconds > 0 ? operations / seconds : 0;
    }

    /** The counters of {@code after} minus those of {@code before}. */
    static PageCacheStats between(PageCacheStats before, PageCacheStats after) {
        return new PageCacheStats(after.hits() - before.hits(), after.faults() - before.faults(),
            after.backgroundEvictions() - before.backgroundEvictions(),
            after.cooperativeEvictions() - before.cooperativeEvictions(),
            after.evictionWrites() - before.evictionWrites(), after.flushedPages() - before.flushedPages(),
            after.bytesRead() - before.bytesRead(), after.bytesWritten() - before.bytesWritten(),
            after.evictionErrors() - before.evictionErrors(), after.frames(), after.freeFrames(), after.policy(),
            after.policyState(),
            after.nvm(), // the tier's counters over a phase are NvmCounters; these stay cumulative
            new IoStats(after.io().pagesWritten() - before.io().pagesWritten(),
                after.io().writeCalls() - before.io().writeCalls(),
                after.io().pagesReheated() - before.io().pagesReheated()),
            after.hugePages());
    }
}
