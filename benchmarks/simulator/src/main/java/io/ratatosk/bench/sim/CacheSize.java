package io.ratatosk.bench.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A cache size as written on the command line: an absolute entry count ({@code 500}) or a fraction
 * of the trace's distinct keys ({@code /100} = distinct / 100, rounded down, at least 1).
 */
public record CacheSize(String text, int absolute, int divisor) {

    public static CacheSize parse(String text) {
        String s = text.strip();
        // ASCII digits only: Integer.parseInt also takes a sign and other scripts' digits (/+2, full-width 12), which
        // then named a column as typed
        try {
            if (!s.matches("/?[0-9]+")) {
                // refused below
            } else if (s.startsWith("/")) {
                int divisor = Integer.parseInt(s.substring(1));
                if (divisor > 0) {
                    return new CacheSize(s, 0, divisor);
                }
            } else {
                int absolute = Integer.parseInt(s);
                if (absolute > 0) {
                    return new CacheSize(s, absolute, 0);
                }
            }
        } catch (NumberFormatException e) {
            if (s.matches("/?[0-9]+")) { // positive, but past an int: "not a positive entry count" would be wrong
                throw new IllegalArgumentException(String.format(Locale.ROOT, "cache size '%s' is too large: %s at most %,d",
                    text, s.startsWith("/") ? "N in /N" : "entries", Integer.MAX_VALUE), e);
            }
        }
        throw new IllegalArgumentException("cache size '" + text
            + "' must be a positive entry count (500) or /N for distinct keys / N (/100)");
    }

    /** Comma-separated sizes, e.g. {@code 100,500,1000} or {@code /100,/10}. */
    public static List<CacheSize> parseList(String text) {
        List<CacheSize> sizes = new ArrayList<>();
        for (String part : text.split(",")) {
            if (!part.isBlank()) {
                sizes.add(parse(part));
            }
        }
        if (sizes.isEmpty()) {
            throw new IllegalArgumentException("no cache size in '" + text + "'");
        }
        return sizes;
    }

    /** The entry count for a trace with {@code distinct} keys. */
    public int entriesFor(int distinct) {
        return divisor == 0 ? absolute : Math.max(1, distinct / divisor);
    }

    @Override
    public String toString() {
        return text;
    }
}
