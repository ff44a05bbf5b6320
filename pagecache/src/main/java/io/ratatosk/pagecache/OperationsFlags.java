package io.ratatosk.pagecache;

import io.ratatosk.core.config.Flag;
import java.util.List;

/**
 * The flags an operator sets around the cache rather than inside it: how files are read and written
 * ({@code pagecache.io}), how fast a flush may write, what the cache is called and whether it shows
 * itself over JMX, and the warm-up after a restart. Listed in {@link PageCacheFlags#ALL}; read through
 * the helpers here so every reader interprets a value the same way.
 */
public final class OperationsFlags {
    /** The {@code pagecache.io} value that goes through the operating system's page cache. */
    public static final String BUFFERED_IO = "buffered";
    /** The {@code pagecache.io} value that opens files with {@code O_DIRECT}. */
    public static final String DIRECT_IO = "direct";

    public static final Flag IO = Flag.choice("pagecache.io", BUFFERED_IO, List.of(BUFFERED_IO, DIRECT_IO),
            "How mapped files are read and written: buffered through the operating system's page cache, or direct"
                + " (O_DIRECT), bypassing it; direct needs file page sizes that are multiples of the file system's block"
                + " size, and a map that the file system refuses fails.");

    public static final Flag FLUSH_IOPS_LIMIT = Flag.integerOrUnlimited("pagecache.flush.iops_limit", "unlimited",
            Integer.MAX_VALUE,
            "Most write calls per second a flush (PagedFile.flush, PageCache.flushAndForce) issues, so that a checkpoint"
                + " leaves the device to the faults of running queries; evictions and close are not limited, nor is a flush"
                + " once a close, unmap or truncate of its file waits for it.");

    public static final Flag NAME = Flag.identifier("pagecache.name", "default",
            "The cache's name, in its JMX object name io.ratatosk:type=PageCache,name=<name>.");

    public static final Flag JMX_ENABLED = Flag.bool("pagecache.jmx.enabled", "true",
            "Register the cache's counters as the JMX MBean io.ratatosk:type=PageCache,name=<pagecache.name> while it is"
                + " open; a cache opened while another holds that name gets <name>-2 (then -3, ...).");

    public static final Flag WARMUP_ENABLED = Flag.bool("pagecache.warmup.enabled", "true",
            "Keep a profile of each mapped file's resident pages next to it (<file>.cacheprof), and after a map fault"
                + " those pages back in, in file order, in the background, into free frames only (down to the evictor's"
                + " keep_free); a stale, truncated or corrupt profile is ignored with one warning, and a file of that name that is no profile is never replaced.");

    public static final Flag WARMUP_PROFILE_INTERVAL = Flag.duration("pagecache.warmup.profile_interval", "60s",
            1_000_000_000L, 24L * 3600 * 1_000_000_000L,
            "How often the resident-page profiles are written while files are mapped; they are also written at unmap.");

    /** The flags of this class, in the order the documentation lists them. */
    public static final List<Flag> ALL = List.of(IO, FLUSH_IOPS_LIMIT, NAME, JMX_ENABLED, WARMUP_ENABLED,
            WARMUP_PROFILE_INTERVAL);

    private OperationsFlags() {
    }

    /** Whether {@code pagecache.io=direct}. */
    public static boolean directIo(PageCacheConfig config) {
        return DIRECT_IO.equals(config.getString(IO.name()));
    }

    /** {@code pagecache.flush.iops_limit}, 0 for unlimited. */
    public static int flushIopsLimit(PageCacheConfig config) {
        return config.getInt(FLUSH_IOPS_LIMIT.name());
    }

    public static String name(PageCacheConfig config) {
        return config.getString(NAME.name());
    }

    public static boolean jmxEnabled(PageCacheConfig config) {
        return config.getBoolean(JMX_ENABLED.name());
    }

    public static boolean warmupEnabled(PageCacheConfig config) {
        return config.getBoolean(WARMUP_ENABLED.name());
    }

    public static long warmupProfileIntervalNanos(PageCacheConfig config) {
        return config.getDurationNanos(WARMUP_PROFILE_INTERVAL.name());
    }
}
