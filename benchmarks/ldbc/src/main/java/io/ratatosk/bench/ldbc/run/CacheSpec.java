package io.ratatosk.bench.ldbc.run;

import io.ratatosk.core.config.FlagProblem;
import io.ratatosk.core.config.FlagValueException;
import io.ratatosk.pagecache.PageCacheFlags;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A cache size as written on the command line: a share of the store ({@code 10%}, {@code 2.5%}) or
 * an absolute size as {@code pagecache.memory} takes it ({@code 64m}, {@code 1g}, {@code 1t}, {@code 512MB}, or bytes).
 * Rounded down to whole pages, at least two.
 */
public record CacheSpec(String text, double percent, long bytes) {
    /** The fewest frames a run gets, whatever the size asked for. */
    public static final long MIN_PAGES = 2;
    /** The largest share of the store a cache may be: ten times the store is already one that never evicts. */
    static final double MAX_PERCENT = 1000;
    private static final Pattern PLAIN_DECIMAL = Pattern.compile("[0-9]+(\\.[0-9]*)?|\\.[0-9]+");

    public static CacheSpec parse(String text) {
        String s = text.strip().toLowerCase(Locale.ROOT);
        if (s.endsWith("%")) {
            String number = s.substring(0, s.length() - 1).strip();
            // Digits and a point only: Double.parseDouble also read 10f% and 10d% as 10%, 0x1p3% as 8%, 1e1% as 10%.
            if (!PLAIN_DECIMAL.matcher(number).matches()) {
                throw new IllegalArgumentException("cache size '" + text + "' must be a share of the store (10%, 2.5%)"
                    + " or a size (64m, 1g, 8192k)");
            }
            double p = Double.parseDouble(number);
            if (p > 0 && p <= MAX_PERCENT) {
                return new CacheSpec(s, p, 0);
            }
            // a share it read: say which bound it breaks, not which forms exist ('0%' is one of them)
            throw new IllegalArgumentException("cache size '" + text + "': a share of the store must be above 0%"
                + " and at most " + (int) MAX_PERCENT + "%");
        }
        // The page cache's own parser, as for pagecache.memory (which this size becomes) and demo's --cache: this one
        // had no t, no 512MB or 1GiB, and took what Double.parseDouble takes (10f as 10 bytes, 1e3, Infinity).
        try {
            return new CacheSpec(s, 0, (Long) PageCacheFlags.MEMORY.parse(s));
        } catch (FlagValueException e) {
            String said = e.getMessage();
            String flagAndValue = FlagProblem.oneLine(PageCacheFlags.MEMORY.name() + "=" + s + ": must be ");
            String accepted = said.startsWith(flagAndValue) ? said.substring(flagAndValue.length()) : said;
            throw new IllegalArgumentException("cache size '" + text + "' must be a share of the store (10%, 2.5%) or "
                + accepted, e);
        }
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
