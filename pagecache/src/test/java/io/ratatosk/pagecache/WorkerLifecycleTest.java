package io.ratatosk.pagecache;

import static io.ratatosk.pagecache.LifecycleTest.read;
import static io.ratatosk.pagecache.LifecycleTest.write;
import static io.ratatosk.pagecache.SwapPluginMisuseTest.config;
import static io.ratatosk.pagecache.SwapPluginMisuseTest.newCacheThreads;
import static io.ratatosk.pagecache.SwapPluginMisuseTest.threadsNow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ratatosk.core.PageKey;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cache's background workers (evictor, warm-up, tier prefetcher, read-ahead) against what a host does around them:
 * close the cache from the handler their failures are reported to, interrupt them, open and close caches again and
 * again. The cache must neither hang nor leave a thread behind.
 */
class WorkerLifecycleTest {
    private static final int PAGE = 4096;

    @TempDir
    Path dir;

    private Thread.UncaughtExceptionHandler previousHandler;

    @BeforeEach
    void keepHandler() {
        previousHandler = Thread.getDefaultUncaughtExceptionHandler();
    }

    @AfterEach
    void restoreHandler() {
        Thread.setDefaultUncaughtExceptionHandler(previousHandler);
    }

    /** A prefetching tier whose readsInFlight() throws once {@link #failReads} is set: a plug-in's bug. */
    static final class FailingPrefetchTier extends SwapPluginMisuseTest.PrefetchingTier {
        volatile SwapInListener listener;
        volatile boolean failReads;

        @Override
        public void swapInListener(SwapInListener listener) {
            this.listener = listener;
        }

        @Override
        public int readsInFlight() {
            if (failReads) {
                throw new IllegalStateException("injected: readsInFlight failed");
            }
            return 0;
        }

        @Override
        public boolean contains(int fileId, long pageId) {
            return true;
        }
    }

    /**
     * A host that shuts its store down on any uncaught exception (as databases do) closes the cache on the thread of
     * the worker whose failure it was told of. The close waited for that worker to end, that is for itself: it never
     * returned, held the close lock for good (every other close hung behind it), and the worker's thread never ended.
     */
    @Test
    void aCloseFromTheHandlerAWorkersFailureIsReportedToReturnsAndTheWorkerEnds() throws Exception {
        Set<Thread> before = threadsNow();
        FailingPrefetchTier tier = new FailingPrefetchTier();
        PageCache cache = PageCache.open(config(), tier);
        Path path = dir.resolve("closed-from-handler");
        PagedFile file = cache.map(path, PAGE);
        write(file, 0, 7);
        AtomicBoolean closing = new AtomicBoolean();
        CompletableFuture<Thread> closedOn = new CompletableFuture<>();
        Thread.setDefaultUncaughtExceptionHandler((thread, failure) -> {
            if (String.valueOf(failure.getMessage()).startsWith("injected") && closing.compareAndSet(false, true)) {
                try {
                    cache.close();
                    closedOn.complete(thread);
                } catch (Throwable t) {
                    closedOn.completeExceptionally(t);
                }
            }
        });
        tier.failReads = true;
        tier.listener.swappedIn(PageCacheInternals.fileId(file), 0, 0); // a hint: the prefetcher's next step fails
        Thread closer;
        try {
            closer = closedOn.get(1, TimeUnit.MINUTES);
        } catch (TimeoutException e) {
            fail("the close from the handler did not return in a minute; cache threads: " + newCacheThreads(before));
            return;
        }
        assertEquals("ratatosk-tier-prefetch", closer.getName(), "the handler ran on the failed worker's thread");
        assertTrue(cache.isClosed());
        assertTrue(cache.isMemoryReleased());
        closer.join(TimeUnit.MINUTES.toMillis(1)); // it ends once the handler returns
        assertEquals(List.of(), newCacheThreads(before), "the cache's threads must end");
        try (PageCache again = PageCache.open(config()); PagedFile reopened = again.map(path, PAGE)) {
            assertEquals(7, read(reopened, 0), "the close flushed the file");
        }
    }

    /**
     * A host whose uncaught exception handler exits the JVM (on an OutOfMemoryError, say) and whose shutdown hook closes
     * the cache: System.exit on the failed worker's thread waits for the hooks, and the hook's close waited for that
     * worker to end. Neither ever did: the JVM hung on its way out. The child JVM must exit, with the handler's status,
     * after the hook's close.
     */
    @Test
    void aJvmExitFromAWorkersHandlerWithAHookThatClosesTheCacheEnds() throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
            .toString(), "-Xmx64m", "-cp", System.getProperty("java.class.path"), ExitFromHandler.class.getName(),
            dir.resolve("exit-from-handler").toString()));
        if (Runtime.version().feature() >= 23) {
            command.add(1, "--sun-misc-unsafe-memory-access=allow"); // the cache's page memory is Unsafe's
        }
        Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve("child.log").toFile())
            .start();
        boolean ended = child.waitFor(30, TimeUnit.SECONDS);
        if (!ended) {
            child.destroyForcibly().waitFor();
        }
        String output = java.nio.file.Files.readString(dir.resolve("child.log"));
        assertTrue(ended, "the JVM did not exit in 30 s:\n" + output);
        assertEquals(ExitFromHandler.STATUS, child.exitValue(), output);
        assertTrue(output.contains("closed by the hook"), output);
    }

    /** The child of {@link #aJvmExitFromAWorkersHandlerWithAHookThatClosesTheCacheEnds}. */
    public static final class ExitFromHandler {
        static final int STATUS = 3;

        public static void main(String[] args) throws Exception {
            FailingPrefetchTier tier = new FailingPrefetchTier();
            PageCache cache = PageCache.open(config(), tier);
            PagedFile file = cache.map(Path.of(args[0]), PAGE);
            write(file, 0, 7);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    cache.close();
                    System.out.println("closed by the hook");
                } catch (Throwable t) {
                    t.printStackTrace();
                }
            }));
            Thread.setDefaultUncaughtExceptionHandler((thread, failure) -> System.exit(STATUS));
            tier.failReads = true;
            tier.listener.swappedIn(PageCacheInternals.fileId(file), 0, 0); // the prefetcher's next step fails
            Thread.sleep(TimeUnit.MINUTES.toMillis(1));
        }
    }

    /**
     * Every thread a cache starts (evictor, warm-up, read-ahead, tier prefetcher) ends with its close, and its MBean goes:
     * a store that opens and closes caches again and again (tests, a restart loop) keeps none of them.
     */
    @Test
    void manyOpenAndCloseCyclesLeaveNoThreadAndNoBean() throws Exception {
        Set<Thread> before = threadsNow();
        Path path = dir.resolve("cycles");
        for (int cycle = 0; cycle < 25; cycle++) {
            PageCacheConfig warm = config("pagecache.warmup.enabled", "true", "pagecache.jmx.enabled", "true",
                "pagecache.name", "cycles");
            try (PageCache cache = PageCache.open(warm); PagedFile file = cache.map(path, PAGE)) {
                for (long p = 0; p < 32; p++) {
                    write(file, p, cycle);
                }
                try (PageCursor scan = file.io(0, PagedFile.PF_SHARED_READ_LOCK | PagedFile.PF_READ_AHEAD)) {
                    while (scan.next()) {
                        scan.getLong(0);
                    }
                }
            }
            try (PageCache tiered = PageCache.open(config(), new SwapPluginMisuseTest.PrefetchingTier());
                 PagedFile file = tiered.map(path, PAGE)) {
                assertEquals(cycle, read(file, 31));
            }
        }
        assertEquals(List.of(), newCacheThreads(before), "threads left by 25 cycles");
        assertEquals(Set.of(), java.lang.management.ManagementFactory.getPlatformMBeanServer().queryNames(
            new javax.management.ObjectName("io.ratatosk:type=PageCache,name=cycles*"), null));
    }
}
