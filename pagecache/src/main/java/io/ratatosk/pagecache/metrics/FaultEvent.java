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
 * A page read from its file (or the tier in front of it) into a frame: the JFR event
 * {@code io.ratatosk.Fault}, with the file, the page and (the event's duration) how long the read took.
 * Off unless a recording enables it ({@code jfr configure}, or {@code -XX:StartFlightRecording} with a
 * settings file naming it), so that a cache without a recording pays one check per fault.
 */
@Name("io.ratatosk.Fault")
@Label("Page Fault")
@Category({"Ratatosk", "Page Cache"})
@Description("A page read from its file into a frame of the page cache")
@Enabled(false)
@StackTrace(false)
public final class FaultEvent extends Event {
    @Label("File")
    public String file;

    @Label("Page")
    public long page;

    /**
     * A begun event, or null while the JVM has no flight recorder (no recording was ever started): then nothing
     * could record it. Escape analysis did not remove the allocation of a disabled event on the fault path
     * (async-profiler's allocation samples on {@code PolicyFaultPathBenchmark}), so the check comes first.
     */
    public static FaultEvent create() {
        if (!FlightRecorder.isInitialized()) {
            return null;
        }
        FaultEvent event = new FaultEvent();
        event.begin();
        return event;
    }
}
