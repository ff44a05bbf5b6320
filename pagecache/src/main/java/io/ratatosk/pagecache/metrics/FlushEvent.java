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
 * One write call of a flush: the JFR event {@code io.ratatosk.Flush}, with the file, the first page, the
 * number of adjacent pages the call wrote, and how long it took. Off unless a recording enables it.
 */
@Name("io.ratatosk.Flush")
@Label("Page Flush")
@Category({"Ratatosk", "Page Cache"})
@Description("A run of adjacent dirty pages written by a flush in one call")
@Enabled(false)
@StackTrace(false)
public final class FlushEvent extends Event {
    @Label("File")
    public String file;

    @Label("Page")
    public long page;

    @Label("Pages")
    public int pages;

    /**
     * A begun event, or null while the JVM has no flight recorder: as {@link FaultEvent#create()}, so that a
     * flush without a recording allocates nothing per run.
     */
    public static FlushEvent create() {
        if (!FlightRecorder.isInitialized()) {
            return null;
        }
        FlushEvent event = new FlushEvent();
        event.begin();
        return event;
    }
}
