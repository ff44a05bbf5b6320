package io.ratatosk.bench.ldbc.run;

import java.util.Locale;

/**
 * How long a phase runs: a number of operations ({@code 20000}) or a duration ({@code 30s},
 * {@code 2m}, {@code 500ms}). An operation is one executed query, short or complex.
 */
public record Budget(String text, long operations, long nanos) {
    /**
     * The longest phase: a year. A phase ends at now + its nanos, which passed Long.MAX_VALUE for a time a little
     * under 292 years (153722867m) and ended the phase at once.
     */
    static final long MAX_NANOS = 365L * 24 * 3600 * 1_000_000_000L;

    public static Budget operations(long n) {
        return new Budget(Long.toString(n), n, 0);
    }

    public static Budget parse(String text) {
        String s = text.strip().toLowerCase(Locale.ROOT);
        try {
            long unit = 0;
            String number = s;
            if (s.endsWith("ms")) {
                unit = 1_000_000L;
                number = s.substring(0, s.length() - 2);
            } else if (s.endsWith("s")) {
                unit = 1_000_000_000L;
                number = s.substring(0, s.length() - 1);
            } else if (s.endsWith("m")) {
                unit = 60_000_000_000L;
                number = s.substring(0, s.length() - 1);
            }
            long value = Long.parseLong(number.strip().replace("_", ""));
            if (value >= 0 && unit == 0) {
                return new Budget(s, value, 0);
            }
            // Exact: 18446744073710ms wrapped around to half a millisecond.
            long nanos = value >= 0 ? Math.multiplyExact(value, unit) : -1;
            if (nanos > MAX_NANOS) {
                throw new TooLongException("'" + text + "' is longer than a year (" + MAX_NANOS / 60_000_000_000L
                    + "m), the longest a phase may run");
            }
            if (nanos >= 0) {
                return new Budget(s, 0, nanos);
            }
        } catch (NumberFormatException | ArithmeticException e) {
            // reported below
        }
        throw new IllegalArgumentException("'" + text + "' is neither an operation count (20000) nor a duration"
            + " (30s, 2m, 500ms)");
    }

    public boolean isDuration() {
        return nanos > 0;
    }

    @Override
    public String toString() {
        return isDuration() ? text : operations + " ops";
    }

    /** A time past {@link #MAX_NANOS}: a time all the same, so that --duration says why, not that it is none. */
    public static final class TooLongException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        TooLongException(String message) {
            super(message);
        }
    }
}
