package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.pagecache.metrics.PageCacheMBeanRegistration;
import io.ratatosk.pagecache.tier.TierCounters;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cache's MBean shows the counters of {@code stats()} and goes away at close; JFR events appear only
 * in a recording that enables them.
 */
class MetricsTest {
    private static final int PAGE = 4096;
    private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();

    @TempDir
    Path dir;

    private static PageCacheConfig config(String name) {
        return PageCacheConfig.parse(Map.of("pagecache.memory", "256k", "pagecache.page_size", "4k",
            "pagecache.name", name, "pagecache.warmup.enabled", "false"));
    }

    private static void writePages(PagedFile file, int pages) throws IOException {
        for (long p = 0; p < pages; p++) {
            try (PageCursor c = file.io(p, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(c.next());
                c.putLong(0, p);
            }
        }
    }

    @Test
    void theMBeanAttributesEqualStats() throws Exception {
        // No background evictor: nothing changes the counters between stats() and the attribute reads.
        PageCacheConfig quiet = config("metrics-test").with("pagecache.evictor.enabled", "false");
        try (PageCache cache = PageCache.open(quiet); PagedFile file = cache.map(dir.resolve("m.db"), PAGE)) {
            writePages(file, 200); // 64 frames: faults, evictions and eviction writes
            for (int round = 0; round < 3; round++) {
                try (PageCursor c = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
                    for (long p = 190; p < 200; p++) {
                        assertTrue(c.next(p));
                    }
                }
            }
            file.flush();
            ObjectName name = new ObjectName("io.ratatosk:type=PageCache,name=metrics-test");
            assertEquals(name, cache.mbeanName());
            PageCacheStats stats = cache.stats();
            assertEquals(stats.hits(), SERVER.getAttribute(name, "Hits"));
            assertEquals(stats.faults(), SERVER.getAttribute(name, "Faults"));
            assertEquals(stats.hitRatio(), (Double) SERVER.getAttribute(name, "HitRatio"), 0.0);
            assertEquals(stats.evictions(), SERVER.getAttribute(name, "Evictions"));
            assertEquals(stats.evictionWrites(), SERVER.getAttribute(name, "EvictionWrites"));
            assertEquals(stats.flushedPages(), SERVER.getAttribute(name, "FlushedPages"));
            assertEquals(stats.bytesRead(), SERVER.getAttribute(name, "BytesRead"));
            assertEquals(stats.bytesWritten(), SERVER.getAttribute(name, "BytesWritten"));
            assertEquals(stats.evictionErrors(), SERVER.getAttribute(name, "EvictionErrors"));
            assertEquals(stats.io().pagesWritten(), SERVER.getAttribute(name, "PagesWritten"));
            assertEquals(stats.io().writeCalls(), SERVER.getAttribute(name, "WriteCalls"));
            assertEquals(stats.io().pagesReheated(), SERVER.getAttribute(name, "PagesReheated"));
            assertEquals(stats.frames(), SERVER.getAttribute(name, "Frames"));
            assertEquals(stats.policy(), SERVER.getAttribute(name, "Policy"));
            assertEquals(stats.policyState(), SERVER.getAttribute(name, "PolicyState"));
            assertTrue(stats.policyState().startsWith("following "), "the default, best-of, names its expert: " + stats);
            assertTrue(stats.toString().contains("policy=best-of (following "), stats.toString());
            assertEquals("metrics-test", SERVER.getAttribute(name, "Name"));
            assertTrue(stats.faults() >= 200 && stats.hits() > 0 && stats.evictions() > 0, stats.toString());
        }
        assertFalse(SERVER.isRegistered(new ObjectName("io.ratatosk:type=PageCache,name=metrics-test")), "unregistered at close");
    }

    /**
     * No attribute of the MBean is a swap tier's counter, yet every attribute read asked the tier for all of them: the
     * NVM tier sums the wear of every slot for its counters, so with a large tier each read of Hits scanned millions of
     * slots, and a console polling the 19 attributes did so 19 times a poll.
     */
    @Test
    void readingTheMBeanLeavesTheSwapTiersCountersAlone() throws Exception {
        AtomicInteger tierCounterReads = new AtomicInteger();
        SwapPluginMisuseTest.PrefetchingTier tier = new SwapPluginMisuseTest.PrefetchingTier() {
            @Override
            public TierCounters counters() {
                tierCounterReads.incrementAndGet();
                return super.counters();
            }
        };
        tier.counters = new TierCounters(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);
        try (PageCache cache = PageCache.open(config("tiered"), tier); PagedFile file = cache.map(dir.resolve("t.db"), PAGE)) {
            writePages(file, 100);
            ObjectName name = cache.mbeanName();
            for (MBeanAttributeInfo attribute : SERVER.getMBeanInfo(name).getAttributes()) {
                SERVER.getAttribute(name, attribute.getName());
            }
            assertEquals(cache.frameCount(), SERVER.getAttribute(name, "Frames"));
            assertEquals(0, tierCounterReads.get(), "the MBean's attributes asked the tier for its counters");
            assertEquals(5, cache.stats().nvm().swapIns(), "stats() still has them");
            assertEquals(1, tierCounterReads.get());
        }
    }

    @Test
    void aSecondCacheOfTheSameNameGetsASuffixAndTheFirstKeepsTheName() throws Exception {
        ObjectName plain = PageCacheMBeanRegistration.objectName("twin");
        try (PageCache first = PageCache.open(config("twin")); PageCache second = PageCache.open(config("twin"))) {
            assertEquals(plain, first.mbeanName());
            assertEquals(PageCacheMBeanRegistration.objectName("twin-2"), second.mbeanName());
            assertTrue(SERVER.isRegistered(second.mbeanName()));
        }
        assertFalse(SERVER.isRegistered(plain));
        assertFalse(SERVER.isRegistered(PageCacheMBeanRegistration.objectName("twin-2")));
    }

    /**
     * Someone else (a test harness's clean-up, a management agent) unregistered a cache's MBean, and a cache opened since
     * took the name: the first cache's close unregistered that name, the second cache's bean, which vanished while its
     * cache was open.
     */
    @Test
    void aCloseLeavesTheBeanOfAnotherCacheThatTookTheNameAfterItsOwnWasUnregistered() throws Exception {
        ObjectName name = PageCacheMBeanRegistration.objectName("taken-over");
        try (PageCache second = openAfter(name)) {
            assertEquals(name, second.mbeanName(), "the name was free again");
            assertTrue(SERVER.isRegistered(name), "the first cache's close left the second cache's bean alone");
            assertEquals(second.stats().frames(), SERVER.getAttribute(name, "Frames"));
        }
        assertFalse(SERVER.isRegistered(name), "the second cache's close unregisters its own bean");
    }

    /** Opens a cache, unregisters its bean as someone else would, opens a second under the name, closes the first. */
    private static PageCache openAfter(ObjectName name) throws Exception {
        PageCache first = PageCache.open(config("taken-over"));
        assertEquals(name, first.mbeanName());
        SERVER.unregisterMBean(name);
        PageCache second = PageCache.open(config("taken-over"));
        first.close();
        return second;
    }

    @Test
    void withJmxDisabledNothingIsRegistered() throws Exception {
        Map<String, String> flags = new HashMap<>(Map.of("pagecache.memory", "256k", "pagecache.name", "hidden",
            "pagecache.jmx.enabled", "false"));
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(flags))) {
            assertNull(cache.mbeanName());
            assertFalse(SERVER.isRegistered(PageCacheMBeanRegistration.objectName("hidden")));
        }
    }

    @Test
    void jfrEventsAreRecordedOnlyWhenARecordingEnablesThem() throws Exception {
        Path withEvents = dir.resolve("with.jfr");
        Path without = dir.resolve("without.jfr");
        try (Recording recording = new Recording()) {
            recording.start(); // enables nothing of ours
            runSomeFaultsEvictionsAndFlushes("a.db");
            recording.stop();
            recording.dump(without);
        }
        try (Recording recording = new Recording()) {
            recording.enable("io.ratatosk.Fault");
            recording.enable("io.ratatosk.Eviction");
            recording.enable("io.ratatosk.Flush");
            recording.start();
            runSomeFaultsEvictionsAndFlushes("b.db");
            recording.stop();
            recording.dump(withEvents);
        }
        assertEquals(Map.of(), ourEvents(without), "events recorded although no recording enabled them");
        Map<String, List<RecordedEvent>> events = ourEvents(withEvents);
        assertEquals(List.of("io.ratatosk.Eviction", "io.ratatosk.Fault", "io.ratatosk.Flush"),
            events.keySet().stream().sorted().toList());
        RecordedEvent fault = events.get("io.ratatosk.Fault").get(0);
        assertTrue(fault.getString("file").endsWith("b.db"), fault.toString());
        assertNotEquals(null, fault.getDuration());
        assertTrue(events.get("io.ratatosk.Flush").stream().anyMatch(e -> e.getInt("pages") > 1), "a flush of a run");
    }

    private void runSomeFaultsEvictionsAndFlushes(String fileName) throws IOException {
        // No background evictor: it keeps half of 64 frames free and may evict any of the dirty pages before the
        // flush, so whether two adjacent ones are left would depend on timing. Faulting threads evict only what
        // they need, so at least 60 of the 100 pages stay resident and dirty, and 60 pages of 100 always hold
        // two adjacent ones: the flush writes a run.
        PageCacheConfig config = config("jfr-" + fileName).with("pagecache.evictor.enabled", "false");
        try (PageCache cache = PageCache.open(config); PagedFile file = cache.map(dir.resolve(fileName), PAGE)) {
            writePages(file, 100); // 64 frames: evictions
            writePages(file, 20);
            file.flush();
        }
    }

    private static Map<String, List<RecordedEvent>> ourEvents(Path recording) throws IOException {
        return RecordingFile.readAllEvents(recording).stream()
            .filter(e -> e.getEventType().getName().startsWith("io.ratatosk."))
            .collect(Collectors.groupingBy(e -> e.getEventType().getName()));
    }
}
