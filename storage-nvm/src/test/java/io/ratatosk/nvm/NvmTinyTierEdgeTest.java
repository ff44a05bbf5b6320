package io.ratatosk.nvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PageContent;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import io.ratatosk.pagecache.Waits;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The NVM tier at its smallest: 1 or 2 slots behind 2 to 4 frames, as many devices as slots, with and without
 * start-gap, write-back and write-through, the device's writes failing for a while. Nothing hangs, every failure
 * reaches a caller as an IOException, and once the device answers again every page holds its last write. The tier's
 * invariants hold between rounds where no background evictor runs (checkInvariants wants no operation under way: the
 * evictor may be storing a page in a slot it reserved), and after the file's close in every case.
 */
class NvmTinyTierEdgeTest {
    private static final int PAGE = 4096;
    private static final int PAGES = 12;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} frames, {1} slots, {2} devices, {3}, {4}, policy {5}, background evictor {6}")
    @CsvSource({
        "2, 1, 1, start-gap, write-back, clock-pro, true",
        "2, 1, 1, none, write-back, s3-fifo, false",
        "2, 1, 1, start-gap, write-through, muninn, true",
        "3, 2, 2, start-gap, write-back, w-tinylfu, false",
        "3, 2, 2, none, write-through, best-of, true",
        "4, 1, 1, start-gap, write-back, global-clock, false",
        "4, 2, 1, none, write-back, deferred-lru, true",
        "4, 2, 1, start-gap, write-back, clock-pro, false"})
    void aTinyTierWhoseWritesFailForAWhileLosesNothing(int frames, int slots, int devices, String remapping,
                                                         String writePolicy, String policy, boolean evictor) {
        assertTimeoutPreemptively(Duration.ofSeconds(Waits.BOUND_SECONDS),
            () -> run(frames, slots, devices, remapping, writePolicy, policy, evictor));
    }

    private void run(int frames, int slots, int devices, String remapping, String writePolicy, String policy,
                     boolean evictor) throws IOException {
        Map<String, String> flags = new HashMap<>();
        flags.put("pagecache.memory", String.valueOf(frames * PAGE));
        flags.put("pagecache.page_size", String.valueOf(PAGE));
        flags.put("pagecache.policy", policy);
        flags.put("pagecache.swap", "nvm");
        flags.put("pagecache.nvm.capacity", String.valueOf(slots * PAGE));
        flags.put("pagecache.nvm.devices", String.valueOf(devices));
        flags.put("pagecache.nvm.remapping", remapping);
        flags.put("pagecache.nvm.write_policy", writePolicy);
        flags.put("pagecache.nvm.inject_latency", "false");
        flags.put("pagecache.warmup.enabled", "false");
        flags.put("pagecache.evictor.enabled", String.valueOf(evictor));
        Path path = dir.resolve("tiny.db");
        long[] expected = new long[PAGES];
        Arrays.fill(expected, -1);
        SplittableRandom random = new SplittableRandom(frames * 31L + slots);
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(flags))) {
            NvmSwapStore tier = (NvmSwapStore) cache.tier();
            PagedFile file = cache.map(path, PAGE);
            long version = 0;
            for (int round = 0; round < 6; round++) {
                boolean failing = round % 2 == 1;
                tier.device().failNextWrites(failing ? Integer.MAX_VALUE : 0);
                for (int i = 0; i < 200; i++) {
                    int page = random.nextInt(PAGES);
                    version++;
                    try {
                        write(file, page, version);
                        expected[page] = version;
                    } catch (IOException refused) {
                        // a failed eviction's error, reported to this fault: the page was not written
                    }
                }
                if (!evictor) {
                    tier.checkInvariants(); // nothing under way between two of this thread's writes
                }
            }
            tier.device().failNextWrites(0);
            for (int page = 0; page < PAGES; page++) {
                if (expected[page] >= 0) {
                    assertEquals(expected[page], readRetrying(file, page), "page " + page);
                }
            }
            try {
                file.flush();
            } catch (IOException pendingFromTheFailingRounds) {
                file.flush();
            }
            file.close();
            tier.checkInvariants();
        }
        PageCacheConfig plain = PageCacheConfig.parse(Map.of("pagecache.memory", String.valueOf(16 * PAGE),
            "pagecache.page_size", String.valueOf(PAGE), "pagecache.swap", "file", "pagecache.warmup.enabled", "false"));
        try (PageCache cache = PageCache.open(plain); PagedFile file = cache.map(path, PAGE, false)) {
            for (int page = 0; page < PAGES; page++) {
                if (expected[page] >= 0) {
                    assertEquals(expected[page], read(file, page), "page " + page + " in the file, without the tier");
                }
            }
        }
    }

    private static void write(PagedFile file, long pageId, long version) throws IOException {
        try (PageCursor c = file.io(pageId, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(c.next());
            PageContent.write(c, pageId, version);
        }
    }

    private static long readRetrying(PagedFile file, long pageId) throws IOException {
        try {
            return read(file, pageId);
        } catch (IOException pendingFromTheFailingRounds) {
            return read(file, pageId);
        }
    }

    private static long read(PagedFile file, long pageId) throws IOException {
        long[] body = new long[PageContent.bodyWords(PAGE)];
        try (PageCursor c = file.io(pageId, PagedFile.PF_SHARED_READ_LOCK)) {
            assertTrue(c.next(), "page " + pageId + " exists");
            return PageContent.readValidated(c, pageId, body);
        }
    }
}
