package io.ratatosk.policies.clockpro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The ghost index against a map: lookups, adds and removes in random order, with {@code slotOfOrAdd} beside {@code slotOf} and {@code add}. */
class GhostIndexTest {
    @Test
    void slotOfOrAddFindsWhatIsThereAndAddsWhatIsNot() {
        GhostIndex index = new GhostIndex(3);
        int a = index.slotOfOrAdd(10);
        assertTrue(a < 0, "a new key is added");
        assertEquals(~a, index.slotOf(10));
        assertEquals(~a, index.slotOfOrAdd(10), "a present key is found, not added again");
        assertEquals(1, index.size());
    }

    @Test
    void randomOperationsAgreeWithAMap() {
        for (long seed = 0; seed < 20; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            int capacity = 1 + random.nextInt(200);
            GhostIndex index = new GhostIndex(capacity);
            Map<Long, Integer> model = new HashMap<>();
            List<Long> present = new ArrayList<>();
            for (int step = 0; step < 20_000; step++) {
                // Few distinct keys, so lookups often hit and the probe runs are long and often cut by removals.
                long key = random.nextInt(4 * capacity) * 0x9E3779B97F4A7C15L;
                int op = random.nextInt(3);
                if (op == 0) {
                    assertEquals(model.getOrDefault(key, GhostIndex.NONE), index.slotOf(key), "seed " + seed);
                } else if (op == 1 && !index.overCapacity() && model.size() < capacity) {
                    int slot = random.nextBoolean() ? index.slotOfOrAdd(key) : addIfAbsent(index, key);
                    if (model.containsKey(key)) {
                        assertEquals((int) model.get(key), slot, "seed " + seed);
                    } else {
                        assertTrue(slot < 0, "seed " + seed);
                        model.put(key, ~slot);
                        present.add(key);
                    }
                } else if (!present.isEmpty()) {
                    long gone = present.remove(random.nextInt(present.size()));
                    index.remove(model.remove(gone));
                }
            }
            index.checkInvariants("seed " + seed);
            assertEquals(model.size(), index.size());
            model.forEach((key, slot) -> assertEquals((int) slot, index.slotOf(key)));
        }
    }

    @Test
    void aFullIndexRefusesANewKeyButStillFindsItsOwn() {
        GhostIndex index = new GhostIndex(1);
        index.slotOfOrAdd(1);
        index.slotOfOrAdd(2); // the one slot beyond the capacity, which the owner trims at once
        assertThrows(IllegalStateException.class, () -> index.slotOfOrAdd(3));
        assertTrue(index.slotOfOrAdd(2) >= 0);
    }

    @Test
    void removingASlotThatHoldsNoGhostIsRefusedAndChangesNothing() {
        GhostIndex index = new GhostIndex(4);
        int slot = ~index.slotOfOrAdd(7);
        index.remove(slot);
        assertThrows(IllegalStateException.class, () -> index.remove(slot), "removed already");
        int other = ~index.slotOfOrAdd(8);
        assertThrows(IllegalStateException.class, () -> index.remove(other + 1), "never used");
        assertEquals(other, index.slotOf(8));
        index.checkInvariants("after the refusals");
    }

    /** slotOf then add, the two-probe way, encoded as slotOfOrAdd answers. */
    private static int addIfAbsent(GhostIndex index, long key) {
        int slot = index.slotOf(key);
        return slot != GhostIndex.NONE ? slot : ~index.add(key);
    }
}
