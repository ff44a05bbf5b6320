package io.ratatosk.it.lifecycle;

import io.ratatosk.pagecache.PagedFile;
import java.nio.file.Path;

/**
 * A mapped file a worker uses: which cache generation mapped it, through which spelling, and how many
 * close attempts of that cache had finished when the map began. An owned one is a reference the worker
 * holds (and closes); a borrowed one is another thread's mapping used without a reference of its own
 * (or the worker's own after it closed it), which may be unmapped under it at any time.
 */
record Ref(CacheGeneration gen, FileModel file, PagedFile pf, Path spelling, int closesFinishedBeforeMap, boolean borrowed) {
    /** True if a close of the cache or the file could have unmapped this file since it was mapped. */
    boolean mayBeClosed() {
        return borrowed || gen.closingSince(closesFinishedBeforeMap);
    }

    Ref asBorrowed() {
        return new Ref(gen, file, pf, spelling, closesFinishedBeforeMap, true);
    }

    @Override
    public String toString() {
        return file.name + " via " + file.label(spelling) + " in g" + gen.number + (borrowed ? " (borrowed)" : "");
    }
}
