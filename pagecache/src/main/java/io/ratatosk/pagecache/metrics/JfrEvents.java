package io.ratatosk.pagecache.metrics;

/**
 * The page cache's JFR events where the JVM has the {@code jdk.jfr} module, and none where it has not (a runtime image
 * that jlink made without it, or {@code --limit-modules}): the events' classes extend {@code jdk.jfr.Event}, and there
 * the first use of one threw {@link NoClassDefFoundError} from every fault, eviction and flush, so that the cache could
 * not read a page. This class names no JFR type itself; the events' own {@code create()} is called only when the module
 * is there.
 */
public final class JfrEvents {
    /** Whether the JVM has {@code jdk.jfr}, so that the events' classes load. */
    public static final boolean AVAILABLE = OptionalModule.present("jdk.jfr.Event");

    private JfrEvents() {
    }

    /** {@link FaultEvent#create()}, or null without {@code jdk.jfr}. */
    public static FaultEvent fault() {
        return AVAILABLE ? FaultEvent.create() : null;
    }

    /** {@link EvictionEvent#create()}, or null without {@code jdk.jfr}. */
    public static EvictionEvent eviction() {
        return AVAILABLE ? EvictionEvent.create() : null;
    }

    /** {@link FlushEvent#create()}, or null without {@code jdk.jfr}. */
    public static FlushEvent flush() {
        return AVAILABLE ? FlushEvent.create() : null;
    }
}
