package io.ratatosk.pagecache.metrics;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
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
}
