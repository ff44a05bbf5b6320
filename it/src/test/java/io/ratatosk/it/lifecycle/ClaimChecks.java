package io.ratatosk.it.lifecycle;

import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PagedFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A map that must be refused while this thread's own file is mapped (by its reference, which only a close of the cache
 * can unmap, also one refused for another file: no other thread maps the file): by a second page cache of this JVM, through any spelling of the file
 * (IllegalStateException naming it: two caches of one file would each keep its pages), or by the same cache with
 * another page size (IllegalArgumentException naming both). Only the thread's own file: a second cache's claim of a
 * shared file, taken while no thread had it mapped, would refuse every other thread's map of it meanwhile. {@link Worker}
 * draws it, from a random source of its own.
 */
final class ClaimChecks {
    /** Page sizes other than the own file's ({@link ScenarioConfig#CACHE_PAGE_SIZE}). */
    private static final int[] OTHER_PAGE_SIZES = {512, 1024, 2048};
    private final Worker worker;
    private final Scenario sc;
    private final int t;
    private final SplittableRandom rnd;
    private final StringBuilder trace;

    ClaimChecks(Worker worker, SplittableRandom rnd) {
        this.worker = worker;
        this.sc = worker.sc;
        this.t = worker.t;
        this.rnd = rnd;
        this.trace = worker.trace;
    }

    void mapMappedFileAgain() throws IOException {
        FileModel f = sc.privateFiles.get(t);
        Ref ref = worker.ensureRef(f, false);
        Path spelling = f.spellings.get(rnd.nextInt(f.spellings.size()));
        if (rnd.nextBoolean()) {
            mapInSecondCache(ref, spelling);
        } else {
            mapWithOtherPageSize(ref, spelling, OTHER_PAGE_SIZES[rnd.nextInt(OTHER_PAGE_SIZES.length)]);
        }
    }

    private void mapInSecondCache(Ref ref, Path spelling) throws IOException {
        FileModel f = ref.file();
        trace.append("map ").append(f.name).append(" via ").append(f.label(spelling)).append(" in a second cache ");
        int pageSize = sc.config.cachePageSize();
        // small and quiet: no evictor, warm-up or bean of its own
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", Long.toString(16L * pageSize),
            "pagecache.page_size", Integer.toString(pageSize), "pagecache.evictor.enabled", "false",
            "pagecache.warmup.enabled", "false", "pagecache.jmx.enabled", "false"));
        try (PageCache second = PageCache.open(config)) {
            PagedFile pf;
            try {
                pf = second.map(spelling, f.pageSize);
            } catch (IllegalStateException e) {
                if (!String.valueOf(e.getMessage()).contains(f.name)) {
                    throw worker.fail("a second cache's map of " + f.label(spelling) + ", mapped in " + ref.gen() + ", was"
                        + " refused without naming the file: " + e.getMessage(), e);
                }
                trace.append("refused ");
                sc.secondCacheMapsRefused.incrementAndGet();
                return;
            }
            pf.close();
            if (!ref.mayBeClosed()) {
                throw worker.fail("a second cache mapped " + f.label(spelling) + " while " + ref + " has it mapped: two caches"
                    + " of one file, each keeping its pages", null);
            }
            unmappedMeanwhile(ref);
        }
    }

    /**
     * A map that was not refused found the file unmapped: a close of the cache since the reference's map explains that (one
     * refused for another file's held page unmaps the files it got to first, PageCache.close says); the reference is dead.
     */
    private void unmappedMeanwhile(Ref ref) {
        trace.append("mapped (a close of the cache unmapped the file meanwhile) ");
        worker.dropIfDead(ref);
    }

    private void mapWithOtherPageSize(Ref ref, Path spelling, int pageSize) throws IOException {
        FileModel f = ref.file();
        worker.workOn(ref); // a close of the cache explains an IllegalStateException
        trace.append("map ").append(f.name).append(" via ").append(f.label(spelling)).append(" with page size ").append(pageSize)
            .append(' ');
        PagedFile pf;
        try {
            pf = ref.gen().cache.map(spelling, pageSize);
        } catch (IllegalArgumentException e) {
            String message = String.valueOf(e.getMessage());
            if (!message.contains(Integer.toString(pageSize)) || !message.contains(Integer.toString(f.pageSize))) {
                throw worker.fail("map(" + f.label(spelling) + ", " + pageSize + ") of a file mapped with page size "
                    + f.pageSize + " was refused without naming both: " + message, e);
            }
            trace.append("refused ");
            sc.otherPageSizeMapsRefused.incrementAndGet();
            return;
        }
        pf.close();
        if (!ref.mayBeClosed()) {
            throw worker.fail("map(" + f.label(spelling) + ", " + pageSize + ") returned " + pf + " while " + ref + " has the"
                + " file mapped with page size " + f.pageSize, null);
        }
        unmappedMeanwhile(ref);
    }
}
