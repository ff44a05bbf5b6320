package io.ratatosk.core;

/**
 * The binary layout of one frame's metadata in the off-heap {@link FrameTable} region, and of the
 * lock word inside it. Every offset and bit is a named constant here; code that uses the layout
 * never does its own offset arithmetic.
 *
 * <pre>
 * frame metadata, {@value #FRAME_BYTES} bytes per frame:
 *   +0  lock word      (see below)
 *   +8  reserved       (unused: the page cache computes a frame's page address from its index, so a
 *                       hit's page load does not wait for this line; kept so frames stay 32 bytes,
 *                       two to a cache line)
 *   +16 binding        (0 = unbound, else a {@link PageKey}: file id + 1 in the top 16 bits, page id below)
 *   +24 policy word    (owned by the eviction policy: usage count in bits 0-2, policy state bits above)
 *
 * lock word:
 *   bit  63     EXCLUSIVE  eviction or fault in progress; nobody else may touch the page
 *   bit  62     MODIFIED   the page differs from its copy in the file
 *   bit  61     FLUSH      a flusher is writing the page out; eviction waits, writers do not
 *   bits 48-60  WRITERS    number of shared write locks held (page is pinned)
 *   bits 0-47   SEQUENCE   bumped whenever a write or exclusive lock is released, so an
 *                          optimistic reader can tell that the page may have changed under it
 * </pre>
 */
public final class FrameDescriptor {
    public static final int LOCK_WORD_OFFSET = 0;
    public static final int BINDING_OFFSET = 16;
    public static final int POLICY_WORD_OFFSET = 24;
    public static final int FRAME_BYTES = 32;
    /**
     * The region starts on a cache line ({@value} bytes), so with {@link #FRAME_BYTES} dividing it no
     * frame's metadata straddles two lines: one miss fetches all of a frame's words.
     */
    public static final int REGION_ALIGNMENT = 64;

    public static final long EXCLUSIVE = 1L << 63;
    public static final long MODIFIED = 1L << 62;
    public static final long FLUSH = 1L << 61;
    public static final int WRITERS_SHIFT = 48;
    public static final long WRITER_ONE = 1L << WRITERS_SHIFT;
    public static final long WRITERS_MASK = 0x1FFFL << WRITERS_SHIFT;
    public static final long MAX_WRITERS = WRITERS_MASK >>> WRITERS_SHIFT;
    public static final long SEQUENCE_MASK = (1L << WRITERS_SHIFT) - 1;

    /** Bits that make a frame impossible to evict right now (it is pinned or busy). */
    public static final long PINNING_BITS = EXCLUSIVE | WRITERS_MASK | FLUSH;

    /** Usage count bits in the policy word (3 bits, 0..7). */
    public static final long USAGE_MASK = 0x7L;
    public static final int MAX_USAGE = 7;

    private FrameDescriptor() {
    }

    public static long frameOffset(int frame) {
        return (long) frame * FRAME_BYTES;
    }

    public static long nextSequence(long word) {
        return (word & ~SEQUENCE_MASK) | ((word + 1) & SEQUENCE_MASK);
    }

    public static int writers(long word) {
        return (int) ((word & WRITERS_MASK) >>> WRITERS_SHIFT);
    }
}
