package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** setCursorException, checkAndClearCursorException, clearCursorException, and shouldRetry clearing it. */
class CursorExceptionTest {
    private static final int PAGE = 8192;

    @TempDir
    Path dir;
    private PageCache cache;
    private PagedFile file;

    @BeforeEach
    void open() throws Exception {
        cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "256k")));
        file = cache.map(dir.resolve("exceptions.db"), PAGE);
        try (PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(w.next());
            w.putInt(0, -5);
        }
    }

    @AfterEach
    void close() throws Exception {
        cache.close();
    }

    @Test
    void aRecordedProblemIsThrownOnceAsACursorExceptionAfterAValidatedRead() throws Exception {
        try (PageCursor r = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            assertTrue(r.next());
            int length;
            do {
                length = r.getInt(0);
                if (length < 0) {
                    r.setCursorException("record length " + length + " is negative");
                }
            } while (r.shouldRetry());
            CursorException e = assertThrows(CursorException.class, r::checkAndClearCursorException);
            assertEquals("record length -5 is negative", e.getMessage());
            assertInstanceOf(IOException.class, e);
            assertDoesNotThrow(r::checkAndClearCursorException, "cleared by the throw");
        }
    }

    @Test
    void theFirstProblemRecordedWins() throws Exception {
        try (PageCursor r = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            r.setCursorException("first");
            r.setCursorException("second");
            assertEquals("first", assertThrows(CursorException.class, r::checkAndClearCursorException).getMessage());
        }
    }

    @Test
    void clearCursorExceptionForgetsIt() throws Exception {
        try (PageCursor r = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            r.setCursorException("bad pointer");
            r.clearCursorException();
            assertDoesNotThrow(r::checkAndClearCursorException);
        }
    }

    @Test
    void shouldRetryReturningTrueClearsTheProblemAndReturningFalseKeepsIt() throws Exception {
        try (PageCursor r = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            assertTrue(r.next());
            r.getInt(0);
            r.setCursorException("seen in a torn read");
            rewrite(0);
            assertTrue(r.shouldRetry(), "a writer came and went");
            assertDoesNotThrow(r::checkAndClearCursorException, "the torn read's complaint is void");

            r.getInt(0);
            r.setCursorException("seen in a good read");
            assertFalse(r.shouldRetry());
            assertThrows(CursorException.class, r::checkAndClearCursorException);
        }
    }

    @Test
    void aWriteCursorKeepsItsProblemThroughShouldRetry() throws Exception {
        try (PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(w.next());
            w.setCursorException("bad");
            assertFalse(w.shouldRetry());
            assertThrows(CursorException.class, w::checkAndClearCursorException);
        }
    }

    /**
     * A problem stays until it is reported or cleared, through {@code next()}: the cursor's own, and one a linked
     * cursor passed up as it closed (whose pins the {@code next()} does forget). The Javadoc once said a closed link's
     * problem was covered only until the parent's next {@code next()}, which the code never did.
     */
    @Test
    void aProblemStaysThroughNextUntilItIsReportedOwnOrPassedUpByAClosedLink() throws Exception {
        try (PageCursor w = file.io(1, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(w.next());
        }
        try (PageCursor r = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            assertTrue(r.next());
            try (PageCursor link = r.openLinkedCursor(1)) {
                assertTrue(link.next());
                link.setCursorException("bad tail");
            }
            assertFalse(r.shouldRetry());
            assertTrue(r.next(1));
            assertTrue(r.next(0));
            assertEquals("bad tail", assertThrows(CursorException.class, r::checkAndClearCursorException).getMessage());
            assertDoesNotThrow(r::checkAndClearCursorException, "cleared by the throw");

            r.setCursorException("bad head");
            assertTrue(r.next(1));
            assertEquals("bad head", assertThrows(CursorException.class, r::checkAndClearCursorException).getMessage());
        }
    }

    @Test
    void aClosedCursorRefusesCursorExceptionCalls() throws Exception {
        PageCursor r = file.io(0, PagedFile.PF_SHARED_READ_LOCK);
        r.close();
        assertThrows(IllegalStateException.class, () -> r.setCursorException("x"));
        assertThrows(IllegalStateException.class, r::checkAndClearCursorException);
        assertThrows(IllegalStateException.class, r::clearCursorException);
    }

    private void rewrite(long pageId) throws IOException {
        try (PageCursor w = file.io(pageId, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(w.next());
            w.putInt(0, w.getInt(0));
        }
    }
}
