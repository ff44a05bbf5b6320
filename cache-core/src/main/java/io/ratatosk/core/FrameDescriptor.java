package io.ratatosk.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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
 *
 * <p>The class checks this layout when it is initialized ({@link #checkFrameLayout},
 * {@link #checkLockWordLayout}, {@link #checkUsageBits}), so an edit that breaks it fails with an
 * {@link ExceptionInInitializerError} instead of corrupting frames. The constants are compiled into
 * their users, so initialization happens at the first call of a method here: {@link FrameTable}'s
 * constructor makes one.
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

    /** Bytes of every field of a frame: each is one {@code long}. */
    private static final int FIELD_BYTES = Long.BYTES;

    static {
        checkFrameLayout(FRAME_BYTES, REGION_ALIGNMENT,
            Map.of("lock word", LOCK_WORD_OFFSET, "binding", BINDING_OFFSET, "policy word", POLICY_WORD_OFFSET));
        checkLockWordLayout(EXCLUSIVE, MODIFIED, FLUSH, WRITERS_SHIFT, WRITERS_MASK, SEQUENCE_MASK);
        checkUsageBits(USAGE_MASK, MAX_USAGE);
    }

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

    public static long sequence(long word) {
        return word & SEQUENCE_MASK;
    }

    /**
     * The lock word decoded for messages: the flags that are set, then the writer count and the
     * sequence, e.g. {@code "EXCLUSIVE|MODIFIED writers=0 sequence=1234"}; with no flag set just
     * {@code "writers=2 sequence=1234"}.
     */
    public static String describe(long lockWord) {
        StringBuilder text = new StringBuilder();
        appendFlag(text, lockWord, EXCLUSIVE, "EXCLUSIVE");
        appendFlag(text, lockWord, MODIFIED, "MODIFIED");
        appendFlag(text, lockWord, FLUSH, "FLUSH");
        if (text.length() > 0) {
            text.append(' ');
        }
        return text.append("writers=").append(writers(lockWord)).append(" sequence=").append(sequence(lockWord)).toString();
    }

    private static void appendFlag(StringBuilder text, long lockWord, long flag, String name) {
        if ((lockWord & flag) != 0) {
            if (text.length() > 0) {
                text.append('|');
            }
            text.append(name);
        }
    }

    // ---- layout checks, run when the class loads; static and given the values so tests can feed a broken layout

    /**
     * Checks the frame's fields: the region alignment is a power of two (the region's start is rounded
     * up with a mask), the frame size divides it (no frame straddles two cache lines), and every field,
     * 8 bytes, lies inside the frame on an 8-byte boundary (so its CAS and volatile accesses are atomic)
     * without overlapping another.
     *
     * @param fieldOffsets each field's name (for the message) and offset in the frame
     * @throws IllegalStateException naming the broken rule and the values
     */
    static void checkFrameLayout(int frameBytes, int regionAlignment, Map<String, Integer> fieldOffsets) {
        if (regionAlignment <= 0 || Integer.bitCount(regionAlignment) != 1) {
            throw new IllegalStateException("REGION_ALIGNMENT must be a power of two (the region's start is rounded up with a mask): REGION_ALIGNMENT="
                + regionAlignment);
        }
        if (frameBytes <= 0 || regionAlignment % frameBytes != 0) {
            throw new IllegalStateException("FRAME_BYTES must divide REGION_ALIGNMENT, so that no frame straddles two cache lines: FRAME_BYTES="
                + frameBytes + ", REGION_ALIGNMENT=" + regionAlignment);
        }
        List<Map.Entry<String, Integer>> fields = new ArrayList<>(fieldOffsets.entrySet());
        fields.sort(Map.Entry.<String, Integer>comparingByValue().thenComparing(Map.Entry.comparingByKey()));
        for (Map.Entry<String, Integer> field : fields) {
            int offset = field.getValue();
            if (offset < 0 || offset > frameBytes - FIELD_BYTES) {
                throw new IllegalStateException("every field (" + FIELD_BYTES + " bytes) must lie inside the frame: the " + field.getKey()
                    + " is at " + signed(offset) + ", FRAME_BYTES=" + frameBytes);
            }
            if (offset % FIELD_BYTES != 0) {
                throw new IllegalStateException("every field must be " + FIELD_BYTES + "-byte aligned, so that its CAS and volatile accesses are atomic: the "
                    + field.getKey() + " is at " + signed(offset));
            }
        }
        for (int i = 1; i < fields.size(); i++) {
            Map.Entry<String, Integer> before = fields.get(i - 1);
            Map.Entry<String, Integer> after = fields.get(i);
            if (after.getValue() - before.getValue() < FIELD_BYTES) {
                throw new IllegalStateException("fields (" + FIELD_BYTES + " bytes each) must not overlap: the " + before.getKey() + " is at "
                    + signed(before.getValue()) + ", the " + after.getKey() + " at " + signed(after.getValue()));
            }
        }
    }

    /**
     * Checks the lock word's bit fields: each flag is one bit, the writer count is one run of bits
     * starting at {@code writersShift}, the sequence one run starting at bit 0 ({@link #nextSequence}
     * drops its carry by masking), and together they cover the 64 bits without sharing any.
     *
     * @throws IllegalStateException naming the broken rule and the values
     */
    static void checkLockWordLayout(long exclusive, long modified, long flush, int writersShift, long writersMask, long sequenceMask) {
        List<Map.Entry<String, Long>> fields = List.of(Map.entry("EXCLUSIVE", exclusive), Map.entry("MODIFIED", modified),
            Map.entry("FLUSH", flush), Map.entry("WRITERS_MASK", writersMask), Map.entry("SEQUENCE_MASK", sequenceMask));
        for (Map.Entry<String, Long> flag : fields.subList(0, 3)) {
            if (Long.bitCount(flag.getValue()) != 1) {
                throw new IllegalStateException("every lock-word flag must be a single bit: " + flag.getKey() + "=" + hex(flag.getValue()));
            }
        }
        if (exclusive != Long.MIN_VALUE) {
            throw new IllegalStateException("EXCLUSIVE must be the sign bit (FrameTable.isReadable tests the sign): EXCLUSIVE=" + hex(exclusive));
        }
        if (!isOneRun(writersMask) || Long.numberOfTrailingZeros(writersMask) != writersShift) {
            throw new IllegalStateException("WRITERS_MASK must be one run of bits starting at WRITERS_SHIFT: WRITERS_MASK=" + hex(writersMask)
                + ", WRITERS_SHIFT=" + writersShift);
        }
        if (!isOneRun(sequenceMask) || (sequenceMask & 1) == 0) {
            throw new IllegalStateException("SEQUENCE_MASK must be one run of bits starting at bit 0 (a sequence bump drops its carry by masking): SEQUENCE_MASK="
                + hex(sequenceMask));
        }
        long covered = 0;
        for (int i = 0; i < fields.size(); i++) {
            for (int j = i + 1; j < fields.size(); j++) {
                long shared = fields.get(i).getValue() & fields.get(j).getValue();
                if (shared != 0) {
                    throw new IllegalStateException("lock-word fields must not share bits: " + fields.get(i).getKey() + "=" + hex(fields.get(i).getValue())
                        + " and " + fields.get(j).getKey() + "=" + hex(fields.get(j).getValue()) + " share " + hex(shared));
                }
            }
            covered |= fields.get(i).getValue();
        }
        if (covered != -1L) {
            throw new IllegalStateException("lock-word fields must cover all 64 bits: bits " + hex(~covered) + " belong to none");
        }
    }

    /**
     * Checks that the usage mask is exactly the low bits that hold 0..{@code maxUsage}: policies store
     * their own state in the bits above it.
     *
     * @throws IllegalStateException naming the broken rule and the values
     */
    static void checkUsageBits(long usageMask, int maxUsage) {
        if (maxUsage < 1) {
            throw new IllegalStateException("MAX_USAGE must be at least 1: MAX_USAGE=" + maxUsage);
        }
        long lowBitsForMax = (Long.highestOneBit(maxUsage) << 1) - 1;
        if (usageMask != lowBitsForMax) {
            throw new IllegalStateException("USAGE_MASK must be the low bits that just hold 0..MAX_USAGE (" + hex(lowBitsForMax) + "): USAGE_MASK="
                + hex(usageMask) + ", MAX_USAGE=" + maxUsage);
        }
    }

    /** True if the set bits of {@code mask} are one contiguous run (and there is at least one). */
    private static boolean isOneRun(long mask) {
        if (mask == 0) {
            return false;
        }
        long run = mask >>> Long.numberOfTrailingZeros(mask);
        return (run & (run + 1)) == 0;
    }

    /** An offset as the layout table writes it: {@code +16}. */
    private static String signed(int offset) {
        return offset < 0 ? String.valueOf(offset) : "+" + offset;
    }

    private static String hex(long value) {
        return "0x" + Long.toHexString(value);
    }
}
