package io.ratatosk.bench.ldbc.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A cache size as written on the command line: a share of the store ({@code 10%}, {@code 2.5%}) or
 * an absolute size ({@code 64m}, {@code 1g}, {@code 8192k}, or bytes). Rounded down to whole pages,
 * at least two.
 */
public record CacheSpec(String text, double percent, long bytes) {
    /** The fewest frames a run gets, whatever the size asked for. */
    public static final long MIN_PAGES = 2;
    /** The largest share of the store a cache may be: ten times the store is already one that never evicts. */
    static final double MAX_PERCENT = 1000;

    public static CacheSpec parse(String text) {
        String s = text.strip().toLowerCase(Locale.ROOT);
        try {
            if (s.endsWith("%")) {
                double p = Double.parseDouble(s.substring(0, s.length() - 1));
                if (p > 0 && p <= MAX_PERCENT) {
                    return new CacheSpec(s, p, 0);
                }
                // a share it read: say which bound it breaks, not which forms exist ('0%' is one of them)
                throw new IllegalArgumentException("cache size '" + text + "': a share of the store must be above 0%"
                    + " and at most " + (int) MAX_PERCENT + "%");
            } else {
                long unit = 1;
                String number = s;
                switch (s.isEmpty() ? ' ' : s.charAt(s.length() - 1)) {
                    case 'k' -> unit = 1L << 10;
                    case 'm' -> unit = 1L << 20;
                    case 'g' -> unit = 1L << 30;
                    default -> unit = 1;
                }
                if (unit > 1) {
                    number = s.substring(0, s.length() - 1);
                }
                long bytes = Math.round(Double.parseDouble(number) * unit);
                if (bytes > 0) {
                    return new CacheSpec(s, 0, bytes);
                }
                throw new IllegalArgumentException("cache size '" + text + "': a size must be at least one byte (64m, 1g,"
                    + " 8192k)");
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("cache size '" + text + "' must be a share of the store (10%, 2.5%)"
            + " or a size (64m, 1g, 8192k)");
    }

    /**
     * Comma-separated sizes, each once: a size repeated, however written ({@code 10%} and {@code 10.0%}, {@code 1m}
     * and {@code 1024k}), is dropped, as a repeated policy is. Run twice, its runs were two rows of the report but
     * one group of the charts, which showed the first and dropped the second.
     */
    public static List<CacheSpec> parseList(List<String> texts) {
        List<CacheSpec> list = new ArrayList<>();
        for (String text : texts) {
            for (String part : text.split(",")) {
                if (!part.isBlank()) {
                    CacheSpec spec = parse(part);
                    if (list.stream().noneMatch(spec::sameSize)) {
                        list.add(spec);
                    }
                }
            }
        }
        if (list.isEmpty()) {
            throw new IllegalArgumentException("no cache size given");
        }
        return list;
    }

    /** Whether this is a size in bytes ({@code 64m}), not a share of the store ({@code 10%}). */
    public boolean isAbsolute() {
        return percent == 0;
    }

    /** Whether {@code other} asks for the same size, however written. */
    private boolean sameSize(CacheSpec other) {
        return Double.compare(percent, other.percent) == 0 && bytes == other.bytes;
    }

    /** Bytes for a store of {@code storeBytes}, whole pages of {@code pageSize}, at least two. */
    public long bytesFor(long storeBytes, int pageSize) {
        return Math.max(MIN_PAGES * pageSize, wholePages(storeBytes, pageSize));
    }

    /** Whether this size is under two pages of {@code pageSize} for a store of {@code storeBytes}, so {@link #bytesFor} raises it. */
    public boolean belowMinimum(long storeBytes, int pageSize) {
        return wholePages(storeBytes, pageSize) < MIN_PAGES * pageSize;
    }

    private long wholePages(long storeBytes, int pageSize) {
        long raw = percent > 0 ? (long) (storeBytes * percent / 100) : bytes;
        return raw / pageSize * pageSize;
    }

    @Override
    public String toString() {
        return text;
    }
}
