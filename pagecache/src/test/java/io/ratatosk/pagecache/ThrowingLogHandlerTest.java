package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cache's warnings go to the host's logging, whose handler is the host's code and may throw: the call that says the
 * warning must still do what it did, the warning then going to standard error.
 */
class ThrowingLogHandlerTest {
    @TempDir
    Path dir;

    /** A cache closed with a cursor open warns that its memory stays allocated: that warning once failed the close. */
    @Test
    void aCloseThatWarnsOfAnOpenCursorSucceedsWhenTheLogThrows() throws Exception {
        Logger log = Logger.getLogger("io.ratatosk.pagecache");
        Handler throwing = new ThrowingLogHandler();
        PrintStream err = System.err;
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "1m",
            "pagecache.evictor.enabled", "false")));
        PageCursor cursor = cache.map(dir.resolve("file.db"), 8192).io(0, PagedFile.PF_SHARED_READ_LOCK);
        log.addHandler(throwing);
        try {
            System.setErr(new PrintStream(said, true, StandardCharsets.UTF_8));
            cache.close(); // threw the handler's IllegalStateException, the cache closed all the same
        } finally {
            System.setErr(err);
            log.removeHandler(throwing);
        }
        assertTrue(cache.isClosed());
        String text = said.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("1 cursor still open") && text.contains("injected"),
            "the warning and the log's failure on standard error: " + text);
        assertFalse(cache.isMemoryReleased(), "the open cursor may still read its page");
        cursor.close();
        assertTrue(cache.isMemoryReleased(), "freed with the last cursor");
    }
}
