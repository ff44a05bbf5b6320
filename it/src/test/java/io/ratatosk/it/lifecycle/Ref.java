package io.ratatosk.it.lifecycle;

import io.ratatosk.pagecache.PagedFile;
import java.nio.file.Path;

/**
 * One reference a worker holds on a mapped file: which cache generation mapped it, through which
 * spelling, and how many close attempts of that cache had finished when the map began.
 */
record Ref(CacheGeneration gen, FileModel file, PagedFile pf, Path spelling, int closesFinishedBeforeMap) {
    /** True if a close of the cache could have unmapped this file since it was mapped. */
    boolean mayBeClosed() {
        return gen.closingSince(closesFinishedBeforeMap);
    }

    @Override
    public String toString() {
        return file.name + " via " + spelling + " in g" + gen.number;
    }
}
