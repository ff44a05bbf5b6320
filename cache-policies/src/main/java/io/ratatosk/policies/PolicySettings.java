package io.ratatosk.policies;

import io.ratatosk.core.config.Flag;
import io.ratatosk.core.config.Flags;
import io.ratatosk.core.config.FrameShare;
import java.util.Map;
import java.util.function.Function;

/**
 * The startup flags a policy reads, by their full names ({@code pagecache.clock.max_usage}). The
 * page cache adapts its configuration to this; the simulator and the tests use {@link #of}. Policies
 * validate the values themselves and name the flag when they reject one.
 */
public interface PolicySettings {
    int getInt(String flagName, int defaultIfUnset);

    double getDouble(String flagName, double defaultIfUnset);

    boolean getBoolean(String flagName, boolean defaultIfUnset);

    /**
     * A fraction-or-count flag ({@code 0.1} of the frames, or {@code 100} frames) as a number of
     * frames of a cache of {@code frames} frames, in [1, frames]; {@code defaultIfUnset} when unset.
     */
    int getFrameCount(String flagName, int frames, int defaultIfUnset);

    /** Every flag unset: each policy runs with its defaults. */
    static PolicySettings defaults() {
        return of(Map.of());
    }

    /** Flags given as text, as on a command line; a value that does not parse fails naming the flag. */
    static PolicySettings of(Map<String, String> values) {
        Map<String, String> flags = Map.copyOf(values);
        return new PolicySettings() {
            @Override
            public int getInt(String flagName, int defaultIfUnset) {
                return parse(flags, flagName, defaultIfUnset, Integer::valueOf, "an integer");
            }

            @Override
            public double getDouble(String flagName, double defaultIfUnset) {
                return parse(flags, flagName, defaultIfUnset, Double::valueOf, "a number");
            }

            @Override
            public boolean getBoolean(String flagName, boolean defaultIfUnset) {
                return parse(flags, flagName, defaultIfUnset, PolicySettings::parseBoolean, "true or false");
            }

            @Override
            public int getFrameCount(String flagName, int frames, int defaultIfUnset) {
                String value = flags.get(flagName);
                if (value == null) {
                    return defaultIfUnset;
                }
                Flag flag = Flags.byName(flagName).orElseThrow(
                    () -> new IllegalArgumentException(flagName + " is not a flag of the registry"));
                if (!(flag.parse(value) instanceof FrameShare share)) {
                    throw new IllegalArgumentException(flagName + " is not a fraction-or-count flag");
                }
                if (!share.isFraction() && share.count() > frames) {
                    throw new IllegalArgumentException(
                        flagName + "=" + value + ": must be at most the frame count, " + frames);
                }
                return share.of(frames);
            }

            @Override
            public String toString() {
                return flags.toString();
            }
        };
    }

    private static <T> T parse(Map<String, String> flags, String flagName, T defaultIfUnset,
                               Function<String, T> parser, String expected) {
        String value = flags.get(flagName);
        if (value == null) {
            return defaultIfUnset;
        }
        try {
            return parser.apply(value.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(flagName + "=" + value + " is not " + expected, e);
        }
    }

    private static Boolean parseBoolean(String value) {
        if (value.equals("true") || value.equals("false")) {
            return Boolean.valueOf(value);
        }
        throw new IllegalArgumentException(value);
    }
}
