package io.ratatosk.pagecache;

import static io.ratatosk.pagecache.LifecycleTest.read;
import static io.ratatosk.pagecache.LifecycleTest.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.PageSwapper;
import io.ratatosk.pagecache.internal.FileSwapperFactory;
import io.ratatosk.pagecache.tier.PrefetchSource;
import io.ratatosk.pagecache.tier.TierCounters;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Third-party swap tiers and swappers that misbehave: whatever they throw or return, the page cache must not crash,
 * hang, leak its threads or memory, or lose what was flushed, and it says which plug-in did what.
 */
class SwapPluginMisuseTest {
    private static final int PAGE = 4096;

    @TempDir
    Path dir;

    static PageCacheConfig config(String... flags) {
        Map<String, String> values = new java.util.HashMap<>(Map.of("pagecache.memory", "64k", "pagecache.page_size", "4k",
            "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled", "false"));
        for (int i = 0; i < flags.length; i += 2) {
            values.put(flags[i], flags[i + 1]);
        }
        return PageCacheConfig.parse(values);
    }

    /** The page cache's threads alive now that were not in {@code before}. */
    static List<String> newCacheThreads(Set<Thread> before) {
        return Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.isAlive() && !before.contains(t) && t.getName().startsWith("ratatosk-"))
            .map(Thread::getName).sorted().toList();
    }

    static Set<Thread> threadsNow() {
        return new HashSet<>(Thread.getAllStackTraces().keySet());
    }

    /**
     * A tier of plain files that offers prefetching; its close throws while {@link #failHooks} is set, its listener hook
     * while {@link #failListener} is, its prefetchSource() on the first call with {@link #failFirstPrefetchSource} and
     * on later ones with {@link #failHooks}.
     */
    static class PrefetchingTier extends PlainFilesTier implements PrefetchSource {
        final AtomicInteger prefetchSourceCalls = new AtomicInteger();
        volatile boolean failHooks;
        volatile boolean failFirstPrefetchSource;
        volatile boolean failListener;
        volatile int depth = 2;

        volatile TierCounters counters = TierCounters.NONE;
        volatile boolean failCounters;

        @Override
        public TierCounters counters() {
            if (failCounters) {
                throw new IllegalStateException("injected: device gone");
            }
            return counters;
        }

        @Override
        public PrefetchSource prefetchSource() {
            if (prefetchSourceCalls.getAndIncrement() == 0 ? failFirstPrefetchSource : failHooks) {
                throw new IllegalStateException("injected: prefetchSource() failed");
            }
            return this;
        }

        @Override
        public void close() throws IOException {
            if (failHooks) {
                throw new IOException("injected: the tier's close failed");
            }
        }

        @Override
        public int depth() {
            return depth;
        }

        @Override
        public void swapInListener(SwapInListener listener) {
            if (failListener) {
                throw new IllegalStateException("injected: swapInListener failed");
            }
        }

        @Override
        public int readsInFlight() {
            return 0;
        }

        @Override
        public boolean contains(int fileId, long pageId) {
            return false;
        }

        @Override
        public int slots() {
            return 1;
        }

        @Override
        public long keyInSlot(int slot) {
            return 0;
        }
    }

    /**
     * A tier whose hooks throw when the cache closes: the close once stopped at a throwing prefetchSource() or
     * swapInListener(null), after unmapping every file but before stopping the evictor and the prefetcher, then freed
     * the page memory under those running threads. Now the hooks are asked for once, at open, and every close step runs.
     */
    @Test
    void aTierWhosePrefetchHooksThrowOnCloseStillGetsEveryThreadStoppedAndTheMemoryFreed() throws Exception {
        for (boolean listenerFails : new boolean[] {false, true}) {
            Set<Thread> before = threadsNow();
            PrefetchingTier tier = new PrefetchingTier();
            PageCache cache = PageCache.open(config(), tier);
            PagedFile file = cache.map(dir.resolve("hooks-" + listenerFails), PAGE);
            write(file, 0, 7);
            tier.failHooks = !listenerFails;
            tier.failListener = listenerFails;
            Exception e = assertThrows(Exception.class, cache::close);
            assertTrue(e.getMessage().contains("injected"), e.getMessage());
            assertEquals(List.of(), newCacheThreads(before), "the cache's threads must be stopped");
            assertTrue(cache.isMemoryReleased(), "the page memory must be freed, its threads stopped first");
            assertEquals(1, tier.prefetchSourceCalls.get(), "the hooks are asked for once, at open");
            cache.close(); // closed: nothing more to do
            try (PageCache again = PageCache.open(config()); PagedFile reopened = again.map(dir.resolve("hooks-" + listenerFails), PAGE)) {
                assertEquals(7, read(reopened, 0));
            }
        }
    }

    /** A tier whose prefetchSource() throws while the cache opens: the open once kept the page memory and the tier. */
    @Test
    void aTierWhosePrefetchSourceThrowsAtOpenIsReleasedWithEverythingTheOpenTook() throws Exception {
        Set<Thread> before = threadsNow();
        PrefetchingTier tier = new PrefetchingTier();
        tier.failFirstPrefetchSource = true;
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> PageCache.open(config(), tier));
        assertTrue(e.getMessage().contains("injected"), e.getMessage());
        assertEquals(List.of(), newCacheThreads(before));
        try (PageCache cache = PageCache.open(config(), tier); PagedFile file = cache.map(dir.resolve("after"), PAGE)) {
            write(file, 1, 11);
            assertEquals(11, read(file, 1));
        }
        tier.prefetchSourceCalls.set(0);
        tier.failFirstPrefetchSource = false;
        tier.failListener = true;
        assertThrows(IllegalStateException.class, () -> PageCache.open(config(), tier));
        assertEquals(List.of(), newCacheThreads(before), "a listener that throws at open must not leave a thread running");
        tier.failListener = false;
        PageCache.open(config(), tier).close();
    }

    // ---- swapper factories ------------------------------------------------------------------------

    /**
     * A factory that hands the swapper of one file out again for another: the second file's pages were written through
     * the first file's swapper, into the first file, and closing either closed the other's. Refused, naming both.
     */
    @Test
    void aFactoryThatReturnsAnotherFilesSwapperIsRefusedAndTheFirstFileKeepsItsData() throws Exception {
        FileSwapperFactory files = new FileSwapperFactory();
        PageSwapper[] first = new PageSwapper[1];
        io.ratatosk.core.PageSwapperFactory sharing = (file, fileId, filePageSize, create) -> {
            if (first[0] == null) {
                first[0] = files.create(file, fileId, filePageSize, create);
            }
            return first[0];
        };
        Path a = dir.resolve("a");
        Path b = dir.resolve("b");
        try (PageCache cache = PageCache.open(config(), sharing)) {
            PagedFile fa = cache.map(a, PAGE);
            write(fa, 0, 1);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> cache.map(b, PAGE));
            assertTrue(e.getMessage().contains(a.getFileName().toString()) && e.getMessage().contains(b.getFileName().toString()),
                e.getMessage());
            write(fa, 1, 2); // its swapper was not closed by the refusal
            fa.close();
        }
        try (PageCache cache = PageCache.open(config()); PagedFile fa = cache.map(a, PAGE); PagedFile fb = cache.map(b, PAGE)) {
            assertEquals(1, read(fa, 0));
            assertEquals(2, read(fa, 1));
            assertEquals(-1, fb.getLastPageId(), "nothing was written to b");
        }
    }

    /** A factory that returns null: the map once failed with a bare NullPointerException from inside the cache. */
    @Test
    void aFactoryThatReturnsNullIsNamedAndTheCacheStillMapsOtherFiles() throws Exception {
        FileSwapperFactory files = new FileSwapperFactory();
        io.ratatosk.core.PageSwapperFactory nulls = (file, fileId, filePageSize, create) ->
            file.getFileName().toString().equals("null") ? null : files.create(file, fileId, filePageSize, create);
        try (PageCache cache = PageCache.open(config(), nulls)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> cache.map(dir.resolve("null"), PAGE));
            assertTrue(e.getMessage().contains("returned null") && e.getMessage().contains("null"), e.getMessage());
            try (PagedFile other = cache.map(dir.resolve("other"), PAGE)) {
                write(other, 0, 5);
                assertEquals(5, read(other, 0));
            }
        }
    }

    /**
     * A swapper whose page size is not the one the file is mapped with: it reads and writes its own page size at a
     * frame's address, past the frame's end when larger (the next frame's page, or memory past the page memory).
     * Refused at map, naming both sizes, and closed.
     */
    @Test
    void aSwapperOfAnotherPageSizeIsRefusedAtMapAndClosed() throws Exception {
        FileSwapperFactory files = new FileSwapperFactory();
        List<PageSwapper> made = new java.util.ArrayList<>();
        AtomicInteger closed = new AtomicInteger();
        io.ratatosk.core.PageSwapperFactory doubling = (file, fileId, filePageSize, create) -> {
            PageSwapper swapper = new io.ratatosk.core.ForwardingPageSwapper(files.create(file, fileId, filePageSize * 2, create)) {
                @Override
                public void close() throws IOException {
                    closed.incrementAndGet();
                    super.close();
                }
            };
            made.add(swapper);
            return swapper;
        };
        try (PageCache cache = PageCache.open(config("pagecache.page_size", "8k"), doubling)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> cache.map(dir.resolve("sized"), PAGE));
            assertTrue(e.getMessage().contains("8192") && e.getMessage().contains("4096") && e.getMessage().contains("sized"),
                e.getMessage());
            assertEquals(1, closed.get(), "the refused swapper is closed");
        }
    }

    // ---- swappers that throw ----------------------------------------------------------------------

    /**
     * A swapper read that throws a RuntimeException: the fault's failure reaches the caller as an IOException naming
     * the file and the page, with the swapper's exception as its cause, as docs/architecture.md says and as an
     * IOException from the swapper does (it once came out bare, with nothing saying which file or page); nothing is
     * left locked or bound, and the page reads once the swapper works again.
     */
    @Test
    void aRuntimeExceptionFromASwapperReadReachesTheCallerAsAnIOExceptionNamingFileAndPage() throws Exception {
        java.util.concurrent.atomic.AtomicReference<RuntimeException> failure = new java.util.concurrent.atomic.AtomicReference<>();
        try (PageCache cache = PageCache.open(config(), SwapperFactories.wrapping(real -> new io.ratatosk.core.ForwardingPageSwapper(real) {
                 @Override
                 public int read(long pageId, long address) throws IOException {
                     RuntimeException e = failure.get();
                     if (e != null) {
                         throw e;
                     }
                     return super.read(pageId, address);
                 }
             }));
             PagedFile file = cache.map(dir.resolve("runtime.db"), PAGE)) {
            for (RuntimeException injected : List.of(new IllegalStateException("injected: a bug in the swapper"),
                     new java.io.UncheckedIOException(new IOException("injected: an unchecked IO failure")))) {
                failure.set(injected);
                IOException e = assertThrows(IOException.class, () -> write(file, 3, 1));
                assertTrue(e.getMessage().contains("runtime.db") && e.getMessage().contains("page 3"), e.getMessage());
                assertTrue(e.getCause() == injected, "the swapper's exception is the cause");
                assertEquals(io.ratatosk.pagecache.internal.TranslationTable.ABSENT, file.table().get(3));
                for (int f = 0; f < cache.frameCount(); f++) {
                    assertTrue(cache.frames().isUnlocked(f), "frame " + f);
                    assertEquals(io.ratatosk.core.PageKey.UNBOUND, cache.frames().binding(f), "frame " + f);
                }
            }
            failure.set(null);
            write(file, 3, 33);
            assertEquals(33, read(file, 3));
        }
    }

    /**
     * A swapper whose writes and force throw RuntimeExceptions while a file is flushed and closed: each flush and close
     * fails with an IOException naming the file (a bare IllegalStateException once came out, reading like the cache's
     * own "unmapped"). After a failed write the dirty pages stay, and once the swapper works the close writes them; a
     * failed force unmaps the file all the same (its pages were written and dropped), and a retried close closes it:
     * nothing is lost.
     */
    @Test
    void aRuntimeExceptionFromASwapperWriteOrForceFailsTheFlushAsAnIOExceptionAndLosesNothing() throws Exception {
        java.util.concurrent.atomic.AtomicReference<String> failing = new java.util.concurrent.atomic.AtomicReference<>("");
        Path path = dir.resolve("flush-runtime.db");
        try (PageCache cache = PageCache.open(config("pagecache.evictor.enabled", "false"),
                 SwapperFactories.wrapping(real -> new io.ratatosk.core.ForwardingPageSwapper(real) {
                     @Override
                     public void write(long pageId, long address) throws IOException {
                         if (failing.get().equals("write")) {
                             throw new IllegalStateException("injected: write");
                         }
                         super.write(pageId, address);
                     }

                     @Override
                     public void write(long startPageId, long[] addresses, int count) throws IOException {
                         if (failing.get().equals("write")) {
                             throw new java.io.UncheckedIOException(new IOException("injected: vectored write"));
                         }
                         super.write(startPageId, addresses, count);
                     }

                     @Override
                     public void force() throws IOException {
                         if (failing.get().equals("force")) {
                             throw new IllegalStateException("injected: force");
                         }
                         super.force();
                     }
                 }))) {
            PagedFile file = cache.map(path, PAGE);
            for (String what : List.of("write", "force")) {
                write(file, 0, 10);
                write(file, 1, 11);
                write(file, 3, 13);
                failing.set(what);
                IOException flush = assertThrows(IOException.class, file::flush);
                assertTrue(flush.getMessage().contains("flush-runtime.db") && flush.getMessage().contains("injected"), flush.getMessage());
                IOException close = assertThrows(IOException.class, file::close);
                assertTrue(close.getMessage().contains("flush-runtime.db"), close.getMessage());
                if (what.equals("write")) {
                    assertEquals(10, read(file, 0), "still mapped, its pages in the cache");
                } else {
                    assertThrows(IllegalStateException.class, () -> read(file, 0), "unmapped: the force sticks");
                }
                failing.set("");
            }
            file.close();
            assertThrows(IllegalStateException.class, () -> read(file, 0));
        }
        try (PageCache cache = PageCache.open(config()); PagedFile file = cache.map(path, PAGE)) {
            assertEquals(10, read(file, 0));
            assertEquals(11, read(file, 1));
            assertEquals(13, read(file, 3));
        }
    }

    // ---- swappers that call back into the page cache ------------------------------------------------

    /** What a swapper's read of page 5 does to its own cache before reading. */
    interface CallBack {
        void run(PageCache cache, PagedFile file) throws Exception;
    }

    /**
     * A swapper whose read calls back into its own page cache: closing or truncating its file, closing the cache,
     * mapping, faulting another page in. Each of those waits for the operations in flight on the file, which include the
     * read that called it: the thread waited for itself forever (and held the file's gate, so no other thread could
     * close the file or the cache either). Now the call is refused with an IllegalStateException saying why, the read
     * fails with it, and the cache works and closes as before.
     */
    @Test
    void aSwapperThatCallsBackIntoItsPageCacheFromAReadIsRefusedInsteadOfHanging() throws Exception {
        Map<String, CallBack> callBacks = new java.util.LinkedHashMap<>();
        callBacks.put("PagedFile.close", (cache, file) -> file.close());
        callBacks.put("PagedFile.truncate", (cache, file) -> file.truncate(0));
        callBacks.put("PagedFile.flush", (cache, file) -> file.flush());
        callBacks.put("PageCache.close", (cache, file) -> cache.close());
        callBacks.put("PageCache.flushAndForce", (cache, file) -> cache.flushAndForce());
        callBacks.put("PageCache.map", (cache, file) -> cache.map(dir.resolve("other.db"), PAGE).close());
        callBacks.put("a write of a page not in the cache", (cache, file) -> write(file, 7, 1));
        for (Map.Entry<String, CallBack> callBack : callBacks.entrySet()) {
            org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(Waits.BOUND_SECONDS), () -> {
                Path path = dir.resolve("reentrant.db");
                java.util.concurrent.atomic.AtomicReference<Throwable> refused = new java.util.concurrent.atomic.AtomicReference<>();
                PageCache[] self = new PageCache[1];
                PagedFile[] mapped = new PagedFile[1];
                try (PageCache cache = PageCache.open(config(), SwapperFactories.wrapping(real -> new io.ratatosk.core.ForwardingPageSwapper(real) {
                    @Override
                    public int read(long pageId, long address) throws IOException {
                        if (pageId == 5 && mapped[0] != null) {
                            try {
                                callBack.getValue().run(self[0], mapped[0]);
                            } catch (Throwable t) {
                                refused.set(t);
                                throw new IOException("injected: the call back failed", t);
                            }
                        }
                        return super.read(pageId, address);
                    }
                }))) {
                    self[0] = cache;
                    PagedFile file = cache.map(path, PAGE);
                    write(file, 0, 100);
                    mapped[0] = file;
                    IOException e = assertThrows(IOException.class, () -> write(file, 5, 1), callBack.getKey());
                    assertTrue(refused.get() instanceof IllegalStateException, callBack.getKey() + ": " + refused.get());
                    assertTrue(refused.get().getMessage().contains("inside a call of its swapper"), refused.get().getMessage());
                    mapped[0] = null;
                    write(file, 5, 55);
                    assertEquals(55, read(file, 5));
                    assertEquals(100, read(file, 0));
                    file.close();
                }
                try (PageCache cache = PageCache.open(config()); PagedFile file = cache.map(path, PAGE)) {
                    assertEquals(55, read(file, 5), callBack.getKey());
                    file.truncate(0);
                }
            }, callBack.getKey());
        }
    }

    /**
     * Swappers whose close always fails, with an IOException, a RuntimeException or an Error: the cache's close once
     * threw before it stopped its threads or freed its memory, and every later close failed the same way, so a cache
     * with such a swapper could never be closed. Its files were flushed and dropped first, so nothing is lost by
     * closing: the cache closes, says which file's close failed, and the data is on disk.
     */
    @Test
    void aCacheWhoseSwappersNeverCloseStillClosesStopsItsThreadsAndFreesItsMemory() throws Exception {
        for (Throwable failure : List.of(new IOException("injected: close"), new IllegalStateException("injected: close"),
                 new InternalError("injected: close"))) {
            Set<Thread> before = threadsNow();
            Path path = dir.resolve("never-closes-" + failure.getClass().getSimpleName());
            PageCache cache = PageCache.open(config("pagecache.warmup.enabled", "true"),
                SwapperFactories.wrapping(real -> new io.ratatosk.core.ForwardingPageSwapper(real) {
                    @Override
                    public void close() throws IOException {
                        super.close(); // the file is closed; only the swapper's own bookkeeping fails
                        if (failure instanceof IOException e) {
                            throw e;
                        }
                        if (failure instanceof RuntimeException e) {
                            throw e;
                        }
                        throw (Error) failure;
                    }
                }));
            PagedFile file = cache.map(path, PAGE);
            write(file, 0, 1);
            write(file, 1, 2);
            Throwable e = assertThrows(Throwable.class, cache::close);
            // An IOException naming the file (the RuntimeException its cause); an Error as it is.
            assertTrue(e == failure || String.valueOf(e.getMessage()).contains(path.getFileName().toString())
                && (e.getCause() == failure || e == failure), String.valueOf(e));
            assertTrue(cache.isClosed(), "the close threw after closing, and the cache says it is closed: " + e);
            assertTrue(cache.isMemoryReleased(), "closed, its memory freed: " + e);
            assertEquals(List.of(), newCacheThreads(before), "the cache's threads must be stopped");
            assertThrows(IllegalStateException.class, () -> cache.map(path, PAGE), "the cache is closed");
            cache.close(); // closed: nothing more to do
            try (PageCache again = PageCache.open(config()); PagedFile reopened = again.map(path, PAGE)) {
                assertEquals(1, read(reopened, 0));
                assertEquals(2, read(reopened, 1));
            }
        }
    }

    /**
     * A swapper whose evict reads the page it evicts through the page cache: the eviction holds that page's frame
     * exclusively, and the read waited for the frame's lock, that is for itself.
     */
    @Test
    void aSwapperThatReadsThePageItEvictsThroughItsCacheIsRefusedInsteadOfHanging() throws Exception {
        evictCallingBack("evict-reentrant.db", 1000, (file, pageId) -> read(file, pageId), file -> null);
    }

    /**
     * As above, with a cursor the store opened before the eviction began and moves, from inside the swapper's evict,
     * to the page being evicted: the check is where a cursor would wait, not where it is opened, so it is caught too
     * (and a cursor opened per read pays nothing for the check while it never waits).
     */
    @Test
    void aCursorOpenedBeforeTheSwapperCallAndMovedInsideItToThePageBeingEvictedIsRefused() throws Exception {
        PageCursor[] held = new PageCursor[1];
        evictCallingBack("evict-held-cursor.db", 2000, (file, pageId) -> held[0].next(pageId), file -> {
            held[0] = file.io(0, PagedFile.PF_SHARED_READ_LOCK); // opened outside any swapper call
            return held[0];
        });
    }

    /** What a swapper's evict does with the cache from inside the call. */
    private interface EvictCallBack {
        void call(PagedFile file, long pageId) throws IOException;
    }

    /** What the store opens once the file is full, before the evictions; closed after them. */
    private interface Before {
        AutoCloseable open(PagedFile file) throws IOException;
    }

    /**
     * Fills a cache, then writes as many pages again, so that every write evicts; the first evict calls {@code back}
     * into the cache, which must be refused with an {@code IllegalStateException} naming the swapper call (not hang),
     * and every page written must be in the file after a reopen.
     */
    private void evictCallingBack(String name, int base, EvictCallBack back, Before before) throws Exception {
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(Waits.BOUND_SECONDS), () -> {
            java.util.concurrent.atomic.AtomicReference<Throwable> refused = new java.util.concurrent.atomic.AtomicReference<>();
            PagedFile[] mapped = new PagedFile[1];
            Path path = dir.resolve(name);
            try (PageCache cache = PageCache.open(config("pagecache.evictor.enabled", "false"),
                     SwapperFactories.wrapping(real -> new io.ratatosk.core.ForwardingPageSwapper(real) {
                         @Override
                         public void evict(long pageId, long address, boolean dirty) throws IOException {
                             if (mapped[0] != null && refused.get() == null) {
                                 try {
                                     back.call(mapped[0], pageId);
                                 } catch (Throwable t) {
                                     refused.set(t);
                                     throw new IOException("injected: the call back failed", t);
                                 }
                             }
                             super.evict(pageId, address, dirty);
                         }
                     }))) {
                PagedFile file = cache.map(path, PAGE);
                for (int p = 0; p < cache.frameCount(); p++) {
                    write(file, p, base + p);
                }
                AutoCloseable opened = before.open(file);
                mapped[0] = file;
                for (int p = cache.frameCount(); p < 2 * cache.frameCount(); p++) {
                    try {
                        write(file, p, base + p);
                    } catch (IOException e) {
                        p--; // the refused eviction's error, reported to this fault: the page is written on the next try
                    }
                }
                assertTrue(refused.get() instanceof IllegalStateException, String.valueOf(refused.get()));
                assertTrue(refused.get().getMessage().contains("from inside a call of its swapper (evict of "),
                    refused.get().getMessage());
                mapped[0] = null;
                if (opened != null) {
                    opened.close();
                }
                file.close();
            }
            try (PageCache cache = PageCache.open(config()); PagedFile file = cache.map(path, PAGE)) {
                for (int p = 0; p < 32; p++) {
                    assertEquals(base + p, read(file, p));
                }
            }
        });
    }

    /**
     * A tier whose prefetch depth is out of range: every swap-in offered that many hints on the faulting thread (a depth
     * of 2^30 took each fault through half a billion tier lookups), though the queue keeps 256. Refused at open, with
     * what the open took released.
     */
    @Test
    void aTierWithAPrefetchDepthOutOfRangeIsRefusedAtOpen() throws Exception {
        Set<Thread> before = threadsNow();
        for (int depth : new int[] {-1, TierPrefetcher.QUEUE_SIZE + 1, 1 << 30}) {
            PrefetchingTier tier = new PrefetchingTier();
            tier.depth = depth;
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> PageCache.open(config(), tier).close());
            assertTrue(e.getMessage().contains("depth") && e.getMessage().contains(String.valueOf(depth)), e.getMessage());
            tier.depth = TierPrefetcher.QUEUE_SIZE;
            PageCache.open(config(), tier).close(); // released by the refused open
        }
        assertEquals(List.of(), newCacheThreads(before));
    }

    /** A tier whose counters() returns null: stats() once failed with a bare NullPointerException from inside the cache. */
    @Test
    void aTierWhoseCountersAreNullIsNamedByStats() throws Exception {
        PrefetchingTier tier = new PrefetchingTier();
        try (PageCache cache = PageCache.open(config(), tier)) {
            tier.counters = null;
            IllegalStateException e = assertThrows(IllegalStateException.class, cache::stats);
            assertTrue(e.getMessage().contains("counters()") && e.getMessage().contains(tier.toString()), e.getMessage());
            tier.counters = TierCounters.NONE;
            assertEquals(0, cache.stats().nvm().reads());
        }
    }

    /** A tier whose counters() throws: stats() threw that exception as it was, naming neither the tier nor counters(). */
    @Test
    void aTierWhoseCountersFailIsNamedByStats() throws Exception {
        PrefetchingTier tier = new PrefetchingTier();
        try (PageCache cache = PageCache.open(config(), tier)) {
            tier.failCounters = true;
            IllegalStateException e = assertThrows(IllegalStateException.class, cache::stats);
            assertTrue(e.getMessage().contains("counters()") && e.getMessage().contains(tier.toString())
                && e.getMessage().contains("device gone"), e.getMessage());
            tier.failCounters = false;
            assertEquals(0, cache.stats().nvm().reads());
        }
    }

    /**
     * A swapper whose pageCount, asked once at map, fails: an UncheckedIOException (a plug-in's) came out of map bare,
     * and an IOException in the operating system's words ("Input/output error", as the file swapper's size() gives it)
     * named no file. Both are now an IOException naming the file, the swapper's as its cause; the file maps once its
     * size can be read.
     */
    @Test
    void aFailingPageCountAtMapIsAnIOExceptionNamingTheFile() throws Exception {
        java.util.concurrent.atomic.AtomicReference<Exception> failure = new java.util.concurrent.atomic.AtomicReference<>();
        Path path = dir.resolve("size-fails.db");
        try (PageCache cache = PageCache.open(config(), SwapperFactories.wrapping(real -> new io.ratatosk.core.ForwardingPageSwapper(real) {
                 @Override
                 public long pageCount() throws IOException {
                     Exception e = failure.get();
                     if (e instanceof IOException io) {
                         throw io;
                     }
                     if (e != null) {
                         throw (RuntimeException) e;
                     }
                     return super.pageCount();
                 }
             }))) {
            for (Exception injected : List.of(new java.io.UncheckedIOException(new IOException("injected: size")),
                new IOException("Input/output error"))) {
                failure.set(injected);
                IOException e = assertThrows(IOException.class, () -> cache.map(path, PAGE));
                assertTrue(e.getMessage().contains(path.toString()) && e.getCause() == injected, e.toString());
            }
            failure.set(null);
            try (PagedFile file = cache.map(path, PAGE)) {
                write(file, 0, 10);
                assertEquals(10, read(file, 0));
            }
        }
    }

    /**
     * A swapper whose filePageSize(), asked once at map, throws (a plug-in's bug, an UncheckedIOException from a
     * swapper that reads its page size off its storage): the RuntimeException came out of map bare, naming no file, where
     * pageCount's is an IOException naming it. Now it is too, the swapper is closed, and the file maps once it works.
     */
    @Test
    void aFailingFilePageSizeAtMapIsAnIOExceptionNamingTheFile() throws Exception {
        java.util.concurrent.atomic.AtomicBoolean fail = new java.util.concurrent.atomic.AtomicBoolean(true);
        java.util.concurrent.atomic.AtomicInteger closes = new java.util.concurrent.atomic.AtomicInteger();
        RuntimeException injected = new java.io.UncheckedIOException(new IOException("injected: page size"));
        Path path = dir.resolve("page-size-fails.db");
        try (PageCache cache = PageCache.open(config(), SwapperFactories.wrapping(real -> new io.ratatosk.core.ForwardingPageSwapper(real) {
                 @Override
                 public int filePageSize() {
                     if (fail.get()) {
                         throw injected;
                     }
                     return super.filePageSize();
                 }

                 @Override
                 public void close() throws IOException {
                     closes.incrementAndGet();
                     super.close();
                 }
             }))) {
            IOException e = assertThrows(IOException.class, () -> cache.map(path, PAGE));
            assertTrue(e.getMessage().contains(path.toString()) && e.getCause() == injected, e.toString());
            assertEquals(1, closes.get(), "the failed map closed its swapper");
            fail.set(false);
            try (PagedFile file = cache.map(path, PAGE)) {
                write(file, 0, 10);
                assertEquals(10, read(file, 0));
            }
        }
    }

    /**
     * A swapper whose truncate throws a RuntimeException: PagedFile.truncate's contract says an IllegalStateException
     * means nothing changed (a write cursor held a page), yet the swapper's own IllegalStateException came out bare
     * after the pages past the cut were dropped. Now it is the documented IOException naming the file, and the file
     * works on.
     */
    @Test
    void aRuntimeExceptionFromASwapperTruncateIsTheDocumentedIOException() throws Exception {
        java.util.concurrent.atomic.AtomicBoolean fail = new java.util.concurrent.atomic.AtomicBoolean(true);
        Path path = dir.resolve("truncate-runtime.db");
        try (PageCache cache = PageCache.open(config(), SwapperFactories.wrapping(real -> new io.ratatosk.core.ForwardingPageSwapper(real) {
                 @Override
                 public void truncate(long pageCount) throws IOException {
                     if (fail.get()) {
                         throw new IllegalStateException("injected: truncate");
                     }
                     super.truncate(pageCount);
                 }
             }));
             PagedFile file = cache.map(path, PAGE)) {
            for (int p = 0; p < 4; p++) {
                write(file, p, 10 + p);
            }
            IOException e = assertThrows(IOException.class, () -> file.truncate(2));
            assertTrue(e.getMessage().contains("truncate-runtime.db") && e.getCause() instanceof IllegalStateException, e.getMessage());
            fail.set(false);
            file.truncate(2);
            write(file, 1, 21);
            assertEquals(10, read(file, 0));
            assertEquals(21, read(file, 1));
            assertEquals(1, file.getLastPageId());
        }
    }

    /**
     * A factory whose create calls back into the cache, which is mapping under its mapping lock: a close from there
     * unmapped everything and freed the page memory, and the map then went on to hand out a file of the closed cache
     * (whose next fault would write into freed memory); a map from there recursed. Refused; the cache works on.
     */
    @Test
    void aFactoryThatCallsBackIntoItsCacheFromCreateIsRefused() throws Exception {
        Map<String, CallBack> callBacks = new java.util.LinkedHashMap<>();
        callBacks.put("PageCache.close", (cache, file) -> cache.close());
        callBacks.put("PageCache.map", (cache, file) -> cache.map(dir.resolve("nested.db"), PAGE).close());
        callBacks.put("PagedFile.close", (cache, file) -> file.close());
        for (Map.Entry<String, CallBack> callBack : callBacks.entrySet()) {
            FileSwapperFactory files = new FileSwapperFactory();
            PageCache[] self = new PageCache[1];
            PagedFile[] other = new PagedFile[1];
            java.util.concurrent.atomic.AtomicReference<Throwable> refused = new java.util.concurrent.atomic.AtomicReference<>();
            io.ratatosk.core.PageSwapperFactory calling = (file, fileId, filePageSize, create) -> {
                if (file.getFileName().toString().equals("evil.db")) {
                    try {
                        callBack.getValue().run(self[0], other[0]);
                    } catch (Throwable t) {
                        refused.set(t);
                        throw new IOException("injected: the call back failed", t);
                    }
                }
                return files.create(file, fileId, filePageSize, create);
            };
            Path path = dir.resolve("kept.db");
            try (PageCache cache = PageCache.open(config(), calling)) {
                self[0] = cache;
                other[0] = cache.map(path, PAGE);
                write(other[0], 0, 7);
                assertThrows(IOException.class, () -> cache.map(dir.resolve("evil.db"), PAGE), callBack.getKey());
                assertTrue(refused.get() instanceof IllegalStateException, callBack.getKey() + ": " + refused.get());
                assertTrue(refused.get().getMessage().contains("inside a call"), refused.get().getMessage());
                assertEquals(7, read(other[0], 0));
                other[0].close();
            }
            try (PageCache cache = PageCache.open(config()); PagedFile file = cache.map(path, PAGE)) {
                assertEquals(7, read(file, 0));
            }
        }
    }

    /**
     * flushAndForce with swappers whose force throws: the first file's failure ended the call, and the files after it
     * were not even written, so one broken swapper kept every other file's pages from being made durable by a
     * checkpoint. Now every file is flushed, and the first failure is thrown with the others suppressed.
     */
    @Test
    void flushAndForceFlushesEveryFileThoughSomeSwappersFail() throws Exception {
        Map<Path, AtomicInteger> writes = new java.util.concurrent.ConcurrentHashMap<>();
        FileSwapperFactory files = new FileSwapperFactory();
        io.ratatosk.core.PageSwapperFactory failingForce = (file, fileId, filePageSize, create) ->
            new io.ratatosk.core.ForwardingPageSwapper(files.create(file, fileId, filePageSize, create)) {
                @Override
                public void write(long pageId, long address) throws IOException {
                    writes.computeIfAbsent(file, f -> new AtomicInteger()).incrementAndGet();
                    super.write(pageId, address);
                }

                @Override
                public void write(long startPageId, long[] addresses, int count) throws IOException {
                    writes.computeIfAbsent(file, f -> new AtomicInteger()).incrementAndGet();
                    super.write(startPageId, addresses, count);
                }

                @Override
                public void force() throws IOException {
                    if (!file.getFileName().toString().startsWith("ok")) {
                        throw new IOException("injected: force of " + file.getFileName());
                    }
                    super.force();
                }
            };
        try (PageCache cache = PageCache.open(config("pagecache.evictor.enabled", "false"), failingForce)) {
            List<PagedFile> mapped = new java.util.ArrayList<>();
            for (String name : List.of("bad1", "bad2", "ok3")) {
                PagedFile file = cache.map(dir.resolve(name), PAGE);
                write(file, 0, 1);
                mapped.add(file);
            }
            IOException e = assertThrows(IOException.class, cache::flushAndForce);
            assertEquals(1, e.getSuppressed().length, "both failures are reported: " + e);
            for (PagedFile file : mapped) {
                assertTrue(writes.containsKey(file.path()), file.path() + " was written by flushAndForce: " + writes);
            }
            for (PagedFile file : mapped) {
                file.close(); // the writes are done, and force still fails for the bad ones
            }
        } catch (IOException closeFailed) {
            assertTrue(closeFailed.getMessage().contains("injected"), closeFailed.getMessage());
        }
    }

    /**
     * A swapper whose write, in the flush of its file's close, opens a cursor on that file: {@code io} is refused (the
     * file is being unmapped, and waiting for the unmap's outcome would wait for this very write), and the refused
     * cursor is not left counted open: it was, so the cache's close kept its page memory for the life of the JVM and
     * warned of a cursor no one held.
     */
    @Test
    void aCursorASwapperOpensDuringItsFilesUnmapIsRefusedAndNotLeftCountedOpen() throws Exception {
        java.util.concurrent.atomic.AtomicReference<Throwable> refused = new java.util.concurrent.atomic.AtomicReference<>();
        PagedFile[] mapped = new PagedFile[1];
        PageCache cache = PageCache.open(config(), SwapperFactories.wrapping(real -> new io.ratatosk.core.ForwardingPageSwapper(real) {
            @Override
            public void write(long pageId, long address) throws IOException {
                if (mapped[0] != null && refused.get() == null) {
                    try {
                        mapped[0].io(0, PagedFile.PF_SHARED_READ_LOCK).close();
                        refused.set(new AssertionError("io was not refused"));
                    } catch (Throwable t) {
                        refused.set(t);
                    }
                }
                super.write(pageId, address);
            }
        }));
        PagedFile file = cache.map(dir.resolve("cursor-in-unmap.db"), PAGE);
        write(file, 0, 1);
        mapped[0] = file;
        file.close();
        assertTrue(refused.get() instanceof IllegalStateException, String.valueOf(refused.get()));
        assertTrue(refused.get().getMessage().contains("inside a call of its swapper"), refused.get().getMessage());
        assertEquals(0, cache.openCursors(), "no cursor is open");
        cache.close();
        assertTrue(cache.isMemoryReleased(), "the page memory is freed at close");
    }
}
