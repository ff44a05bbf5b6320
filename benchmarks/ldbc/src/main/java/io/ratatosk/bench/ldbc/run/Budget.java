package io.ratatosk.bench.ldbc.run;

import io.ratatosk.core.config.Flag;
import io.ratatosk.core.config.FlagProblem;
import io.ratatosk.core.config.FlagValueException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * How long a phase runs: a number of operations ({@code 20000}) or a duration ({@code 30s}, {@code 1.5s},
 * {@code 2m}, {@code 500ms}, {@code 250us}). An operation is one executed query, short or complex.
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

    /**
     * The page cache's own duration parser, so that a time is written here as for its flags (1.5s, 250us, 2 s); a
     * number alone is an operation count here, not nanoseconds. Minutes, which it has not, are 60 of its seconds.
     */
    private static final Flag TIME = Flag.duration("ldbc.phase", null, 0, MAX_NANOS, "How long a phase runs.");
    private static final Flag MINUTES = Flag.duration("ldbc.phase", null, 0, MAX_NANOS / 60, "How long a phase runs, / 60.");
    private static final Pattern COUNT = Pattern.compile("[0-9][0-9_]*");

    public static Budget parse(String text) {
        String s = text.strip().toLowerCase(Locale.ROOT);
        if (COUNT.matcher(s).matches()) {
            try {
                return new Budget(s, Long.parseLong(s.replace("_", "")), 0);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + text + "' is more operations than a long holds ("
                    + Long.MAX_VALUE + ")", e);
            }
        }
        if (s.isEmpty() || !Character.isLetter(s.charAt(s.length() - 1))) {
            // The page cache reads a number alone as nanoseconds: 2.0 was a phase of 2 ns, not 2 operations or seconds.
            throw new IllegalArgumentException("'" + text + "' is neither an operation count (20000) nor a duration"
                + " (30s, 1.5s, 2m, 500ms, 250us)" + (s.isEmpty() ? "" : ": a time needs its unit"));
        }
        // 2m and 2 m, not 5mm (5ms a minute)
        boolean minutes = s.length() > 1 && s.endsWith("m") && !Character.isLetter(s.charAt(s.length() - 2));
        Flag flag = minutes ? MINUTES : TIME;
        String value = minutes ? s.substring(0, s.length() - 1) + "s" : s;
        try {
            long nanos = (Long) flag.parse(value) * (minutes ? 60 : 1);
            return new Budget(s, 0, nanos);
        } catch (FlagValueException e) {
            // The flag's reason after what it accepts: none for a time past its bound, the one reason it gives alone.
            String said = e.getMessage();
            String prefix = FlagProblem.oneLine(flag.name() + "=" + value) + ": must be " + flag.accepted();
            String reason = said.startsWith(prefix) ? said.substring(prefix.length()).strip() : said;
            if (reason.isEmpty()) {
                // Exact: 18446744073710ms wrapped around to half a millisecond before.
                throw new IllegalArgumentException("'" + text + "' is longer than a year (" + MAX_NANOS / 60_000_000_000L
                    + "m), the longest a phase may run");
            }
            boolean notATime = reason.startsWith("(not a duration");
            throw new IllegalArgumentException("'" + text + "' is neither an operation count (20000) nor a duration"
                + " (30s, 1.5s, 2m, 500ms, 250us)" + (notATime ? "" : " " + reason), e);
        }
    }

    public boolean isDuration() {
        return nanos > 0;
    }

    @Override
    public String toString() {
        return isDuration() ? text : operations + " ops";
    }
}
