package io.ratatosk.core.config;

/**
 * Flag values as whoever uses them reads them (a policy's factory, a rule across flags): the value
 * given for a flag, parsed, or nothing when the flag was left unset, in which case the reader picks
 * its default (which may depend on other flags or on the frame count). The page cache's configuration
 * is one; the simulator's per-policy flags are another.
 */
public interface FlagValues {
    /** No flag set: everything at its default. */
    FlagValues NONE = new FlagValues() {
        @Override
        public Object given(Flag flag) {
            return null;
        }

        @Override
        public String text(Flag flag) {
            return null;
        }

        @Override
        public String toString() {
            return "{}";
        }
    };

    /** The value given for {@code flag}, parsed (see {@link FlagKind}), or null when it was left unset. */
    Object given(Flag flag);

    /** The text {@code flag} was given as, stripped, or null when it was left unset. */
    String text(Flag flag);

    default boolean isSet(Flag flag) {
        return given(flag) != null;
    }

    /**
     * The value given for {@code flag}, else its declared default ({@link Flag#parsedDefault()}): for a flag
     * whose default is a constant, so that the constant is written once, in the flag, and the documentation
     * generated from it cannot drift from what the reader uses.
     *
     * @throws IllegalStateException for a flag with no constant default (one its reader computes), whose reader
     *                               must pass the default itself
     */
    default int getInt(Flag flag) {
        return (Integer) givenOrDeclared(flag);
    }

    /** See {@link #getInt(Flag)}. */
    default double getDouble(Flag flag) {
        return (Double) givenOrDeclared(flag);
    }

    /** See {@link #getInt(Flag)}. */
    default boolean getBoolean(Flag flag) {
        return (Boolean) givenOrDeclared(flag);
    }

    private Object givenOrDeclared(Flag flag) {
        Object value = given(flag);
        if (value != null) {
            return value;
        }
        Object declared = flag.parsedDefault();
        if (declared == null) {
            throw new IllegalStateException(flag.name() + " has no constant default: its reader must pass one");
        }
        return declared;
    }

    default int getInt(Flag flag, int defaultIfUnset) {
        Object value = given(flag);
        return value != null ? (Integer) value : defaultIfUnset;
    }

    default double getDouble(Flag flag, double defaultIfUnset) {
        Object value = given(flag);
        return value != null ? (Double) value : defaultIfUnset;
    }

    default boolean getBoolean(Flag flag, boolean defaultIfUnset) {
        Object value = given(flag);
        return value != null ? (Boolean) value : defaultIfUnset;
    }

    /**
     * A fraction-or-count flag as a number of frames of a cache of {@code frames} frames, in [1, frames]
     * ({@link FrameShare#of}); {@code defaultIfUnset} when unset.
     *
     * @throws IllegalArgumentException for a count above {@code frames}, which every parser refuses
     *                                  ({@link RuleContext#checkFrameCounts}): a caller that skipped it
     */
    default int getFrameCount(Flag flag, int frames, int defaultIfUnset) {
        Object value = given(flag);
        if (value == null) {
            return defaultIfUnset;
        }
        FrameShare share = (FrameShare) value;
        if (!share.isFraction() && share.count() > frames) {
            throw new IllegalArgumentException(flag + "=" + share.count() + ": must be at most the frame count, " + frames);
        }
        return share.of(frames);
    }
}
