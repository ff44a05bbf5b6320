package io.ratatosk.pagecache.internal;

import java.util.concurrent.atomic.AtomicBoolean;
import org.agrona.UnsafeAccess;
import sun.misc.Unsafe;

/**
 * The off-heap memory that holds the frames' pages: one allocation, aligned so that no page straddles
 * two OS pages, freed once. Frame {@code f}'s page is at {@code address(f)}, computed, never loaded.
 */
public final class PageMemory {
    private static final Unsafe UNSAFE = UnsafeAccess.UNSAFE;
    /** Pages start on an OS page (with page sizes of 4k or more), so no page straddles two. */
    public static final long ALIGNMENT = 4096;

    /** What allocateMemory returned, to free. */
    private final long allocation;
    /** Frame 0's page: the allocation rounded up to {@link #ALIGNMENT}. */
    private final long base;
    private final int pageShift;
    private final AtomicBoolean freed = new AtomicBoolean();

    /**
     * @param pageSize a power of two
     * @throws IllegalStateException naming the size when the memory cannot be had
     */
    public PageMemory(int frames, int pageSize, String sizeFlag) {
        long bytes = (long) frames * pageSize;
        try {
            this.allocation = UNSAFE.allocateMemory(bytes + ALIGNMENT - 1);
        } catch (OutOfMemoryError e) {
            throw new IllegalStateException("cannot allocate " + bytes + " bytes of page memory for " + sizeFlag + ": "
                + e.getMessage(), e);
        }
        this.base = (allocation + ALIGNMENT - 1) & -ALIGNMENT;
        this.pageShift = Integer.numberOfTrailingZeros(pageSize);
    }

    /** The address of frame {@code frame}'s page. */
    public long address(int frame) {
        return base + ((long) frame << pageShift);
    }

    /** Frees the memory; later calls do nothing. Nobody may touch a page afterwards. */
    public void free() {
        if (freed.compareAndSet(false, true)) {
            UNSAFE.freeMemory(allocation);
        }
    }

    public boolean isFreed() {
        return freed.get();
    }
}
