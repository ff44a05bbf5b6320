package io.ratatosk.nvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import io.ratatosk.core.PageKey;
import org.junit.jupiter.api.Test;

class PageSlotIndexTest {
    @Test
    void putGetRemoveRoundTrip() {
        PageSlotIndex index = new PageSlotIndex(4);
        long a = PageKey.of(0, 1);
        long b = PageKey.of(3, 1);
        assertEquals(PageSlotIndex.ABSENT, index.get(a));
        assertEquals(PageSlotIndex.ABSENT, index.put(a, 7));
        assertEquals(PageSlotIndex.ABSENT, index.put(b, 0));
        assertEquals(7, index.get(a));
        assertEquals(0, index.get(b));
        assertEquals(7, index.put(a, 2));
        assertFalse(index.remove(a, 7), "removes only the mapping it was told about");
        assertTrue(index.remove(a, 2));
        assertEquals(PageSlotIndex.ABSENT, index.get(a));
        assertEquals(0, index.get(b));
        assertEquals(1, index.size());
    }

    @Test
    void behavesLikeAMapUnderRandomChurnWithManyCollisions() {
        // 64 entries in 128 cells, keys drawn from a small range: long probe runs, many shifts.
        PageSlotIndex index = new PageSlotIndex(64);
        Map<Long, Integer> reference = new HashMap<>();
        SplittableRandom random = new SplittableRandom(42);
        for (int step = 0; step < 200_000; step++) {
            long key = PageKey.of(random.nextInt(3), random.nextInt(60));
            if (random.nextBoolean() && reference.size() < 64) {
                int slot = random.nextInt(1000);
                Integer previous = reference.put(key, slot);
                assertEquals(previous == null ? PageSlotIndex.ABSENT : previous, index.put(key, slot));
            } else {
                Integer current = reference.get(key);
                boolean removed = current != null && index.remove(key, current);
                assertEquals(current != null, removed);
                reference.remove(key);
            }
            if (step % 1000 == 0) {
                for (int f = 0; f < 3; f++) {
                    for (int p = 0; p < 60; p++) {
                        long k = PageKey.of(f, p);
                        assertEquals(reference.getOrDefault(k, PageSlotIndex.ABSENT), index.get(k), PageKey.toString(k));
                    }
                }
                assertEquals(reference.size(), index.size());
            }
        }
    }

    @Test
    void refusesMoreEntriesThanItWasSizedFor() {
        PageSlotIndex index = new PageSlotIndex(2);
        index.put(PageKey.of(0, 0), 0);
        index.put(PageKey.of(0, 1), 1);
        assertThrows(IllegalStateException.class, () -> index.put(PageKey.of(0, 2), 2));
    }

    @Test
    void everySlotCountTheFlagsAcceptGetsAnIndexOfTwoToFourCellsPerSlot() {
        // Issue 11: the index refused more than 2^29 entries, while pagecache.nvm.capacity / page_size
        // may come to NvmFlags.MAX_SLOTS; beyond 2^30 cells it now takes several segments.
        assertEquals(1L << 30, PageSlotIndex.cellsFor(1 << 29));
        assertEquals(1L << 31, PageSlotIndex.cellsFor((1 << 29) + 1));
        assertEquals(1L << 32, PageSlotIndex.cellsFor(NvmFlags.MAX_SLOTS));
        assertEquals(1L << 32, PageSlotIndex.cellsFor(Integer.MAX_VALUE));
        for (int entries : new int[] {1, 2, 3, 1000, 1 << 29, (1 << 29) + 1, 1 << 30, NvmFlags.MAX_SLOTS}) {
            long cells = PageSlotIndex.cellsFor(entries);
            assertEquals(1, Long.bitCount(cells), "a power of two for " + entries);
            assertTrue(cells >= 2L * entries && cells < 4L * entries + 2, cells + " cells for " + entries);
        }
    }

    @Test
    void anIndexSplitIntoSegmentsSizesThemFromTheCellCount() {
        PageSlotIndex index = new PageSlotIndex(1000, 4);
        assertEquals(2048, index.cells());
        assertEquals(128, index.segments());
        assertEquals(1, new PageSlotIndex(1000).segments(), "one segment up to 2^30 cells");
        assertEquals(1, new PageSlotIndex(1, 4).segments());
    }

    @Test
    void behavesLikeAMapAcrossSegmentsUnderRandomChurn() {
        // 16-cell segments: probe runs and backward shifts cross segment ends and wrap round the table.
        PageSlotIndex index = new PageSlotIndex(200, 4);
        Map<Long, Integer> reference = new HashMap<>();
        SplittableRandom random = new SplittableRandom(7);
        for (int step = 0; step < 100_000; step++) {
            long key = PageKey.of(random.nextInt(4), random.nextInt(100));
            if (random.nextBoolean() && reference.size() < 200) {
                int slot = random.nextInt(1 << 30);
                Integer previous = reference.put(key, slot);
                assertEquals(previous == null ? PageSlotIndex.ABSENT : previous, index.put(key, slot));
            } else {
                Integer current = reference.get(key);
                assertEquals(current != null, current != null && index.remove(key, current));
                reference.remove(key);
            }
            if (step % 5000 == 0) {
                for (int f = 0; f < 4; f++) {
                    for (int p = 0; p < 100; p++) {
                        long k = PageKey.of(f, p);
                        assertEquals(reference.getOrDefault(k, PageSlotIndex.ABSENT), index.get(k), PageKey.toString(k));
                    }
                }
                assertEquals(reference.size(), index.size());
            }
        }
    }
}
