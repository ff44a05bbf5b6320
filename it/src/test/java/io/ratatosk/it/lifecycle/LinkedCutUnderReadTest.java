package io.ratatosk.it.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ratatosk.pagecache.CursorException;
import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A library defect the lifecycle model met (LINKED_READ of a shared file that SHARED_TRUNCATE cuts), fixed in
 * PageCursor.repinTree: a read cursor whose page a truncate cut under its read is left on no page with a cursor exception
 * saying so (PageCursor.shouldRetry); where a later round of the same loop retried because a link's page changed,
 * {@code repinTree} cleared that exception and, the cursor being on no page, set nothing again: the loop ended with the
 * parent's reads out of bounds (zeros) and {@code checkAndClearCursorException()} silent, so the read idiom of
 * docs/architecture.md took the zeros for the record. A cursor on no page now keeps its exception.
 */
class LinkedCutUnderReadTest {
    private static final int PAGE = 4096;

    @TempDir
    Path dir;

    @Test
    void aParentCutUnderItsReadStillSaysSoAfterItsLinksPageChanged() throws IOException {
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", Long.toString(64L * PAGE),
            "pagecache.page_size", Integer.toString(PAGE), "pagecache.evictor.enabled", "false")))) {
            PagedFile pf = cache.map(dir.resolve("f"), PAGE);
            try {
                try (PageCursor w = pf.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                    for (long p = 0; p < 8; p++) {
                        assertTrue(w.next(p));
                        PageImage.write(w, 7, p, 1);
                    }
                }
                try (PageCursor parent = pf.io(6, PagedFile.PF_SHARED_READ_LOCK)) {
                    assertTrue(parent.next());
                    PageCursor link = parent.openLinkedCursor(1);
                    assertTrue(link.next());
                    parent.getLong(0);
                    link.getLong(0);
                    pf.truncate(4); // cuts the parent's page 6
                    assertTrue(parent.shouldRetry(), "the parent's page was cut");
                    parent.getLong(0);
                    link.getLong(0);
                    try (PageCursor w = pf.io(1, PagedFile.PF_SHARED_WRITE_LOCK)) { // the link's page changes
                        assertTrue(w.next());
                        PageImage.write(w, 7, 1, 2);
                    }
                    boolean again = parent.shouldRetry();
                    parent.getLong(0);
                    link.getLong(0);
                    // Nothing changes the pages now (one thread): a round or two more ends the loop. A bound, not the
                    // idiom's unbounded loop, so that a shouldRetry() that never stops fails here instead of hanging the build
                    for (int round = 0; parent.shouldRetry(); round++) {
                        if (round == 100) {
                            fail("shouldRetry() still true after 100 more rounds with no page changing: the read loop never ends");
                        }
                        parent.getLong(0);
                        link.getLong(0);
                    }
                    assertTrue(again, "the link's page changed: the second round retries");
                    assertTrue(parent.checkAndClearBoundsFlag(), "the parent read out of bounds");
                    assertThrows(CursorException.class, parent::checkAndClearCursorException,
                        "the parent's page was truncated away while it was read: the cursor must say so");
                }
            } finally {
                pf.close();
            }
        }
    }
}
