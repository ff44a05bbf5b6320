package io.ratatosk.policies.clockpro;

import io.ratatosk.core.FrameDescriptor;

/**
 * CLOCK-Pro's layout of a frame's policy word (see {@link FrameDescriptor}): the reference bit is
 * usage bit 0, the page's state sits in bits above the usage bits. Nothing else in this package
 * spells a bit position.
 *
 * <pre>
 *   bit 0  REFERENCED  hit since a hand last cleared it
 *   bit 3  HOT         a hot page (else cold)
 *   bit 4  IN_TEST     a cold page in its test period
 *   bit 5  DEMOTED     clock-pro-plus: a cold page the hot hand demoted, not referenced since
 * </pre>
 * A bound frame's word is 0 for a cold page out of its test period; an unbound frame's word is 0.
 */
final class ClockProBits {
    static final long REFERENCED = 1L;
    static final long HOT = 1L << 3;
    static final long IN_TEST = 1L << 4;
    static final long DEMOTED = 1L << 5;

    static {
        if ((REFERENCED & ~FrameDescriptor.USAGE_MASK) != 0 || ((HOT | IN_TEST | DEMOTED) & FrameDescriptor.USAGE_MASK) != 0) {
            throw new AssertionError("CLOCK-Pro's state bits must lie above the usage bits, its reference bit in them");
        }
    }

    private ClockProBits() {
    }

    /** "hot, referenced" and the like, for messages. */
    static String toString(long word) {
        StringBuilder text = new StringBuilder((word & HOT) != 0 ? "hot" : "cold");
        if ((word & IN_TEST) != 0) {
            text.append(", in test");
        }
        if ((word & DEMOTED) != 0) {
            text.append(", demoted");
        }
        if ((word & REFERENCED) != 0) {
            text.append(", referenced");
        }
        return text.toString();
    }
}
