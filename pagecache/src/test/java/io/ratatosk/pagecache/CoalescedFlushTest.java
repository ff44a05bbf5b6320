package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.pagecache.internal.WriteRun;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A flush writes runs of adjacent dirty pages in one vectored call each, every page exactly once, and
 * the counters in {@code stats().io()} say so.
 */
class CoalescedFlushTest {
    private static final int PAGE = 4096;
    private static final long[] BODY = new long[PageContent.bodyWords(PAGE)];

    @TempDir
    Path dir;

    private static PageCacheConfig config() {
        return PageCacheConfig.parse(Map.of("pagecache.memory", "64m", "pagecache.page_size", "4k",
            "pagecache.evictor.enabled", "false", "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled", "false"));
    }

    /** Dirty pages in runs of 16 to 40 adjacent pages, a gap of 1 to 3 clean pages between runs: 10,000 in all. */
    private static List<Long> dirtyPagesInRuns() {
        List<Long> pages = new ArrayList<>();
        long next = 0;
        for (int run = 0; pages.size() < 10_000; run++) {
            int length = Math.min(16 + (run * 7) % 25, 10_000 - pages.size());
            for (int i = 0; i < length; i++) {
                pages.add(next++);
            }
            next += 1 + run % 3;
        }
        return pages;
    }

    @Test
    void flushingTenThousandPagesInRunsOfSixteenOrMoreTakesATenthAsManyWriteCalls() throws IOException {
        List<RecordingSwapper.WriteCall> calls = RecordingSwapper.newLog();
        List<Long> dirty = dirtyPagesInRuns();
        Path path = dir.resolve("runs.db");
        try (PageCache cache = PageCache.open(config(), RecordingSwapper.factory(calls, System::nanoTime));
             PagedFile file = cache.map(path, PAGE)) {
            for (long pageId : dirty) {
                try (PageCursor c = file.io(pageId, PagedFile.PF_SHARED_WRITE_LOCK)) {
                    assertTrue(c.next());
                    PageContent.write(c, pageId, 1);
                }
            }
            calls.clear(); // far writes while growing the file, if any, are not the flush's
            file.flush();

            long pagesWritten = calls.stream().mapToLong(RecordingSwapper.WriteCall::pages).sum();
            assertEquals(dirty.size(), pagesWritten, "every dirty page written exactly once");
            assertTrue(calls.size() * 10 <= dirty.size(), calls.size() + " write calls for " + dirty.size() + " pages");
            System.out.println("CoalescedFlushTest: " + calls.size() + " write calls for " + dirty.size() + " dirty pages");
            List<Long> written = new ArrayList<>();
            calls.forEach(call -> {
                for (int i = 0; i < call.pages(); i++) {
                    written.add(call.startPageId() + i);
                }
            });
            assertEquals(dirty, written, "the calls cover exactly the dirty pages, in page order");
            IoStats io = cache.stats().io();
            assertEquals(dirty.size(), io.pagesWritten());
            assertEquals(calls.size(), io.writeCalls());

            calls.clear();
            file.flush();
            assertEquals(List.of(), calls, "a second flush finds nothing dirty");
        }
        try (PageCache cache = PageCache.open(config()); PagedFile file = cache.map(path, PAGE, false)) {
            for (long pageId : dirty) {
                try (PageCursor c = file.io(pageId, PagedFile.PF_SHARED_READ_LOCK)) {
                    assertTrue(c.next());
                    assertEquals(1, PageContent.readValidated(c, pageId, BODY), "page " + pageId);
                }
            }
        }
    }

    @Test
    void aRunStopsAtTheLongestVectoredWrite() throws IOException {
        List<RecordingSwapper.WriteCall> calls = RecordingSwapper.newLog();
        int pages = 3 * WriteRun.MAX_PAGES + 5;
        try (PageCache cache = PageCache.open(config(), RecordingSwapper.factory(calls, System::nanoTime));
             PagedFile file = cache.map(dir.resolve("long.db"), PAGE)) {
            for (long pageId = 0; pageId < pages; pageId++) {
                try (PageCursor c = file.io(pageId, PagedFile.PF_SHARED_WRITE_LOCK)) {
                    assertTrue(c.next());
                    PageContent.write(c, pageId, 1);
                }
            }
            calls.clear();
            file.flush();
            assertEquals(List.of(128, 128, 128, 5), calls.stream().map(RecordingSwapper.WriteCall::pages).toList());
        }
    }
}
