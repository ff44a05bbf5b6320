package io.ratatosk.bench.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LongIntHashMapTest {
    @Test
    void assignsDenseIdsInFirstSeenOrderIncludingZeroAndExtremeKeys() {
        LongIntHashMap map = new LongIntHashMap(4);
        long[] keys = {0, -1, Long.MIN_VALUE, Long.MAX_VALUE, 42};
        for (int i = 0; i < keys.length; i++) {
            assertEquals(i, map.idOf(keys[i]));
        }
        for (int i = 0; i < keys.length; i++) {
            assertEquals(i, map.idOf(keys[i]), "second lookup of " + keys[i]);
            assertEquals(i, map.get(keys[i]));
        }
        assertEquals(-1, map.get(7));
        assertEquals(keys.length, map.size());
    }

    @Test
    void keepsEveryMappingAcrossManyGrowths() {
        LongIntHashMap map = new LongIntHashMap(1);
        Map<Long, Integer> expected = new HashMap<>();
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 200_000; i++) {
            long key = random.nextLong() >>> random.nextInt(64); // dense and sparse keys alike
            int id = map.idOf(key);
            Integer previous = expected.putIfAbsent(key, id);
            assertEquals(previous == null ? expected.size() - 1 : previous, id);
        }
        expected.forEach((k, v) -> assertEquals(v, map.get(k)));
        assertEquals(expected.size(), map.size());
    }

    /**
     * The cells for an expected size past 2^29 are the largest table, 2^30: the doubling overflowed an int, giving
     * -2^31 (a map built so failed with NegativeArraySizeException) and, past 2^30, 0 (a table of no cells).
     */
    @Test
    void capacityForLargeExpectedSizesIsTheLargestTable() {
        assertEquals(32, LongIntHashMap.capacityFor(0));
        assertEquals(1 << 30, LongIntHashMap.capacityFor(1 << 29));
        assertEquals(1 << 30, LongIntHashMap.capacityFor((1 << 29) + 1));
        assertEquals(1 << 30, LongIntHashMap.capacityFor((1 << 30) + 1));
        assertEquals(1 << 30, LongIntHashMap.capacityFor(Integer.MAX_VALUE));
    }
}
