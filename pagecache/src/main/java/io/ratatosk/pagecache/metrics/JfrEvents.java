package io.ratatosk.pagecache.metrics;

import java.util.function.Supplier;

/**
 * The page cache's JFR events where the JVM has the {@code jdk.jfr} module, and none where it has not (a runtime image
 * that jlink made without it, or {@code --limit-modules}): the events' classes extend {@code jdk.jfr.Event}, and there
 * the first use of one threw {@link NoClassDefFoundError} from every fault, eviction and flush, so that the cache could
 * not read a page. This class names no JFR type itself; the events' own {@code create()} is called only when the module
 * is there.
 *
 * <p>Making an event never throws: an event that cannot be made (an {@link OutOfMemoryError} allocating it while a
 * recording runs, a {@link StackOverflowError}) is left out, and the fault, eviction or flush goes on without it. The
 * callers take it between locking a frame (or marking a page as being faulted) and the try that undoes that, so a
 * throw there once left the page faulting for good, its waiters hanging, and the frame locked.
 */
public final class JfrEvents {
    /** Whether the JVM has {@code jdk.jfr}, so that the events' classes load. */
    public static final boolean AVAILABLE = OptionalModule.present("jdk.jfr.Event");

    private JfrEvents() {
    }

    /**
     * What makes each event: the events' {@code create()}, or a test's maker that fails as a full heap does. A class of
     * its own, initialized only where {@code jdk.jfr} is: linking a method reference loads the event class it names.
     */
    static final class Makers {
        static volatile Supplier<FaultEvent> fault = FaultEvent::create;
        static volatile Supplier<EvictionEvent> eviction = EvictionEvent::create;
        static volatile Supplier<FlushEvent> flush = FlushEvent::create;

        private Makers() {
        }
    }

    /** {@link FaultEvent#create()}, or null without {@code jdk.jfr} or where it could not be made. */
    public static FaultEvent fault() {
        return AVAILABLE ? make(Makers.fault) : null;
    }

    /** {@link EvictionEvent#create()}, or null without {@code jdk.jfr} or where it could not be made. */
    public static EvictionEvent eviction() {
        return AVAILABLE ? make(Makers.eviction) : null;
    }

    /** {@link FlushEvent#create()}, or null without {@code jdk.jfr} or where it could not be made. */
    public static FlushEvent flush() {
        return AVAILABLE ? make(Makers.flush) : null;
    }

    private static <E> E make(Supplier<E> maker) {
        try {
            return maker.get();
        } catch (Throwable t) { // an event is worth less than the page operation it would describe
            return null;
        }
    }
}
