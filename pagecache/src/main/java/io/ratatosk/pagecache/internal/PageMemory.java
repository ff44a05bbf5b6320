package io.ratatosk.pagecache.internal;

import io.ratatosk.core.FrameDescriptor;
import io.ratatosk.pagecache.MachineMemoryExceededException;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.UnsafeAccess;
import sun.misc.Unsafe;

/**
 * The off-heap memory that holds the frames' pages: one allocation, aligned so that no page straddles
 * two OS pages, freed once. Frame {@code f}'s page is at {@code address(f)}, computed, never loaded.
 * Asked for with huge pages, a region of at least one huge page is aligned to it and advised to the
 * kernel before anything touches it ({@link HugePages}); {@link #hugePages()} says what came of it.
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
    /** Guarded by this: a lock, not an atomic, whose first compare-and-set in a JVM allocates (see {@link #free}). */
    private volatile boolean freed;
    private final String hugePages;
    /**
     * Bytes of page memory and frame metadata held by the page caches of this JVM, open or closed with cursors still
     * open: what a new cache is checked against the machine with. Checked one cache at a time, two caches of 60% of
     * memory each both opened, to overrun it together as they filled.
     */
    private static final AtomicLong HELD = new AtomicLong();
    /** This memory's share of {@link #HELD}, given back when it is freed. */
    private final long held;

    /**
     * @param pageSize  a power of two
     * @param hugePages ask the kernel for huge pages ({@code pagecache.huge_pages=auto}) where it can give them
     * @throws IllegalStateException naming the size when the memory cannot be had; a
     *                               {@link MachineMemoryExceededException} when it is more than the machine has (with the
     *                               frames' metadata, and what the other caches of this JVM hold)
     */
    public PageMemory(int frames, int pageSize, String sizeFlag, boolean hugePages) {
        long bytes = (long) frames * pageSize;
        this.held = hold(bytes, frames, sizeFlag, MachineMemory.total());
        boolean huge = hugePages && bytes >= HugePages.HUGE_PAGE_BYTES && HugePages.unavailableReason().isEmpty();
        long alignment = huge ? HugePages.HUGE_PAGE_BYTES : ALIGNMENT;
        try {
            this.allocation = UNSAFE.allocateMemory(bytes + alignment - 1);
        } catch (OutOfMemoryError e) {
            HELD.addAndGet(-held);
            throw new IllegalStateException("cannot allocate " + bytes + " bytes of page memory for " + sizeFlag + ": "
                + e.getMessage(), e);
        }
        this.base = (allocation + alignment - 1) & -alignment;
        this.pageShift = Integer.numberOfTrailingZeros(pageSize);
        if (!hugePages) {
            this.hugePages = "off (pagecache.huge_pages=off)";
        } else if (bytes < HugePages.HUGE_PAGE_BYTES) {
            this.hugePages = "not used: " + bytes + " bytes of page memory is less than one huge page";
        } else {
            this.hugePages = HugePages.advise(base, bytes); // before anything touches the memory
        }
    }

    /**
     * A cache larger than the machine's memory cannot hold its pages: the allocation itself usually succeeds (memory is
     * only promised until touched), and the host is then swapped to a crawl or killed by the kernel's OOM killer as
     * the frames fill, long after startup. Refused at startup instead, naming the flag. The frames' metadata
     * ({@link FrameDescriptor#FRAME_BYTES} a frame, off the heap and zeroed at once) counts too: a sixteenth more with
     * 512-byte pages, which the page memory alone left out, so a cache of 97% of memory opened and overran it.
     */
    static void refuseMoreThanTheMachineHas(long pageBytes, int frames, String sizeFlag, OptionalLong machine,
                                            long heldByOthers) {
        long metadataBytes = (long) frames * FrameDescriptor.FRAME_BYTES;
        if (machine.isPresent() && pageBytes + metadataBytes > machine.getAsLong() - heldByOthers) {
            boolean pagesAloneFit = pageBytes <= machine.getAsLong() - heldByOthers;
            throw new MachineMemoryExceededException("cannot allocate " + pageBytes + " bytes of page memory for "
                + sizeFlag + " and " + metadataBytes + " bytes of frame metadata (" + FrameDescriptor.FRAME_BYTES + " a frame): "
                + (heldByOthers == 0 ? "more than" : "with the " + heldByOthers + " bytes the other page caches of this"
                + " JVM hold, more than") + " the " + machine.getAsLong() + " bytes of memory this machine (or its"
                + " container) has; a page cache larger than memory would be swapped out or killed as it fills. Give"
                + " pagecache.memory a smaller size" + (pagesAloneFit ? ", or pagecache.page_size a larger one (fewer"
                + " frames, less metadata)" : "") + (heldByOthers == 0 ? "" : ", or close the other caches first"));
        }
    }

    /** Adds this memory's pages and metadata to {@link #HELD}, refused as above if all of it would not fit; returns them. */
    private static long hold(long pageBytes, int frames, String sizeFlag, OptionalLong machine) {
        long mine = pageBytes + (long) frames * FrameDescriptor.FRAME_BYTES;
        while (true) {
            long others = HELD.get();
            refuseMoreThanTheMachineHas(pageBytes, frames, sizeFlag, machine, others);
            if (HELD.compareAndSet(others, others + mine)) {
                return mine;
            }
        }
    }

    /** What came of huge pages for this memory, in words: advised, off, or why not ({@link HugePages#advise}). */
    public String hugePages() {
        return hugePages;
    }

    /** The address of frame {@code frame}'s page. */
    public long address(int frame) {
        return base + ((long) frame << pageShift);
    }

    /**
     * Frees the memory; later calls do nothing. Nobody may touch a page afterwards. Allocates nothing, not even to link
     * code: a cache's close may call it with the heap full (an AtomicBoolean's first compare-and-set in the JVM threw an
     * OutOfMemoryError there, and the memory was never freed).
     */
    public synchronized void free() {
        if (!freed) {
            freed = true;
            UNSAFE.freeMemory(allocation);
            HELD.addAndGet(-held);
        }
    }

    public boolean isFreed() {
        return freed;
    }
}
