package io.ratatosk.it.lifecycle;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Function;

/**
 * What each page of one file must hold. The file's pages are slots: slots {@code 0 .. pages-1} are
 * page ids {@code 0 .. pages-1}, the last few are far page ids (sparse, past any cache). A slot is
 * owned by thread {@code slot % threads}: only its owner writes it, so the model knows exactly
 * which versions were started ({@link #started}) and acknowledged ({@link #acked}: its write cursor
 * moved on or closed without an exception). A page read at any time must hold a version between
 * the one acknowledged before the read and the one started after it; an all-zero page only while
 * nothing was acknowledged. Every other page (a hole) must read as zeros.
 */
final class FileModel {
    /** Far page ids: within ext4's 16 TiB at 4k pages, far past every cache, and the last id a page key can address. */
    static final long[] FAR_BASES = {1L << 30, 1L << 40, (1L << 48) - 1};

    final int index;
    final String name;
    final long tag;
    final int pageSize;
    final int pages;
    final int threads;
    final List<Path> spellings;
    private final Function<Path, String> labels;
    private final long[] slotPageIds;
    private final AtomicLongArray started;
    private final AtomicLongArray acked;
    /** The highest page id with an acknowledged write, or -1: the file's last page id can be no lower. */
    private final AtomicLong maxAckedPageId = new AtomicLong(-1);

    FileModel(int index, String name, long tag, int pageSize, int pages, int threads, List<Path> spellings,
              Function<Path, String> labels) {
        this.index = index;
        this.name = name;
        this.tag = tag;
        this.pageSize = pageSize;
        this.pages = pages;
        this.threads = threads;
        this.spellings = List.copyOf(spellings);
        this.labels = labels;
        int far = FAR_BASES.length * threads;
        this.slotPageIds = new long[pages + far];
        for (int s = 0; s < pages; s++) {
            slotPageIds[s] = s;
        }
        for (int b = 0; b < FAR_BASES.length; b++) {
            for (int t = 0; t < threads; t++) {
                int slot = pages + b * threads + t;
                // The id of the far slot is on the slot's owner's residue so that ownership reads the same either way.
                long base = FAR_BASES[b] == (1L << 48) - 1 ? FAR_BASES[b] - (threads - 1) : FAR_BASES[b];
                slotPageIds[slot] = base - Math.floorMod(base, threads) + Math.floorMod(slot, threads);
            }
        }
        this.started = new AtomicLongArray(slotPageIds.length);
        this.acked = new AtomicLongArray(slotPageIds.length);
    }

    int slots() {
        return slotPageIds.length;
    }

    long pageId(int slot) {
        return slotPageIds[slot];
    }

    boolean isFar(int slot) {
        return slot >= pages;
    }

    int owner(int slot) {
        return slot % threads;
    }

    /** The slot of {@code pageId}, or -1 for a page no thread ever writes (a hole). */
    int slotOf(long pageId) {
        if (pageId >= 0 && pageId < pages) {
            return (int) pageId;
        }
        for (int s = pages; s < slotPageIds.length; s++) {
            if (slotPageIds[s] == pageId) {
                return s;
            }
        }
        return -1;
    }

    /** How {@code spelling} reads in reports: short, relative to the scenario's directory. */
    String label(Path spelling) {
        return labels.apply(spelling);
    }

    /** Every spelling's label. */
    List<String> labels() {
        return spellings.stream().map(labels).toList();
    }

    long acked(int slot) {
        return acked.get(slot);
    }

    long started(int slot) {
        return started.get(slot);
    }

    /** The owner begins writing the next version of {@code slot}; returns it. */
    long startWrite(int slot) {
        return started.incrementAndGet(slot);
    }

    /** The owner's write of {@code version} to {@code slot} was acknowledged. */
    void ack(int slot, long version) {
        acked.accumulateAndGet(slot, version, Math::max);
        maxAckedPageId.accumulateAndGet(pageId(slot), Math::max);
    }

    long maxAckedPageId() {
        return maxAckedPageId.get();
    }

    /**
     * Null if {@code version} (read from {@code slot}, with {@code ackedBefore} read before the page was) is
     * possible; else why not.
     */
    String judge(int slot, long version, long ackedBefore) {
        long startedNow = started(slot);
        if (version == 0 && ackedBefore > 0) {
            return "reads as never written, but version " + ackedBefore + " was acknowledged (lost write)";
        }
        if (version != 0 && version < ackedBefore) {
            return "holds version " + version + ", but version " + ackedBefore + " was acknowledged (lost write)";
        }
        if (version > startedNow) {
            return "holds version " + version + ", but only " + startedNow + " versions were ever written";
        }
        return null;
    }

    String describe(int slot) {
        return name + " page " + pageId(slot) + " (slot " + slot + ", owner t" + owner(slot) + ", acked "
            + acked(slot) + ", started " + started(slot) + ")";
    }

    @Override
    public String toString() {
        return name + "[tag " + Long.toHexString(tag) + ", pageSize " + pageSize + ", pages " + pages + ", far ids "
            + Arrays.toString(Arrays.copyOfRange(slotPageIds, pages, slotPageIds.length)) + "]";
    }
}
