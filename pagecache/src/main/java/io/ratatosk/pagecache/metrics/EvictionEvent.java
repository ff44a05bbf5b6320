package io.ratatosk.pagecache.metrics;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A page evicted from its frame: the JFR event {@code io.ratatosk.Eviction}, with the file, the page,
 * whether it was dirty (and so written out), whether the background evictor or a faulting thread evicted
 * it, and how long the eviction took. Off unless a recording enables it.
 */
@Name("io.ratatosk.Eviction")
@Label("Page Eviction")
@Category({"Ratatosk", "Page Cache"})
@Description("A page evicted from its frame, written out first if dirty")
@Enabled(false)
@StackTrace(false)
public final class EvictionEvent extends Event {
    @Label("File")
    public String file;

    @Label("Page")
    public long page;

    @Label("Dirty")
    public boolean dirty;

    @Label("Background")
    public boolean background;

    /** A begun event, or null while the JVM has no flight recorder: see {@link FaultEvent#create()}. */
    public static EvictionEvent create() {
        if (!FlightRecorder.isInitialized()) {
            return null;
        }
        EvictionEvent event = new EvictionEvent();
        event.begin();
        return event;
    }
}
