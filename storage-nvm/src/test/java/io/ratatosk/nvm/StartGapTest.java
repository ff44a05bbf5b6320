package io.ratatosk.nvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

class StartGapTest {
    @Test
    void mappingIsABijectionOntoEveryPhysicalSlotButTheGapAfterEveryMove() {
        for (int n : new int[] {1, 2, 5, 16}) {
            StartGap sg = new StartGap(n);
            for (int move = 0; move < 3 * (n + 1) + 2; move++) {
                boolean[] used = new boolean[n + 1];
                for (int l = 0; l < n; l++) {
                    int p = sg.toPhysical(l);
                    assertNotEquals(sg.gap(), p, "logical " + l + " mapped onto the gap");
                    assertEquals(false, used[p], "two logical slots on physical " + p);
                    used[p] = true;
                    assertEquals(l, sg.toLogical(p));
                }
                assertEquals(-1, sg.toLogical(sg.gap()));
                int source = sg.moveSource();
                int target = sg.moveTarget();
                int moved = sg.toLogical(source);
                int[] before = new int[n];
                for (int l = 0; l < n; l++) {
                    before[l] = sg.toPhysical(l);
                }
                sg.commitMove();
                for (int l = 0; l < n; l++) {
                    // a move relocates exactly one logical slot, from the source into the old gap
                    assertEquals(l == moved ? target : before[l], sg.toPhysical(l), "n=" + n + " logical " + l);
                }
            }
        }
    }

    @Test
    void afterNPlusOneMovesEveryLogicalSlotHasShiftedByOne() {
        int n = 7;
        StartGap sg = new StartGap(n);
        for (int i = 0; i < n + 1; i++) {
            sg.commitMove();
        }
        assertEquals(1, sg.start());
        assertEquals(n, sg.gap());
        for (int l = 0; l < n; l++) {
            assertEquals((l + 1) % n, sg.toPhysical(l));
        }
    }
}
