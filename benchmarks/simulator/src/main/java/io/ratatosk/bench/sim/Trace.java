package io.ratatosk.bench.sim;

import java.util.Arrays;

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

    /** Collects raw keys as a reader produces them and remaps them to dense ids. */
    public static final class Builder implements KeySink {
        private final String name;
        private final String format;
        private final LongIntHashMap ids;
        private int[] keys;
        private int size;

        Builder(String name, String format, int expectedRequests) {
            this.name = name;
            this.format = format;
            this.keys = new int[Math.max(1024, expectedRequests)];
            this.ids = new LongIntHashMap(expectedKeys(expectedRequests));
        }

        /** The distinct keys the id map is sized for: one per 8 requests, at least 1024. */
        public static int expectedKeys(int expectedRequests) {
            return Math.max(1024, expectedRequests / 8);
        }

        @Override
        public void accept(long rawKey) {
            if (size == keys.length) {
                if (size == Integer.MAX_VALUE - 8) {
                    throw new IllegalStateException("trace " + name + " has more than " + size + " requests");
                }
                keys = Arrays.copyOf(keys, (int) Math.min(Integer.MAX_VALUE - 8, size * 2L));
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
