package io.ratatosk.nvm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import io.ratatosk.core.PageSwapper;

/**
 * A handful of page frames in front of a swapper, used the way the page cache uses one: a fault
 * reads the page into a free frame (evicting a random frame first if none is free), a write makes
 * the frame dirty with a new version, a flush writes a dirty frame and makes it clean, an eviction
 * hands the page to {@code evict} with its dirty flag. Remembers the version every page must hold
 * and checks every fault against it. Single-threaded; give each thread its own.
 */
final class FrameSimulation {
    private final PageSwapper swapper;
    private final OffHeapPages pages;
    private final long[] frameAddress;
    private final long[] framePage;
    private final boolean[] frameDirty;
    private final Map<Long, Long> expected = new HashMap<>();
    private final SplittableRandom random;
    private long counter;

    FrameSimulation(PageSwapper swapper, OffHeapPages pages, int frames, long seed) {
        this.swapper = swapper;
        this.pages = pages;
        this.frameAddress = new long[frames];
        this.framePage = new long[frames];
        this.frameDirty = new boolean[frames];
        for (int f = 0; f < frames; f++) {
            frameAddress[f] = pages.allocate();
            framePage[f] = -1;
        }
        this.random = new SplittableRandom(seed);
    }

    /** One random step over {@code pageIds}: fault or hit, maybe write, maybe flush, maybe force. */
    void step(long[] pageIds) throws IOException {
        // 80% of accesses go to the first fifth of the pages
        int hot = Math.max(1, pageIds.length / 5);
        long pageId = random.nextInt(10) < 8 ? pageIds[random.nextInt(hot)] : pageIds[random.nextInt(pageIds.length)];
        int frame = pin(pageId);
        if (random.nextBoolean()) {
            write(frame);
        }
        int r = random.nextInt(100);
        if (r < 5) {
            flush(random.nextInt(framePage.length));
        } else if (r == 5) {
            swapper.force();
        }
    }

    /** The frame holding {@code pageId}, faulting it in (and checking its content) if it is not resident. */
    int pin(long pageId) throws IOException {
        int free = -1;
        for (int f = 0; f < framePage.length; f++) {
            if (framePage[f] == pageId) {
                return f;
            }
            if (framePage[f] == -1) {
                free = f;
            }
        }
        if (free == -1) {
            free = random.nextInt(framePage.length);
            evict(free);
        }
        swapper.read(pageId, frameAddress[free]);
        framePage[free] = pageId;
        frameDirty[free] = false;
        verify(pageId, frameAddress[free], "fault");
        return free;
    }

    /** Gives the page in {@code frame} a new version and makes it dirty. */
    long write(int frame) {
        long pageId = framePage[frame];
        long version = (pageId << 24) | ++counter;
        pages.fill(frameAddress[frame], version);
        expected.put(pageId, version);
        frameDirty[frame] = true;
        return version;
    }

    void flush(int frame) throws IOException {
        if (framePage[frame] != -1 && frameDirty[frame]) {
            swapper.write(framePage[frame], frameAddress[frame]);
            frameDirty[frame] = false;
        }
    }

    void evict(int frame) throws IOException {
        if (framePage[frame] != -1) {
            swapper.evict(framePage[frame], frameAddress[frame], frameDirty[frame]);
            framePage[frame] = -1;
            frameDirty[frame] = false;
        }
    }

    void evictAll() throws IOException {
        for (int f = 0; f < framePage.length; f++) {
            evict(f);
        }
    }

    /** Checks that the page at {@code address} holds the version {@code pageId} must have. */
    void verify(long pageId, long address, String when) {
        Long version = expected.get(pageId);
        if (version == null) {
            for (int i = 0; i < pages.pageSize(); i += Long.BYTES) {
                assertEquals(0L, OffHeapPages.UNSAFE.getLong(address + i), when + ": page " + pageId + " was never written");
            }
        } else {
            assertEquals(-1, pages.firstMismatch(address, version), when + ": page " + pageId + " must hold version "
                + Long.toHexString(version) + " but holds " + Long.toHexString(OffHeapPages.UNSAFE.getLong(address)));
        }
    }

    Map<Long, Long> expected() {
        return expected;
    }
}
