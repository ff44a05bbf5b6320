package io.ratatosk.it.lifecycle;

import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import java.nio.file.Path;
import java.util.Map;

/**
 * Run in a JVM of its own by {@link LifecycleRegressionTest}: reads through a read cursor that stayed
 * open while its cache closed. With the bug back, the read touches page memory given back to the OS
 * and the JVM dies of SIGSEGV; the test then fails on the exit status instead of taking the test JVM
 * down with it. Exits 0 when the contract holds, 1 (with the reason) when it does not.
 */
public final class StaleReadAfterClose {
    private static final int PAGE = 4096;
    /** 64 MiB of frames: an allocation that large is given back to the OS when freed, not kept by malloc. */
    private static final int FRAMES = 16384;

    private StaleReadAfterClose() {
    }

    public static void main(String[] args) throws Exception {
        Path path = Path.of(args[0]);
        PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of(
            "pagecache.memory", Long.toString((long) FRAMES * PAGE),
            "pagecache.page_size", Integer.toString(PAGE),
            "pagecache.evictor.enabled", "false")));
        PagedFile pf = cache.map(path, PAGE);
        try (PageCursor w = pf.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            for (long p = 0; p < 4; p++) {
                w.next(p);
                PageImage.write(w, 15, p, 1);
            }
        }
        PageCursor reader = pf.io(0, PagedFile.PF_SHARED_READ_LOCK);
        long[] words = new long[PAGE / 8];
        if (!reader.next(2)) {
            fail("next(2) returned false on a page just written");
        }
        PageImage.readValidated(reader, words, null);
        if (PageImage.versionOf(words, 15, 2) != 1) {
            fail("page 2 does not hold what was written");
        }
        cache.close(); // read cursors do not hold close up
        long sum = 0;
        for (int i = 0; i < words.length; i++) {
            sum += reader.getLong(i * 8); // garbage allowed, a crash not
        }
        System.out.println("read through the stale cursor without crashing (" + Long.toHexString(sum) + ")");
        expectIllegalState(reader::shouldRetry, "shouldRetry()");
        expectIllegalState(reader::next, "next()");
        reader.close();
        System.out.println("OK");
    }

    interface Call {
        Object call() throws Exception;
    }

    private static void expectIllegalState(Call call, String what) throws Exception {
        Object result;
        try {
            result = call.call();
        } catch (IllegalStateException expected) {
            return;
        }
        fail(what + " on a read cursor after its cache closed returned " + result + " instead of throwing IllegalStateException");
    }

    private static void fail(String message) {
        System.out.println("FAILED: " + message);
        System.exit(1);
    }
}
