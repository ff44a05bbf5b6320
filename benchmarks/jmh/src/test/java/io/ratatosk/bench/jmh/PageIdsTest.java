package io.ratatosk.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PageIdsTest {
    @Test
    void theSameDistributionPagesAndSeedGiveTheSameSequence() {
        for (String d : new String[] {PageIds.UNIFORM, PageIds.ZIPF}) {
            PageIds a = PageIds.of(d, 1000, 3);
            PageIds b = PageIds.of(d, 1000, 3);
            for (int i = 0; i < PageIds.LENGTH; i += 997) {
                assertEquals(a.at(i), b.at(i), d + " at " + i);
            }
        }
    }

    @Test
    void threadsGetDifferentSequences() {
        PageIds a = PageIds.uniform(1000, 0);
        PageIds b = PageIds.uniform(1000, 1);
        int same = 0;
        for (int i = 0; i < 1000; i++) {
            same += a.at(i) == b.at(i) ? 1 : 0;
        }
        assertTrue(same < 20, "sequences of two threads overlap in " + same + " of 1000 places");
    }

    @Test
    void idsStayInsideTheFileAndTheCycleWraps() {
        PageIds ids = PageIds.zipf(37, PageIds.ZIPF_EXPONENT, 5);
        long first = ids.next();
        for (int i = 1; i < PageIds.LENGTH; i++) {
            long id = ids.next();
            assertTrue(id >= 0 && id < 37, "id " + id);
        }
        assertEquals(first, ids.next(), "after LENGTH ids the cycle starts again");
    }

    @Test
    void zipfIsSkewedAndItsHotPagesAreSpreadOut() {
        int pages = 10_000;
        PageIds ids = PageIds.zipf(pages, PageIds.ZIPF_EXPONENT, 1);
        int[] counts = new int[pages];
        for (int i = 0; i < PageIds.LENGTH; i++) {
            counts[ids.at(i)]++;
        }
        int hottest = 0;
        for (int p = 1; p < pages; p++) {
            if (counts[p] > counts[hottest]) {
                hottest = p;
            }
        }
        // rank 1 of Zipf(0.99) over 10 000 pages draws about 1/H = 10% of the ids
        assertTrue(counts[hottest] > PageIds.LENGTH / 20, "hottest page drew " + counts[hottest]);
        assertNotEquals(0, hottest, "ranks are scattered over the file, not rank 1 at page 0");
    }
}
