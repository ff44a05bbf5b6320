package io.ratatosk.bench.sim;

import java.util.Arrays;
import java.util.Locale;

/**
 * A whole trace in memory, its keys remapped to dense ids {@code 0 .. distinct-1} in order of first
 * appearance, so that every policy replays a plain {@code int[]} and may index arrays by key.
 */
public final class Trace {
    /** Next-use value of a request whose key never occurs again. */
    public static final int NEVER = Integer.MAX_VALUE;

    private final String name;
    private final String format;
    private final int[] keys;
    private final int distinct;
    private int[] nextUse;

    Trace(String name, String format, int[] keys, int distinct) {
        this.name = name;
        this.format = format;
        this.keys = keys;
        this.distinct = distinct;
    }

    /** Builds a trace from raw keys (any longs), remapping them as a reader would. */
    public static Trace of(String name, long... rawKeys) {
        Builder b = new Builder(name, "memory", rawKeys.length);
        for (long k : rawKeys) {
            b.accept(k);
        }
        return b.build();
    }

    public String name() {
        return name;
    }

    public String format() {
        return format;
    }

    public int requests() {
        return keys.length;
    }

    public int distinct() {
        return distinct;
    }

    /** The dense key of each request; shared, never modify. */
    public int[] keys() {
        return keys;
    }

    /**
     * For each request, the index of the next request for the same key, or {@link #NEVER}. Computed
     * once on first use (OPT needs it); call it before starting parallel replays.
     */
    synchronized int[] nextUse() {
        if (nextUse == null) {
            int[] next = new int[keys.length];
            int[] seenAt = new int[distinct];
            Arrays.fill(seenAt, NEVER);
            for (int i = keys.length - 1; i >= 0; i--) {
                int k = keys[i];
                next[i] = seenAt[k];
                seenAt[k] = i;
            }
            nextUse = next;
        }
        return nextUse;
    }

    @Override
    public String toString() {
        return name + " (" + format + ", " + keys.length + " requests, " + distinct + " distinct)";
    }

    /**
     * The most a trace may hold: its requests are one {@code int[]} (Java's arrays end just below 2^31), its distinct keys
     * one {@link LongIntHashMap}. A smaller one lets a test reach the limits without a file of 2^31 lines.
     */
    record Limits(int requests, int distinctKeys, boolean startOnly) {
        static final Limits MOST = new Limits(Integer.MAX_VALUE - 8, LongIntHashMap.MAX_SIZE);

        Limits(int requests, int distinctKeys) {
            this(requests, distinctKeys, false);
        }

        /** A trace's first {@code requests}, where the reader stops ({@link StartRead}): the rest is not read. */
        static Limits start(int requests) {
            return new Limits(requests, LongIntHashMap.MAX_SIZE, true);
        }
    }

    /** A {@link Limits#start} reached: the reader stops there, the trace read so far being all that was asked for. */
    static final class StartRead extends RuntimeException {
        private static final long serialVersionUID = 1L;

        StartRead() {
            super(null, null, false, false);
        }
    }

    /** A trace past its {@link Limits}: the reader names the file and the line or byte reached. */
    static final class TooLargeException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TooLargeException(String message) {
            super(message);
        }
    }

    /** Collects raw keys as a reader produces them and remaps them to dense ids. */
    public static final class Builder implements KeySink {
        private final String name;
        private final String format;
        private final LongIntHashMap ids;
        private final Limits limits;
        private int[] keys;
        private int size;

        Builder(String name, String format, int expectedRequests) {
            this(name, format, expectedRequests, Limits.MOST);
        }

        Builder(String name, String format, int expectedRequests, Limits limits) {
            this.name = name;
            this.format = format;
            this.limits = limits;
            this.keys = new int[Math.max(1024, expectedRequests)];
            this.ids = new LongIntHashMap(expectedKeys(expectedRequests));
        }

        /** The distinct keys the id map is sized for: one per 8 requests, at least 1024. */
        public static int expectedKeys(int expectedRequests) {
            return Math.max(1024, expectedRequests / 8);
        }

        @Override
        public void accept(long rawKey) {
            // Refused here, in words: an IllegalStateException (the map's, or this one's) came out of ./bench sim as a
            // stack trace naming neither the file nor the line.
            if (size == limits.requests()) {
                if (limits.startOnly()) {
                    throw new StartRead();
                }
                throw new TooLargeException(String.format(Locale.ROOT, "more than %,d requests, the most one trace may"
                    + " hold (the simulator keeps a trace in memory, an int per request): split the trace", size));
            }
            if (ids.size() == limits.distinctKeys() && ids.get(rawKey) < 0) {
                throw new TooLargeException(String.format(Locale.ROOT, "more than %,d distinct keys, the most one trace"
                    + " may hold: split the trace", ids.size()));
            }
            if (size == keys.length) {
                keys = Arrays.copyOf(keys, (int) Math.min(limits.requests(), size * 2L));
            }
            keys[size++] = ids.idOf(rawKey);
        }

        int requests() {
            return size;
        }

        Trace build() {
            return new Trace(name, format, Arrays.copyOf(keys, size), ids.size());
        }
    }
}
