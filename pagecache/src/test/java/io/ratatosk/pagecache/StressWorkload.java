package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The workload of the stress tests: {@value #THREADS} threads read and write random pages of a file ten
 * times the {@value #FRAMES} frames, every page carrying its id, a version and a body derived from both
 * ({@link PageContent}). Each page has one writing thread, so its versions are written in order, and
 * {@code committed[p]} holds the last version of page p whose write cursor was closed. Readers check
 * every validated read: no torn or misplaced page, never older than what was committed before the
 * read began.
 */
public final class StressWorkload {
    public static final int PAGE_SIZE = 4096;
    public static final int FRAMES = 48;
    public static final int FILE_PAGES = FRAMES * 10;
    public static final int THREADS = 8;
    public static final int OPS_PER_THREAD = 3000;

    private StressWorkload() {
    }

    /** Every page at version -1: never written. */
    public static AtomicLongArray nothingCommitted() {
        AtomicLongArray committed = new AtomicLongArray(FILE_PAGES);
        for (int p = 0; p < FILE_PAGES; p++) {
            committed.set(p, -1);
        }
        return committed;
    }

    /** Runs the threads on {@code file} to the end; the first failure of any thread fails the call. */
    public static void run(PagedFile file, AtomicLongArray committed) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    work(file, thread, committed);
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static void work(PagedFile file, int thread, AtomicLongArray committed) throws Exception {
        SplittableRandom random = new SplittableRandom(thread * 31L + 7);
        long[] body = new long[PageContent.bodyWords(PAGE_SIZE)];
        // One reusable read cursor per thread, moved with next(pageId), as a database would use it.
        try (PageCursor reader = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            for (int op = 0; op < OPS_PER_THREAD; op++) {
                long pageId = random.nextInt(FILE_PAGES);
                if (random.nextInt(4) == 0) {
                    pageId = pageId - pageId % THREADS + thread; // write only the pages this thread owns
                }
                if (pageId % THREADS == thread && random.nextInt(3) == 0) {
                    long version = committed.get((int) pageId) + 1;
                    try (PageCursor w = file.io(pageId, PagedFile.PF_SHARED_WRITE_LOCK)) {
                        assertTrue(w.next());
                        PageContent.write(w, pageId, version);
                    }
                    committed.set((int) pageId, version);
                } else {
                    long before = committed.get((int) pageId);
                    if (reader.next(pageId)) {
                        long seen = PageContent.readValidated(reader, pageId, body);
                        if (seen < before) {
                            throw new AssertionError("lost write: page " + pageId + " read version " + seen
                                + " after version " + before + " was committed");
                        }
                    } else if (before >= 0) {
                        throw new AssertionError("page " + pageId + " was written but next() says it does not exist");
                    }
                }
            }
        }
    }

    /** Records spanning two pages in the spanning-record workload: one per page but the last. */
    public static final int RECORDS = FILE_PAGES - 1;
    /** More operations than the page workload's: a torn record needs a reader and a writer on two pages at once. */
    public static final int SPANNING_OPS_PER_THREAD = 3 * OPS_PER_THREAD;

    /**
     * The spanning-record workload ({@link SpanningRecord}): {@value #THREADS} threads read and write
     * random records, each spanning two pages, of a file ten times the frames. Record r is written only by
     * thread {@code r % THREADS}, holding write cursors on both its pages; {@code committed[r]} is its last
     * version whose write cursors were closed. Readers read through a cursor and a linked cursor, the
     * length checked through a cursor exception, and check that no accepted record is torn or older than
     * what was committed before the read began. Returns the records read and accepted.
     */
    public static long runSpanning(PagedFile file, AtomicLongArray committed) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<Long>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                futures.add(pool.submit(() -> workSpanning(file, thread, committed)));
            }
            long accepted = 0;
            for (Future<Long> f : futures) {
                accepted += f.get(120, TimeUnit.SECONDS);
            }
            return accepted;
        } finally {
            pool.shutdownNow();
        }
    }

    private static long workSpanning(PagedFile file, int thread, AtomicLongArray committed) throws Exception {
        SplittableRandom random = new SplittableRandom(thread * 131L + 3);
        long[] payload = new long[SpanningRecord.PAYLOAD_WORDS];
        long accepted = 0;
        try (PageCursor reader = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            for (int op = 0; op < SPANNING_OPS_PER_THREAD; op++) {
                long record = random.nextInt(RECORDS);
                if (random.nextInt(4) == 0) {
                    record = Math.min(RECORDS - 1, record - record % THREADS + thread);
                }
                if (record % THREADS == thread && random.nextInt(3) == 0) {
                    long version = committed.get((int) record) + 1;
                    try (PageCursor first = file.io(record, PagedFile.PF_SHARED_WRITE_LOCK);
                         PageCursor second = first.openLinkedCursor(record + 1)) {
                        assertTrue(first.next());
                        assertTrue(second.next());
                        SpanningRecord.write(first, second, record, version);
                    }
                    committed.set((int) record, version);
                } else {
                    long before = committed.get((int) record);
                    if (reader.next(record) && record + 1 <= file.getLastPageId()) {
                        long seen = SpanningRecord.readValidated(reader, record, payload);
                        accepted++;
                        if (seen < before) {
                            throw new AssertionError("lost write: record " + record + " read version " + seen
                                + " after version " + before + " was committed");
                        }
                    } else if (before >= 0) {
                        throw new AssertionError("record " + record + " was written but its pages do not exist");
                    }
                }
            }
        }
        return accepted;
    }

    /** Checks that every spanning record of {@code file} holds exactly its last committed version. */
    public static void verifySpanning(PagedFile file, AtomicLongArray committed, String when) throws IOException {
        long[] payload = new long[SpanningRecord.PAYLOAD_WORDS];
        try (PageCursor c = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            for (int r = 0; r < RECORDS; r++) {
                long expected = committed.get(r);
                if (r + 1 > file.getLastPageId()) {
                    assertEquals(-1, expected, "record " + r + " was written but lies past the end of the file " + when);
                    continue;
                }
                assertTrue(c.next(r));
                assertEquals(expected, SpanningRecord.readValidated(c, r, payload), "version of record " + r + " " + when);
            }
        }
    }

    /** Checks that every page of {@code file} holds exactly its last committed version. */
    public static void verify(PagedFile file, AtomicLongArray committed, String when) throws IOException {
        long[] body = new long[PageContent.bodyWords(PAGE_SIZE)];
        try (PageCursor c = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            for (int p = 0; p < FILE_PAGES; p++) {
                long expected = committed.get(p);
                if (p > file.getLastPageId()) {
                    assertEquals(-1, expected, "page " + p + " was written but is past the end of the file " + when);
                    continue;
                }
                assertTrue(c.next(p));
                assertEquals(expected, PageContent.readValidated(c, p, body), "version of page " + p + " " + when);
            }
        }
    }
}
