package io.ratatosk.core;

import static io.ratatosk.core.FrameDescriptor.EXCLUSIVE;
import static io.ratatosk.core.FrameDescriptor.FLUSH;
import static io.ratatosk.core.FrameDescriptor.MODIFIED;
import static io.ratatosk.core.FrameDescriptor.SEQUENCE_MASK;
import static io.ratatosk.core.FrameDescriptor.WRITERS_MASK;
import static io.ratatosk.core.FrameDescriptor.WRITER_ONE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The lock word's helpers ({@link FrameDescriptor#nextSequence}, {@link FrameDescriptor#describe}) and
 * the layout checks the class runs when it loads, fed both the real layout and broken ones.
 */
class FrameDescriptorTest {
    private static final Map<String, Integer> FIELDS = Map.of("lock word", 0, "binding", 16, "policy word", 24);

    // ---- sequence -------------------------------------------------------------------------------

    @Test
    void nextSequenceAddsOneToTheSequenceOnly() {
        long word = MODIFIED | 3 * WRITER_ONE | 41;
        assertEquals(MODIFIED | 3 * WRITER_ONE | 42, FrameDescriptor.nextSequence(word));
    }

    @Test
    void sequenceWrapsToZeroAtSequenceMaskWithoutTouchingWritersOrFlags() {
        long everythingElse = EXCLUSIVE | MODIFIED | FLUSH | WRITERS_MASK;
        assertEquals(everythingElse, FrameDescriptor.nextSequence(everythingElse | SEQUENCE_MASK));
        assertEquals(5 * WRITER_ONE, FrameDescriptor.nextSequence(5 * WRITER_ONE | SEQUENCE_MASK));
        assertEquals(0, FrameDescriptor.nextSequence(SEQUENCE_MASK));
    }

    @Test
    void writersAndSequenceDecodeTheirFields() {
        long word = EXCLUSIVE | FLUSH | 7 * WRITER_ONE | 1234;
        assertEquals(7, FrameDescriptor.writers(word));
        assertEquals(1234, FrameDescriptor.sequence(word));
        assertEquals((int) FrameDescriptor.MAX_WRITERS, FrameDescriptor.writers(WRITERS_MASK | SEQUENCE_MASK));
    }

    // ---- describe -------------------------------------------------------------------------------

    @Test
    void describeNamesTheSetFlagsThenWritersAndSequence() {
        assertEquals("EXCLUSIVE|MODIFIED writers=2 sequence=1234", FrameDescriptor.describe(EXCLUSIVE | MODIFIED | 2 * WRITER_ONE | 1234));
        assertEquals("MODIFIED|FLUSH writers=0 sequence=77", FrameDescriptor.describe(MODIFIED | FLUSH | 77));
        assertEquals("EXCLUSIVE|MODIFIED|FLUSH writers=8191 sequence=" + SEQUENCE_MASK, FrameDescriptor.describe(-1L));
    }

    @Test
    void describeWithNoFlagShowsOnlyWritersAndSequence() {
        assertEquals("writers=0 sequence=0", FrameDescriptor.describe(0));
        assertEquals("writers=3 sequence=9", FrameDescriptor.describe(3 * WRITER_ONE | 9));
    }

    // ---- the layout checks -------------------------------------------------------------------------

    @Test
    void theRealLayoutPassesItsOwnChecks() {
        // Loading the class ran the checks already; touching it makes sure it is loaded.
        assertEquals(32, FrameDescriptor.frameOffset(1));
        FrameDescriptor.checkFrameLayout(FrameDescriptor.FRAME_BYTES, FrameDescriptor.REGION_ALIGNMENT,
            Map.of("lock word", FrameDescriptor.LOCK_WORD_OFFSET, "binding", FrameDescriptor.BINDING_OFFSET,
                "policy word", FrameDescriptor.POLICY_WORD_OFFSET));
        FrameDescriptor.checkLockWordLayout(EXCLUSIVE, MODIFIED, FLUSH, FrameDescriptor.WRITERS_SHIFT, WRITERS_MASK, SEQUENCE_MASK);
        FrameDescriptor.checkUsageBits(FrameDescriptor.USAGE_MASK, FrameDescriptor.MAX_USAGE);
    }

    @Test
    void aRegionAlignmentThatIsNotAPowerOfTwoIsRejected() {
        assertRejected(() -> FrameDescriptor.checkFrameLayout(32, 96, FIELDS),
            "REGION_ALIGNMENT must be a power of two", "REGION_ALIGNMENT=96");
    }

    @Test
    void aFrameSizeThatDoesNotDivideTheRegionAlignmentIsRejected() {
        assertRejected(() -> FrameDescriptor.checkFrameLayout(48, 64, Map.of("lock word", 0, "binding", 16, "policy word", 40)),
            "FRAME_BYTES must divide REGION_ALIGNMENT", "FRAME_BYTES=48", "REGION_ALIGNMENT=64");
    }

    @Test
    void aFieldThatEndsPastTheFrameIsRejected() {
        assertRejected(() -> FrameDescriptor.checkFrameLayout(32, 64, Map.of("lock word", 0, "binding", 16, "policy word", 32)),
            "must lie inside the frame", "policy word is at +32", "FRAME_BYTES=32");
    }

    @Test
    void aFieldAtANegativeOffsetIsRejected() {
        assertRejected(() -> FrameDescriptor.checkFrameLayout(32, 64, Map.of("lock word", -8, "binding", 16, "policy word", 24)),
            "must lie inside the frame", "lock word is at -8");
    }

    @Test
    void aMisalignedFieldIsRejected() {
        assertRejected(() -> FrameDescriptor.checkFrameLayout(32, 64, Map.of("lock word", 0, "binding", 12, "policy word", 24)),
            "8-byte aligned", "binding is at +12");
    }

    @Test
    void overlappingFieldsAreRejected() {
        assertRejected(() -> FrameDescriptor.checkFrameLayout(32, 64, Map.of("lock word", 0, "binding", 16, "policy word", 16)),
            "must not overlap", "binding is at +16", "policy word at +16");
    }

    @Test
    void aFlagOfMoreThanOneBitIsRejected() {
        assertRejected(() -> FrameDescriptor.checkLockWordLayout(EXCLUSIVE, MODIFIED | FLUSH, 0, 48, WRITERS_MASK, SEQUENCE_MASK),
            "every lock-word flag must be a single bit", "MODIFIED=0x6000000000000000");
    }

    @Test
    void anExclusiveFlagOtherThanTheSignBitIsRejected() {
        assertRejected(() -> FrameDescriptor.checkLockWordLayout(1L << 60, MODIFIED, FLUSH, 48, WRITERS_MASK & ~(1L << 60), SEQUENCE_MASK),
            "EXCLUSIVE must be the sign bit", "EXCLUSIVE=0x1000000000000000");
    }

    @Test
    void aWritersMaskThatDoesNotStartAtTheShiftIsRejected() {
        assertRejected(() -> FrameDescriptor.checkLockWordLayout(EXCLUSIVE, MODIFIED, FLUSH, 47, WRITERS_MASK, SEQUENCE_MASK),
            "WRITERS_MASK must be one run of bits starting at WRITERS_SHIFT", "WRITERS_MASK=0x1fff000000000000", "WRITERS_SHIFT=47");
    }

    @Test
    void aWritersMaskWithAHoleIsRejected() {
        long withHole = WRITERS_MASK & ~(WRITER_ONE << 4);
        assertRejected(() -> FrameDescriptor.checkLockWordLayout(EXCLUSIVE, MODIFIED, FLUSH, 48, withHole, SEQUENCE_MASK),
            "WRITERS_MASK must be one run of bits", "WRITERS_MASK=0x1fef000000000000");
    }

    @Test
    void aSequenceMaskThatDoesNotStartAtBitZeroIsRejected() {
        assertRejected(() -> FrameDescriptor.checkLockWordLayout(EXCLUSIVE, MODIFIED, FLUSH, 48, WRITERS_MASK, SEQUENCE_MASK & ~1L),
            "SEQUENCE_MASK must be one run of bits starting at bit 0", "SEQUENCE_MASK=0xfffffffffffe");
    }

    @Test
    void lockWordFieldsThatShareBitsAreRejected() {
        // the writer count grown by one bit into FLUSH
        long writers = WRITERS_MASK | FLUSH;
        assertRejected(() -> FrameDescriptor.checkLockWordLayout(EXCLUSIVE, MODIFIED, FLUSH, 48, writers, SEQUENCE_MASK),
            "must not share bits", "FLUSH=0x2000000000000000", "WRITERS_MASK=0x3fff000000000000", "share 0x2000000000000000");
    }

    @Test
    void lockWordFieldsThatLeaveBitsUncoveredAreRejected() {
        // the sequence one bit short of the writer count
        assertRejected(() -> FrameDescriptor.checkLockWordLayout(EXCLUSIVE, MODIFIED, FLUSH, 48, WRITERS_MASK, SEQUENCE_MASK >>> 1),
            "must cover all 64 bits", "bits 0x800000000000 belong to none");
    }

    @Test
    void aUsageMaskNarrowerThanMaxUsageIsRejected() {
        assertRejected(() -> FrameDescriptor.checkUsageBits(0x7, 8),
            "USAGE_MASK must be the low bits that just hold 0..MAX_USAGE (0xf)", "USAGE_MASK=0x7", "MAX_USAGE=8");
    }

    @Test
    void aUsageMaskWiderThanMaxUsageNeedsIsRejected() {
        assertRejected(() -> FrameDescriptor.checkUsageBits(0xF, 7),
            "USAGE_MASK must be the low bits that just hold 0..MAX_USAGE (0x7)", "USAGE_MASK=0xf");
    }

    @Test
    void aUsageMaskThatIsNotTheLowBitsIsRejected() {
        assertRejected(() -> FrameDescriptor.checkUsageBits(0xE, 7), "USAGE_MASK=0xe", "MAX_USAGE=7");
    }

    @Test
    void aMaxUsageBelowOneIsRejected() {
        assertRejected(() -> FrameDescriptor.checkUsageBits(0, 0), "MAX_USAGE must be at least 1", "MAX_USAGE=0");
    }

    @Test
    void aUsageMaskForAMaxUsageBetweenPowersOfTwoIsAccepted() {
        FrameDescriptor.checkUsageBits(0x7, 5);
        FrameDescriptor.checkUsageBits(0x1, 1);
    }

    private static void assertRejected(Executable check, String... messageParts) {
        IllegalStateException e = assertThrows(IllegalStateException.class, check);
        for (String part : messageParts) {
            assertTrue(e.getMessage().contains(part), "message should contain \"" + part + "\": " + e.getMessage());
        }
    }
}
