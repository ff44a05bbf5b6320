package io.ratatosk.bench.sim;

import io.ratatosk.bench.jmh.PrimitiveMaps.TraceIds;

/**
 * The benchmarks' access to the package-private {@link LongIntHashMap}, sized as {@link Trace}'s builder sizes
 * it; it lives in the simulator's package (in the benchmark module) for that access alone.
 */
public final class LongIntHashMapAccess implements TraceIds {
    private final LongIntHashMap map;

    /** The map of a trace builder expecting {@code expectedRequests} requests. */
    public LongIntHashMapAccess(int expectedRequests) {
        map = new LongIntHashMap(expectedKeys(expectedRequests));
    }

    /** The distinct keys the builder sizes its map for. */
    public static int expectedKeys(int expectedRequests) {
        return Trace.Builder.expectedKeys(expectedRequests);
    }

    /** The cells of a map sized for {@code expectedKeys}. */
    public static int cells(int expectedKeys) {
        return LongIntHashMap.capacityFor(expectedKeys);
    }

    @Override
    public int idOf(long key) {
        return map.idOf(key);
    }

    @Override
    public int size() {
        return map.size();
    }
}
