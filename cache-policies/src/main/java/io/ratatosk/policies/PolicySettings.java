package io.ratatosk.policies;

import java.util.Map;

/**
 * The startup flags a policy reads, by their full names ({@code pagecache.clock.max_usage}). The
 * page cache adapts its configuration to this; the simulator and the tests use {@link #of}. Policies
 * validate the values themselves and name the flag when they reject one.
 */
public interface PolicySettings {
    int getInt(String flagName, int defaultIfUnset);

    double getDouble(String flagName, double defaultIfUnset);

    boolean getBoolean(String flagName, boolean defaultIfUnset);

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
                String value = flags.get(flagName);
                try {
                    return value == null ? defaultIfUnset : Integer.parseInt(value.trim());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(flagName + "=" + value + " is not an integer", e);
                }
            }

            @Override
            public double getDouble(String flagName, double defaultIfUnset) {
                String value = flags.get(flagName);
                try {
                    return value == null ? defaultIfUnset : Double.parseDouble(value.trim());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(flagName + "=" + value + " is not a number", e);
                }
            }

            @Override
            public boolean getBoolean(String flagName, boolean defaultIfUnset) {
                String value = flags.get(flagName);
                if (value == null) {
                    return defaultIfUnset;
                }
                switch (value.trim()) {
                    case "true":
                        return true;
                    case "false":
                        return false;
                    default:
                        throw new IllegalArgumentException(flagName + "=" + value + " must be true or false");
                }
            }

            @Override
            public String toString() {
                return flags.toString();
            }
        };
    }
}
