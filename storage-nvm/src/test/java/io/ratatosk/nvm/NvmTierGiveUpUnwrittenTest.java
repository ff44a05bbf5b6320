package io.ratatosk.nvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.ForwardingPageSwapper;
import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import io.ratatosk.pagecache.internal.FileSwapperFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A tier whose close failed because a file will not take the dirty copies NVM holds of it (its storage gone for good)
 * keeps its device, for a retried close to write them: retried, each close failed the same way, and the device's memory
 * (the whole capacity, off the heap) stayed allocated for the JVM's life, with no way for the host to free it. The host
 * can give those pages up, and only by asking ({@link NvmSwapStore#closeGivingUpUnwritten}): the device is freed, the
 * files closed, and the failure names every page given up.
 */
class NvmTierGiveUpUnwrittenTest {
    private static final int PAGE = 512;
    private static final Path FILE_A = Path.of("a.db");
    private static final Path FILE_B = Path.of("b.db");

    @TempDir
    Path dir;

    private final InMemoryFiles files = new InMemoryFiles();
    private final OffHeapPages pages = new OffHeapPages(PAGE);
    private final AtomicBoolean storageGone = new AtomicBoolean();

    @AfterEach
    void freePages() {
        pages.close();
    }

    private long page(long version) {
        long address = pages.allocate();
        pages.fill(address, version);
        return address;
    }

    /** A.db refuses every write and force once its storage is gone; b.db works. */
    private NvmSwapStore tier() {
        PageSwapperFactory failing = files.wrapped((path, file) -> !path.equals(FILE_A) ? file
            : new ForwardingPageSwapper(file) {
                @Override
                public void write(long pageId, long address) throws IOException {
                    if (storageGone.get()) {
                        throw new IOException("injected: the storage behind a.db is gone");
                    }
                    super.write(pageId, address);
                }

                @Override
                public void force() throws IOException {
                    if (storageGone.get()) {
                        throw new IOException("injected: the storage behind a.db is gone");
                    }
                    super.force();
                }
            }, () -> { });
        return new NvmSwapStore(NvmDeviceConfig.builder(PAGE).slots(8).injectLatency(false).build(), failing);
    }

    @Test
    void aTierWhoseFileNeverTakesItsDirtyCopiesAgainCanBeClosedGivingThemUpByName() throws IOException {
        long liveBefore = NvmDevice.liveBytes();
        NvmSwapStore store = tier();
        PageSwapper a = store.create(FILE_A, 0, PAGE, true);
        a.evict(3, page(3), true); // dirty: only NVM has them
        a.evict(5, page(5), true);
        store.create(FILE_B, 1, PAGE, true).evict(0, page(7), true);
        storageGone.set(true);

        assertThrows(IOException.class, store::close);
        assertThrows(IOException.class, store::close, "retried, the close fails the same way");
        assertNotEquals(liveBefore, NvmDevice.liveBytes(), "the device is kept for a retry while the copies are dirty");
        assertTrue(store.isDirtyInNvm(0, 3) && store.isDirtyInNvm(0, 5), "nothing is given up by a close");

        IOException gaveUp = assertThrows(IOException.class, store::closeGivingUpUnwritten);

        assertEquals(liveBefore, NvmDevice.liveBytes(), "the device was freed");
        String message = gaveUp.getMessage();
        assertTrue(message.contains("2 dirty pages") && message.contains(FILE_A + ": pages 3, 5"),
            "the failure names every page given up: " + message);
        assertTrue(!message.contains(FILE_B.toString()), "b.db took its copy: nothing of it was given up: " + message);
        assertEquals(OffHeapPages.word(7, 0), firstWord(FILE_B, 0), "b.db's dirty copy reached the file");
        assertTrue(gaveUp.getCause() instanceof IOException && gaveUp.getCause().getMessage().contains("gone"),
            "the file's own refusal is the cause: " + gaveUp.getCause());
        assertThrows(IllegalStateException.class, () -> store.create(Path.of("c.db"), 2, PAGE, true), "closed");
        store.close(); // closed: nothing more to do
        store.closeGivingUpUnwritten();
    }

    /**
     * A dirty copy given up was never written, and is lost: fileWritesAvoided (dirty evictions absorbed minus write-backs)
     * counted it as a file write the tier saved, so a tier that lost pages reported them as its savings.
     */
    @Test
    void theCopiesGivenUpAreNotCountedAsFileWritesSaved() throws IOException {
        NvmSwapStore store = tier();
        PageSwapper a = store.create(FILE_A, 0, PAGE, true);
        a.evict(3, page(3), true);
        a.evict(5, page(5), true);
        PageSwapper b = store.create(FILE_B, 1, PAGE, true);
        b.evict(0, page(7), true);
        b.evict(1, page(8), true);
        assertEquals(4, store.stats().fileWritesAvoided(), "four dirty evictions absorbed, no file write yet");
        storageGone.set(true);
        assertThrows(IOException.class, store::close); // b.db's two copies written back
        assertThrows(IOException.class, store::closeGivingUpUnwritten); // a.db's two given up

        NvmTierStats stats = store.stats();
        assertEquals(2, stats.writeBacks());
        assertEquals(2, stats.dirtyCopiesGivenUp());
        assertEquals(0, stats.fileWritesAvoided(), "two written, two lost: no file write saved");
    }

    /**
     * The pages given up are named in ascending id per file, the lowest {@code NAMED_LOST_PAGES} where more are given up:
     * named in slot order (the order the clock filled the slots), "a.db: pages 9, 2, 7" read as unsorted to an operator
     * and to a host parsing the ids.
     */
    @Test
    void thePagesGivenUpAreNamedInAscendingIdsTheLowestWhereTooManyToName() throws IOException {
        NvmSwapStore store = tier();
        PageSwapper a = store.create(FILE_A, 0, PAGE, true);
        for (long p : new long[] {9, 2, 7}) { // slots 0, 1, 2
            a.evict(p, page(p), true);
        }
        storageGone.set(true);
        assertThrows(IOException.class, store::close);

        String message = assertThrows(IOException.class, store::closeGivingUpUnwritten).getMessage();

        assertTrue(message.contains(FILE_A + ": pages 2, 7, 9"), "ascending: " + message);
    }

    @Test
    void pastTheNamedPagesTheLowestIdsAreNamedAndTheRestCounted() throws IOException {
        storageGone.set(false);
        NvmSwapStore store = new NvmSwapStore(NvmDeviceConfig.builder(PAGE).slots(80).injectLatency(false).build(),
            files.wrapped((path, file) -> new ForwardingPageSwapper(file) {
                @Override
                public void write(long pageId, long address) throws IOException {
                    throw new IOException("injected: the storage behind " + path + " is gone");
                }
            }, () -> { }));
        PageSwapper a = store.create(FILE_A, 0, PAGE, true);
        long address = page(1);
        for (long p = 79; p >= 0; p--) { // the highest ids in the lowest slots
            a.evict(p, address, true);
        }
        assertThrows(IOException.class, store::close);

        String message = assertThrows(IOException.class, store::closeGivingUpUnwritten).getMessage();

        StringBuilder lowest = new StringBuilder(FILE_A + ": pages 0");
        for (long p = 1; p < 64; p++) {
            lowest.append(", ").append(p);
        }
        assertTrue(message.contains("80 dirty pages") && message.contains(lowest + " and 16 more"), message);
    }

    @Test
    void whileTheCacheIsOpenNothingOfAFileItHasNotClosedIsGivenUpAndWhereTheCloseSucceedsNothingAtAll()
            throws IOException {
        long liveBefore = NvmDevice.liveBytes();
        NvmSwapStore store = tier();
        store.create(FILE_A, 0, PAGE, true).evict(1, page(1), true);
        AtomicBoolean cacheOpen = new AtomicBoolean(true);
        store.servesCache(cacheOpen::get);
        storageGone.set(true);
        // The cache still has a.db mapped: its copy may yet be written. Refused, as close() is, not a silent no-op
        IllegalStateException refused = assertThrows(IllegalStateException.class, store::closeGivingUpUnwritten,
            "the cache closed no file whose close failed on dirty copies: nothing to give up, and the tier stays open");
        assertTrue(refused.getMessage().contains("open page cache") && refused.getMessage().contains("PageCache.close"),
            refused.getMessage());
        assertTrue(store.isDirtyInNvm(0, 1), "nothing given up");
        assertNotEquals(liveBefore, NvmDevice.liveBytes(), "the tier stays open for its cache");

        storageGone.set(false);
        cacheOpen.set(false);
        store.closeGivingUpUnwritten(); // the file takes its copy: a plain close
        assertEquals(OffHeapPages.word(1, 0), firstWord(FILE_A, 1), "the dirty copy reached the file");
        assertEquals(liveBefore, NvmDevice.liveBytes(), "the device was freed");
    }

    /**
     * Through the page cache: a file whose dirty copies in NVM its storage refuses keeps the cache's close failing, the
     * cache open (as for a dirty frame), for good if the storage never comes back. The host gives those pages up through
     * the tier; the cache's next close then closes, the tier and its device with it.
     */
    @Test
    void aCacheWhoseCloseFailsOnATiersDirtyCopiesClosesOnceTheHostGivesThemUp() throws IOException {
        Set<Long> refused = new ConcurrentSkipListSet<>();
        FileSwapperFactory real = new FileSwapperFactory();
        PageSwapperFactory refusing = new PageSwapperFactory() {
            @Override
            public PageSwapper create(Path path, int fileId, int filePageSize, boolean create) throws IOException {
                return new ForwardingPageSwapper(real.create(path, fileId, filePageSize, create)) {
                    @Override
                    public void write(long pageId, long address) throws IOException {
                        if (refused.contains(pageId)) {
                            throw new IOException("injected: the storage of page " + pageId + " is gone");
                        }
                        super.write(pageId, address);
                    }

                    @Override
                    public void write(long startPageId, long[] addresses, int count) throws IOException {
                        for (int i = 0; i < count; i++) {
                            write(startPageId + i, addresses[i]);
                        }
                    }
                };
            }

            @Override
            public void close() throws IOException {
                real.close();
            }
        };
        long liveBefore = NvmDevice.liveBytes();
        PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "32k", "pagecache.page_size",
            "4k", "pagecache.swap", "nvm", "pagecache.nvm.capacity", "256k", "pagecache.nvm.inject_latency", "false",
            "pagecache.evictor.enabled", "false", "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled", "false")),
            refusing);
        NvmSwapStore tier = (NvmSwapStore) cache.tier();
        PagedFile file = cache.map(dir.resolve("a.db"), 4096); // file id 0: the first id of a fresh cache
        for (long p = 0; p < 24; p++) {
            try (PageCursor c = file.io(p, PagedFile.PF_SHARED_WRITE_LOCK)) {
                c.next();
                c.putLong(0, p + 1);
            }
        }
        for (long p = 0; p < 24; p++) {
            if (tier.isDirtyInNvm(0, p)) {
                refused.add(p); // only NVM has them: their storage is gone
            }
        }
        assertTrue(!refused.isEmpty(), "24 pages written through 8 frames left dirty copies in NVM");

        assertThrows(IOException.class, cache::close);
        assertThrows(IOException.class, cache::close, "retried, the close fails the same way");
        assertTrue(!cache.isClosed(), "the cache stays open so as not to lose the copies");

        IOException gaveUp = assertThrows(IOException.class, tier::closeGivingUpUnwritten);
        Set<Long> named = new TreeSet<>();
        String pagesNamed = gaveUp.getMessage().substring(gaveUp.getMessage().indexOf("a.db: pages ") + 12);
        for (String id : pagesNamed.split(", ")) {
            named.add(Long.parseLong(id.trim()));
        }
        assertEquals(new TreeSet<>(refused), named, "every page given up, by name: " + gaveUp.getMessage());

        cache.close();
        assertTrue(cache.isClosed());
        assertEquals(liveBefore, NvmDevice.liveBytes(), "the tier closed with the cache, its device freed");
    }

    private long firstWord(Path path, long pageId) {
        byte[] bytes = files.file(path).pages.get(pageId);
        assertSame(byte[].class, bytes == null ? null : bytes.getClass(), path + " page " + pageId + " was never written");
        return java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.nativeOrder()).getLong(0);
    }
}
