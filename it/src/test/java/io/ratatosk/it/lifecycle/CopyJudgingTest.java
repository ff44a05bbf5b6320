package io.ratatosk.it.lifecycle;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The model's verdict on a copy ({@link CopyOperations#wrongCopy}) must accept what the page cache does where it keeps
 * copyTo's promise: every mix of offsets and lengths at and around the pages' ends, from a cursor on a page and from one
 * on no page, judged against the library's answers. A verdict stricter than the promise fails the model falsely, now and
 * then, on a correct library.
 */
@ExtendWith(HangLimit.class)
class CopyJudgingTest {
    private static final int PAGE = 4096;
    private static final int[] OFFSETS = {-1, 0, 1, 8, PAGE - 1, PAGE, PAGE + 1};
    private static final int[] LENGTHS = {-1, 0, 1, 8, PAGE, PAGE + 1};

    @TempDir
    Path dir;

    @Test
    void theVerdictAcceptsWhatCopyToPromisesFromACursorOnAPageOrOnNone() throws IOException {
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", Long.toString(16L * PAGE),
                "pagecache.page_size", Integer.toString(PAGE), "pagecache.evictor.enabled", "false")));
             PagedFile pf = cache.map(dir.resolve("f"), PAGE)) {
            try (PageCursor w = pf.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(w.next());
                w.putLong(0, 42);
            }
            try (PageCursor target = pf.io(1, PagedFile.PF_SHARED_WRITE_LOCK);
                 PageCursor onPage = pf.io(0, PagedFile.PF_SHARED_READ_LOCK);
                 PageCursor onNone = pf.io(9, PagedFile.PF_SHARED_READ_LOCK)) {
                assertTrue(target.next());
                assertTrue(onPage.next());
                assertFalse(onNone.next(), "page 9 is past the file's end");
                for (int sourceOffset : OFFSETS) {
                    for (int targetOffset : OFFSETS) {
                        for (int length : LENGTHS) {
                            judge(onPage, true, target, sourceOffset, targetOffset, length);
                            judge(onNone, false, target, sourceOffset, targetOffset, length);
                        }
                    }
                }
            }
        }
    }

    private static void judge(PageCursor source, boolean sourceOn, PageCursor target, int sourceOffset, int targetOffset,
                              int length) {
        int copied = source.copyTo(sourceOffset, target, targetOffset, length);
        boolean flag = source.checkAndClearBoundsFlag();
        assertNull(CopyOperations.wrongCopy(sourceOn, copied, flag, PAGE, PAGE, sourceOffset, targetOffset, length),
            "copyTo(" + sourceOffset + ", target, " + targetOffset + ", " + length + ") from a cursor "
                + (sourceOn ? "on a page" : "on no page"));
    }
}
