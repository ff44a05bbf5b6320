package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.FrameDescriptor;
import io.ratatosk.core.FrameTable;
import io.ratatosk.pagecache.internal.TranslationTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write cursor's pin of a resident page reads the page's translation entry, then takes a shared write lock on the
 * frame it names, then checks the frame still holds the page: between the first two the page may be evicted and the
 * frame reused for another file's page. The lock it then takes and gives back at once on that other page must leave it
 * as it was: a write lock marks its page modified, and a page of a file only read, marked so, was written back (a
 * partial last page padded to a whole one: the file grew though nothing wrote to it).
 */
class WriteLockOfAReusedFrameTest {
    private static final int PAGE = 8192;

    @TempDir
    Path dir;

    @Test
    void aWriteCursorThatFindsItsFrameReusedLeavesTheOtherPageClean() throws Exception {
        byte[] readOnly = new byte[100];
        for (int i = 0; i < readOnly.length; i++) {
            readOnly[i] = (byte) (i + 1);
        }
        Path onlyRead = dir.resolve("only-read.db");
        Files.write(onlyRead, readOnly); // a partial page: a write-back would pad it to 8192 bytes
        Path written = dir.resolve("written.db");
        Files.write(written, new byte[10 * PAGE]);
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "256k",
                "pagecache.evictor.enabled", "false")))) {
            PagedFile other = cache.map(onlyRead, PAGE);
            PagedFile file = cache.map(written, PAGE);
            try (PageCursor r = other.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
                assertTrue(r.next());
            }
            FrameTable frames = PageCacheInternals.frames(cache);
            int reused = other.table().get(0) - 1;
            assertTrue(reused >= 0, "the page only read is resident");
            assertFalse(frames.isModified(reused));
            long before = frames.lockWord(reused);

            // The race, made to happen: page 5's entry, as a writer read it an instant before page 5 was evicted from the
            // frame that now holds the other file's page.
            TranslationTable table = file.table();
            assertEquals(TranslationTable.ABSENT, table.get(5));
            table.set(5, reused + 1);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread writer = new Thread(() -> {
                try (PageCursor w = file.io(5, PagedFile.PF_SHARED_WRITE_LOCK)) {
                    assertTrue(w.next()); // looks again until the entry is put right, then faults page 5 in
                    w.putLong(0, 42);
                } catch (Throwable t) {
                    failure.set(t);
                }
            }, "writer");
            writer.start();
            try {
                // The writer has locked the reused frame at least once: the lock word shows its write lock, or what its
                // release left.
                Waits.until(() -> {
                    long now = frames.lockWord(reused);
                    return FrameDescriptor.writers(now) > 0 || now != before;
                }, "the writer's write lock on the reused frame", writer);
            } finally {
                table.set(5, TranslationTable.ABSENT);
                Waits.join(writer, "the writer");
            }
            if (failure.get() != null) {
                throw new AssertionError("the writer failed", failure.get());
            }

            other.flush();
            assertArrayEquals(readOnly, Files.readAllBytes(onlyRead), "a file only read is left as it was");
            assertFalse(frames.isModified(reused), "the other file's page was only read: it is not modified");
            try (PageCursor r = file.io(5, PagedFile.PF_SHARED_READ_LOCK)) {
                assertTrue(r.next());
                assertEquals(42, r.getLong(0));
            }
        }
    }
}
