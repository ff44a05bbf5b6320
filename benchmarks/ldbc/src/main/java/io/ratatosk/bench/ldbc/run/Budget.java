package io.ratatosk.bench.ldbc.run;

import java.util.Locale;

/**
 * How long a phase runs: a number of operations ({@code 20000}) or a duration ({@code 30s},
 * {@code 2m}, {@code 500ms}). An operation is one executed query, short or complex.
 */
public record Budget(String text, long operations, long nanos) {
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
            if (value >= 0) {
                // Exact: 18446744073710ms wrapped around to half a millisecond.
                return unit == 0 ? new Budget(s, value, 0) : new Budget(s, 0, Math.multiplyExact(value, unit));
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
}
