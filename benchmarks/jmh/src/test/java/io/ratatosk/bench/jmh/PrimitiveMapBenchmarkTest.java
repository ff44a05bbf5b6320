package io.ratatosk.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;

/**
 * Both sides of {@link PrimitiveMapBenchmark} do the same work: step for step, our map and agrona's give the same
 * answers, on a smaller cache than the benchmark's so that the test is quick, and across the wrap of the fault
 * cycle, where stale ghosts and remembered keys of the previous cycle turn up.
 */
class PrimitiveMapBenchmarkTest {
    private static final int FRAMES = 1 << 12;
    private static final int STEPS = PrimitiveMapBenchmark.FaultStream.LENGTH + 100_000;

    /** Each step's answer, in order, folded into one number, and how many steps answered 1. */
    private record Answers(long fold, int ones) {
        static Answers of(IntSupplier step, int steps) {
            long fold = 0;
            int ones = 0;
            for (int i = 0; i < steps; i++) {
                int a = step.getAsInt();
                fold = fold * 31 + a;
                ones += a;
            }
            return new Answers(fold, ones);
        }
    }

    @Test
    void theExactHistoryBoostsTheSameFaultsOnBothSides() {
        Answers[] sides = new Answers[2];
        for (int s = 0; s < 2; s++) {
            PrimitiveMapBenchmark.ExactHistory history = new PrimitiveMapBenchmark.ExactHistory();
            history.open(s == 0, FRAMES, 1);
            sides[s] = Answers.of(history::step, STEPS);
        }
        assertEquals(sides[0], sides[1]);
        // uniform over 4x the frames: 3 non-resident pages per frame, the history remembers 1 of them
        double boosted = (double) sides[0].ones() / STEPS;
        assertTrue(boosted > 0.25 && boosted < 0.4, "boosted share " + boosted);
    }

    @Test
    void theGhostsFindTheSameRefaultsOnBothSides() {
        Answers[] sides = new Answers[2];
        for (int s = 0; s < 2; s++) {
            PrimitiveMapBenchmark.Ghosts ghosts = new PrimitiveMapBenchmark.Ghosts();
            ghosts.open(s == 0, FRAMES, 1);
            sides[s] = Answers.of(ghosts::step, STEPS);
        }
        assertEquals(sides[0], sides[1]);
        // 2 ghosts per frame cover 2 of the 3 non-resident pages per frame
        double refaults = (double) sides[0].ones() / STEPS;
        assertTrue(refaults > 0.55 && refaults < 0.75, "refault share " + refaults);
    }

    @Test
    void theShadowClockHitsTheSameReferencesOnBothSides() {
        Answers[] sides = new Answers[2];
        for (int s = 0; s < 2; s++) {
            PrimitiveMapBenchmark.Shadow shadow = new PrimitiveMapBenchmark.Shadow();
            shadow.open(s == 0, PrimitiveMapBenchmark.FRAMES, 1);
            sides[s] = Answers.of(shadow::step, STEPS);
        }
        assertEquals(sides[0], sides[1]);
        double hits = (double) sides[0].ones() / STEPS;
        assertTrue(hits > 0.5 && hits < 0.95, "Zipf over 4x the shadow's pages mostly hits, not always: " + hits);
    }

    @Test
    void theTraceGetsTheSameDenseIdsOnBothSides() {
        int[] answers = new int[2];
        for (int s = 0; s < 2; s++) {
            PrimitiveMapBenchmark.TraceRequests trace = new PrimitiveMapBenchmark.TraceRequests();
            trace.open(s == 0, PrimitiveMapBenchmark.TRACE_KEYS, 1);
            answers[s] = trace.read();
            assertEquals(answers[s], trace.read(), "each read starts from a fresh map");
        }
        assertEquals(answers[0], answers[1]);
        assertTrue(answers[0] > PrimitiveMapBenchmark.TRACE_KEYS / 4, "distinct keys and the last id: " + answers[0]);
    }
}
