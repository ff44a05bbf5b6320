package io.ratatosk.pagecache.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import org.agrona.UnsafeAccess;
import sun.misc.Unsafe;

/**
 * One mapped file's map from file page id to frame: chunks of 4096 int entries, allocated when a page
 * in them is first set, and read without a lock. An entry is {@link #ABSENT}, {@link #FAULTING} (one
 * thread is faulting the page in; others wait) or frame index + 1. No hashing, no allocation on lookup
 * of a page near the others.
 *
 * <p>The pages the file held when it was mapped (up to {@link #MAX_FRONT_PAGES}) have their entries in one
 * flat array, the front, allocated at once: a hit there is one array load ({@link #front()}). Past the front,
 * memory grows with the pages touched, not with the highest page id: chunks up to twice as far as
 * the dense range already covers go into a directory indexed by chunk number (a lookup is two array
 * loads), and so do farther ones once they would fill a directory covering them to one chunk in 256
 * slots; the rest (a few pages far past the end, such as a corrupt record pointer's, and pages past the
 * directory's reach of 2^32 page ids) into an ordered map of far chunks, where adding one costs the log
 * of their number, and a hash of them by chunk number for lookups, which allocate nothing. Growing the directory copies the far chunks it now covers into it and leaves them in the
 * map too, so a reader holding either directory finds every chunk.
 */
public final class TranslationTable {
    public static final int ABSENT = 0;
    public static final int FAULTING = -1;

    private static final int CHUNK_SHIFT = 12;
    private static final int CHUNK_SIZE = 1 << CHUNK_SHIFT;
    private static final int CHUNK_MASK = CHUNK_SIZE - 1;
    /** The directory never covers more chunks than this (4 MiB of references, 2^32 page ids). */
    static final int MAX_DIRECTORY_CHUNKS = 1 << 20;
    private static final int MIN_DIRECTORY_CHUNKS = 16;
    /**
     * A directory grows over far chunks once it has at least one per this many slots: its references then cost at most
     * an eighth of the chunks' entries (8 bytes a slot, 16 KiB a chunk).
     */
    private static final int DIRECTORY_SLOTS_PER_FAR_CHUNK = 256;
    private static final Unsafe UNSAFE = UnsafeAccess.UNSAFE;
    private static final long INT_ARRAY_BASE = Unsafe.ARRAY_INT_BASE_OFFSET;
    private static final int INT_ARRAY_SHIFT = Integer.numberOfTrailingZeros(Unsafe.ARRAY_INT_INDEX_SCALE);
    private static final long REF_ARRAY_BASE = Unsafe.ARRAY_OBJECT_BASE_OFFSET;
    private static final long REF_ARRAY_SCALE = Unsafe.ARRAY_OBJECT_INDEX_SCALE;
    private static final VarHandle ENTRY = MethodHandles.arrayElementVarHandle(int[].class);
    private static final VarHandle CHUNK = MethodHandles.arrayElementVarHandle(int[][].class);

    /**
     * The most pages the front covers: 4 MiB of entries, 8 GiB of 8 KiB pages. A larger file's pages past it go
     * to chunks, allocated as they are touched.
     */
    static final int MAX_FRONT_PAGES = 1 << 20;

    /** Entries of pages {@code [0, front.length)}, a whole number of chunks; never replaced. */
    private final int[] front;
    /**
     * Chunks {@code [0, directory.length)}, null until first set (always null below the front's end). Replaced
     * (grown) under this.
     */
    private volatile int[][] directory;
    /**
     * Every chunk allocated past the directory's end as it was then, by chunk index; added to under this, never
     * removed from: a reader that loaded the directory before a grow copied a far chunk into it still finds the chunk
     * here. (It was an immutable hash copied whole, with its sorted index, for every chunk added: pages written at
     * scattered ids of a sparse file took time growing with the square of the chunks touched, 80 s for 37,000.)
     */
    private final ConcurrentSkipListMap<Long, int[]> far = new ConcurrentSkipListMap<>();
    /** The chunks of {@link #far} for lookups, which the map would box a key for: every read of a far page allocated. */
    private final FarChunkIndex farIndex = new FarChunkIndex();
    /** Far chunks below {@link #MAX_DIRECTORY_CHUNKS} that the directory does not cover yet. Guarded by this. */
    private int farWithinDirectoryReach;

    /** @param initialPages pages the file holds now: the directory starts out covering them */
    public TranslationTable(long initialPages) {
        long chunks = (Math.max(0, initialPages) + CHUNK_SIZE - 1) >>> CHUNK_SHIFT;
        front = new int[(int) Math.min(MAX_FRONT_PAGES >>> CHUNK_SHIFT, chunks) << CHUNK_SHIFT];
        directory = new int[(int) Math.min(MAX_DIRECTORY_CHUNKS, Math.max(MIN_DIRECTORY_CHUNKS, chunks))][];
    }

    /** The entry for {@code pageId} (not negative): ABSENT, FAULTING or frame + 1. */
    public int get(long pageId) {
        if (pageId < front.length) {
            return (int) ENTRY.getAcquire(front, (int) pageId);
        }
        int[] chunk = chunk(pageId >>> CHUNK_SHIFT);
        return chunk == null ? ABSENT : (int) ENTRY.getAcquire(chunk, (int) (pageId & CHUNK_MASK));
    }

    /**
     * The entries of the pages below its length, for a reader to keep (never replaced): {@code pageId}'s entry
     * is {@code front[pageId]} there, read plainly as {@link #entryIn} reads; pages past it are in the
     * {@link #directory()}.
     */
    public int[] front() {
        return front;
    }

    /**
     * The directory as it is now, for a reader to keep: a chunk, once in the directory, stays the same array
     * for the table's life (growing the directory copies the references), so a kept directory finds every
     * entry of the chunks it had, current; a chunk added since is missing from it (see {@link #entryIn}).
     */
    public int[][] directory() {
        return directory;
    }

    /**
     * {@code pageId}'s entry as a kept {@link #directory()} has it: the entry if its chunk is there, else
     * {@link #ABSENT}, which a caller must take as "look it up with {@link #get}", not as "not resident".
     * A plain read: the entry only nominates a frame, and the caller checks that frame's binding under its
     * lock word's stamp before it trusts it.
     */
    public static int entryIn(int[] front, int[][] directory, long pageId) {
        if (pageId >= 0 && pageId < front.length) {
            return UNSAFE.getInt(front, INT_ARRAY_BASE + (pageId << INT_ARRAY_SHIFT)); // in bounds: checked above
        }
        return entryIn(directory, pageId);
    }

    /** {@link #entryIn(int[], int[][], long)} past the front. */
    private static int entryIn(int[][] directory, long pageId) {
        long chunkIndex = pageId >>> CHUNK_SHIFT; // a negative id is past any directory's end
        if (chunkIndex < directory.length) {
            // Unsafe loads, after the one bounds check above: every chunk is CHUNK_SIZE long (allocate), so the
            // masked index is in it, and the chunk needs no cast to be read as ints.
            Object chunk = UNSAFE.getObject(directory, REF_ARRAY_BASE + chunkIndex * REF_ARRAY_SCALE);
            if (chunk != null) {
                return UNSAFE.getInt(chunk, INT_ARRAY_BASE + ((pageId & CHUNK_MASK) << INT_ARRAY_SHIFT));
            }
        }
        return ABSENT;
    }

    public boolean compareAndSet(long pageId, int expected, int update) {
        if (pageId < front.length) {
            return ENTRY.compareAndSet(front, (int) pageId, expected, update);
        }
        return ENTRY.compareAndSet(chunkForUpdate(pageId), (int) (pageId & CHUNK_MASK), expected, update);
    }

    public void set(long pageId, int value) {
        if (pageId < front.length) {
            ENTRY.setRelease(front, (int) pageId, value);
        } else {
            ENTRY.setRelease(chunkForUpdate(pageId), (int) (pageId & CHUNK_MASK), value);
        }
    }

    /**
     * The smallest page id {@code >= from} whose entry is not {@link #ABSENT}, or -1 if there is none:
     * {@code for (long p = t.nextPresent(0); p >= 0; p = t.nextPresent(p + 1))} visits every page that
     * is resident or being faulted in, in page order, touching only chunks that exist.
     */
    public long nextPresent(long from) {
        for (long p = from; p < front.length; p++) {
            if ((int) ENTRY.getAcquire(front, (int) p) != ABSENT) {
                return p;
            }
        }
        long pastFront = Math.max(from, front.length);
        int[][] d = directory;
        long chunkIndex = pastFront >>> CHUNK_SHIFT;
        int offset = (int) (pastFront & CHUNK_MASK);
        for (; chunkIndex < d.length; chunkIndex++, offset = 0) {
            long found = scan((int[]) CHUNK.getAcquire(d, (int) chunkIndex), chunkIndex, offset);
            if (found >= 0) {
                return found;
            }
        }
        // Every chunk below d's end is in d (a grow copies the far chunks it covers before it publishes); those past it
        // are in the far map, which keeps every chunk it was given.
        for (Map.Entry<Long, int[]> entry : far.tailMap(chunkIndex).entrySet()) {
            long index = entry.getKey();
            long found = scan(entry.getValue(), index, index == chunkIndex ? offset : 0);
            if (found >= 0) {
                return found;
            }
        }
        return -1;
    }

    private static long scan(int[] chunk, long chunkIndex, int from) {
        if (chunk != null) {
            for (int i = from; i < CHUNK_SIZE; i++) {
                if ((int) ENTRY.getAcquire(chunk, i) != ABSENT) {
                    return (chunkIndex << CHUNK_SHIFT) | i;
                }
            }
        }
        return -1;
    }

    /** Chunks allocated so far, the front's included, for tests and diagnostics. */
    public int allocatedChunks() {
        int n = front.length >>> CHUNK_SHIFT;
        int[][] d = directory;
        for (int[] c : d) {
            n += c == null ? 0 : 1;
        }
        return n + far.tailMap((long) d.length).size(); // those below are in d too
    }

    /**
     * A plain read of the directory slot, not an acquire: the hit path's first load, and nothing read
     * through it needs ordering (entries are read with acquire). A reader that sees no chunk yet sees the
     * page absent and goes to fault it, where {@link #allocate} finds the chunk under the lock.
     */
    private int[] chunk(long chunkIndex) {
        // A chunk past d's end is in the far map whichever directory d is: a grow copies far chunks into the
        // directory and leaves them in the map (when a grow moved them out, a reader of the old directory and the new
        // far chunks found the chunk in neither, and a flush walked past a dirty page).
        int[][] d = directory;
        if (chunkIndex < d.length) {
            return d[(int) chunkIndex];
        }
        return farIndex.get(chunkIndex);
    }

    private int[] chunkForUpdate(long pageId) {
        int[] chunk = chunk(pageId >>> CHUNK_SHIFT);
        return chunk != null ? chunk : allocate(pageId >>> CHUNK_SHIFT);
    }

    private synchronized int[] allocate(long chunkIndex) {
        int[] existing = chunk(chunkIndex);
        if (existing != null) {
            return existing;
        }
        int[] chunk = new int[CHUNK_SIZE];
        int[][] d = directory;
        if (chunkIndex < d.length) {
            CHUNK.setRelease(d, (int) chunkIndex, chunk);
        } else if (chunkIndex < Math.min(2L * d.length, MAX_DIRECTORY_CHUNKS)) {
            growDirectory(d, (int) Math.min(MAX_DIRECTORY_CHUNKS, 2L * d.length), (int) chunkIndex, chunk);
        } else if (chunkIndex < MAX_DIRECTORY_CHUNKS && denseEnoughFor(chunkIndex)) {
            growDirectory(d, coveringLength(chunkIndex), (int) chunkIndex, chunk);
        } else {
            farIndex.add(chunkIndex, chunk);
            far.put(chunkIndex, chunk);
            if (chunkIndex < MAX_DIRECTORY_CHUNKS) {
                farWithinDirectoryReach++;
            }
        }
        return chunk;
    }

    /**
     * Whether the far chunks within the directory's reach, with {@code chunkIndex}, are enough to fill a directory
     * covering them all at one per {@link #DIRECTORY_SLOTS_PER_FAR_CHUNK} slots. Pages written at scattered ids of a
     * sparse file mostly land more than twice the directory's length out, where doubling never reaches them, and a
     * page among the far chunks is never a hit of the cursor's kept directory: every read of it took the full path.
     */
    private boolean denseEnoughFor(long chunkIndex) {
        return (farWithinDirectoryReach + 1L) * DIRECTORY_SLOTS_PER_FAR_CHUNK >= coveringLength(chunkIndex);
    }

    /** The least power of two above {@code chunkIndex} and every far chunk within the directory's reach. */
    private int coveringLength(long chunkIndex) {
        Long farthest = far.lowerKey((long) MAX_DIRECTORY_CHUNKS);
        long highest = Math.max(chunkIndex, farthest == null ? 0 : farthest);
        return (int) Math.min(MAX_DIRECTORY_CHUNKS, Long.highestOneBit(highest) << 1);
    }

    /**
     * Publishes a directory of {@code length} chunks: the old one's, copies of the far chunks it now covers (which stay
     * in the far map, for readers of the old directory), and {@code chunk}.
     */
    private void growDirectory(int[][] old, int length, int chunkIndex, int[] chunk) {
        int[][] grown = Arrays.copyOf(old, length);
        grown[chunkIndex] = chunk;
        Map<Long, int[]> covered = far.subMap((long) old.length, (long) length);
        covered.forEach((index, farChunk) -> grown[index.intValue()] = farChunk);
        farWithinDirectoryReach -= covered.size();
        directory = grown;
    }
}
