package io.ratatosk.policies.tinylfu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.PageKey;
import org.junit.jupiter.api.Test;

class FrequencySketchTest {
    private static long hash(long page) {
        return PageKey.hash(PageKey.of(0, page));
    }

    @Test
    void countsEachUseUpToFifteen() {
        FrequencySketch sketch = new FrequencySketch(1024, 1_000_000);
        for (int i = 1; i <= 20; i++) {
            sketch.increment(hash(1));
            assertEquals(Math.min(i, 15), sketch.frequency(hash(1)));
        }
        assertEquals(0, sketch.frequency(hash(2)), "a page never counted reads 0 in a sparse table");
    }

    @Test
    void halvesEveryCounterAfterTheSamplePeriod() {
        FrequencySketch sketch = new FrequencySketch(1024, 10);
        for (int i = 0; i < 9; i++) {
            sketch.increment(hash(1));
        }
        assertFalse(sketch.ageIfDue(), "9 increments are short of the period");
        sketch.increment(hash(1));
        assertTrue(sketch.ageIfDue());
        assertEquals(5, sketch.frequency(hash(1)));
    }

    @Test
    void refusesAnEmptyTableOrPeriod() {
        assertThrows(IllegalArgumentException.class, () -> new FrequencySketch(0, 10));
        assertThrows(IllegalArgumentException.class, () -> new FrequencySketch(10, 0));
    }
}
