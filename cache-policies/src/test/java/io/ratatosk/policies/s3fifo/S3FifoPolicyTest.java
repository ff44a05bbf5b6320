package io.ratatosk.policies.s3fifo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.PageKey;
import io.ratatosk.policies.PolicyDriver;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Hand-made traces that pin S3-FIFO's semantics. With 10 frames the small FIFO holds 1 page
 * (10%) and the main FIFO 9; the ghost FIFO remembers 9 pages.
 */
class S3FifoPolicyTest {
    private static PolicyDriver s3fifo(int frames) {
        return PolicyDriver.of(frames, S3FifoPolicy.NAME, Map.of());
    }

    private static S3FifoPolicy policy(PolicyDriver driver) {
        return (S3FifoPolicy) driver.policy;
    }

    @Test
    void pageUsedOnceLeavesFromTheSmallFifoAndIsRemembered() {
        try (PolicyDriver driver = s3fifo(10)) {
            driver.access(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
            assertEquals(List.of(1L), driver.evicted(), "the oldest page, never hit, goes first");
            assertTrue(policy(driver).hasGhost(PageKey.of(0, 1)));
            driver.policy.checkInvariants();
        }
    }

    @Test
    void rememberedPageComesBackIntoTheMainFifo() {
        try (PolicyDriver driver = s3fifo(10)) {
            driver.access(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
            int mainBefore = policy(driver).queueSizes()[1];
            driver.access(1);
            assertEquals(mainBefore + 1, policy(driver).queueSizes()[1], "a ghost's re-fault enters the main FIFO");
            driver.policy.checkInvariants();
        }
    }

    @Test
    void pageHitTwiceInTheSmallFifoMovesToMainInsteadOfBeingEvicted() {
        try (PolicyDriver driver = s3fifo(10)) {
            driver.access(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 1, 11);
            assertTrue(driver.isResident(1), "page 1 was hit twice in the small FIFO");
            assertFalse(driver.isResident(2));
            assertFalse(policy(driver).hasGhost(PageKey.of(0, 1)));
            driver.policy.checkInvariants();
        }
    }

    @Test
    void oneHitInTheSmallFifoIsNotEnoughUnlessTheThresholdIsOne() {
        try (PolicyDriver driver = s3fifo(10)) {
            driver.access(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 11);
            assertFalse(driver.isResident(1), "one hit, the authors' threshold is two");
            assertTrue(policy(driver).hasGhost(PageKey.of(0, 1)));
        }
        try (PolicyDriver driver = PolicyDriver.of(10, S3FifoPolicy.NAME, Map.of("pagecache.s3fifo.move_threshold", "1"))) {
            driver.access(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 11);
            assertTrue(driver.isResident(1), "one hit moves it at move_threshold=1");
            assertFalse(driver.isResident(2));
        }
    }

    @Test
    void aGhostThatIsHitIsForgotten() {
        try (PolicyDriver driver = s3fifo(10)) {
            driver.access(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
            assertTrue(policy(driver).hasGhost(PageKey.of(0, 1)));
            driver.access(1);
            assertFalse(policy(driver).hasGhost(PageKey.of(0, 1)), "back in the main FIFO, no longer a ghost");
            driver.policy.checkInvariants();
        }
    }

    @Test
    void aLoopSlightlyLargerThanTheCacheKeepsMostOfIt() {
        // The authors' S3-FIFO (and Caffeine's simulator's) keeps 89.6% of LIRS's loop trace at 1000 entries (1011
        // pages): pages that come back as ghosts settle in the main FIFO, whose frequencies keep them. A ghost kept
        // after its page returned held a place in the ghost FIFO that a later page needed, and got 10.8%.
        try (PolicyDriver driver = s3fifo(100)) {
            for (int pass = 0; pass < 50; pass++) {
                for (long page = 0; page < 101; page++) {
                    driver.request(page);
                }
            }
            assertTrue(driver.hits() > 0.8 * 49 * 101, "hits: " + driver.hits());
            driver.policy.checkInvariants();
        }
    }

    @Test
    void mainFifoGivesAPageWithAFrequencyAnotherRoundOneCountLower() {
        try (PolicyDriver driver = PolicyDriver.of(4, S3FifoPolicy.NAME,
                Map.of("pagecache.s3fifo.small", "1", "pagecache.s3fifo.move_threshold", "1"))) {
            // 1, 2, 3 are hit in the small FIFO and move to main when 5 needs a frame; 4 was not and leaves.
            driver.access(1, 2, 3, 4, 1, 2, 3, 5);
            assertEquals(List.of(4L), driver.evicted());
            assertArrayEquals(new int[] {1, 3}, policy(driver).queueSizes());
            driver.access(1, 1);
            assertEquals(2, driver.policyWord(1) & S3FifoPolicy.FREQUENCY);
            // 4 is remembered: it enters main, and 5 leaves the small FIFO, which is now empty. Then 5,
            // remembered too, needs a frame from main: 1 goes round one count lower, 2 leaves.
            driver.access(4, 5);
            assertEquals(List.of(4L, 5L, 2L), driver.evicted());
            assertEquals(1, driver.policyWord(1) & S3FifoPolicy.FREQUENCY);
            driver.policy.checkInvariants();
        }
    }

    /** A small FIFO of pinned pages (threads holding them) must not hide the main FIFO's victims. */
    @Test
    void aSmallFifoOfPinnedPagesStillLetsTheMainFifoGiveAVictim() {
        try (PolicyDriver driver = PolicyDriver.of(10, S3FifoPolicy.NAME, Map.of("pagecache.s3fifo.move_threshold", "1"))) {
            // 1..9 hit once each move to main when 10 and 11 need frames; 10, 11 then sit in the small FIFO
            driver.access(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12);
            int[] sizes = policy(driver).queueSizes();
            assertTrue(sizes[0] > 0 && sizes[1] > 0, "both FIFOs hold pages: " + sizes[0] + ", " + sizes[1]);
            List<Integer> pinned = new java.util.ArrayList<>();
            for (long page = 1; page <= 12; page++) {
                int frame = driver.isResident(page) ? driver.frameOf(page) : -1;
                if (frame >= 0 && policy(driver).isInSmallFifo(frame)) {
                    assertTrue(driver.frames.tryWriteLock(frame));
                    pinned.add(frame);
                }
            }
            assertEquals(sizes[0], pinned.size(), "every page of the small FIFO is pinned");
            int victim = driver.policy.nextVictim(null);
            assertTrue(victim >= 0 && !pinned.contains(victim), "a main-FIFO page is the victim, not 'none': " + victim);
            pinned.forEach(driver.frames::unlockWrite);
        }
    }

    @Test
    void frequencyStopsAtThree() {
        try (PolicyDriver driver = s3fifo(10)) {
            driver.access(1, 1, 1, 1, 1, 1);
            assertEquals(3, driver.policyWord(1) & S3FifoPolicy.FREQUENCY);
        }
    }

    /**
     * A stream of new pages, each read a second time {@code minGap} to 100 new pages later, then {@code usesInMain} more
     * times at once; between two new pages, with probability {@code hotShare}, a read of one of 60 hot pages (0..59).
     * At 100 frames a page leaves the small FIFO (10) a few new pages after it came, and is remembered for as many
     * small-FIFO evictions as the ghost FIFO holds (90 at most): a second read within that comes back through a ghost
     * into the main FIFO.
     */
    private static final class ReadTwiceStream {
        private final PolicyDriver driver;
        private final SplittableRandom random = new SplittableRandom(11);
        private final PriorityQueue<long[]> due = new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0]));
        private long newPages;

        ReadTwiceStream(PolicyDriver driver) {
            this.driver = driver;
        }

        void run(int count, int minGap, int usesInMain, double hotShare) {
            for (int i = 0; i < count; i++) {
                long page = 1_000 + newPages++;
                driver.request(page);
                due.add(new long[] {newPages + minGap + random.nextInt(101 - minGap), page});
                while (!due.isEmpty() && due.peek()[0] <= newPages) {
                    long back = due.poll()[1];
                    for (int use = 0; use <= usesInMain; use++) {
                        driver.request(back);
                    }
                }
                if (random.nextDouble() < hotShare) {
                    driver.request(random.nextInt(60));
                }
            }
        }
    }

    private static PolicyDriver adaptive(int frames, boolean adaptiveGhosts) {
        return PolicyDriver.of(frames, S3FifoPolicy.NAME, Map.of("pagecache.s3fifo.adaptive_ghosts", Boolean.toString(adaptiveGhosts)));
    }

    @Test
    void adaptiveGhostsShortenWhileThePagesTheyBringBackGoUnusedAndGrowOnceTheyAreUsed() {
        try (PolicyDriver driver = adaptive(100, true)) {
            int capacity = policy(driver).ghostLimit();
            assertEquals(90, capacity, "0.9 ghosts a frame");
            ReadTwiceStream stream = new ReadTwiceStream(driver);
            stream.run(5_000, 11, 0, 0);
            int shortened = policy(driver).ghostLimit();
            // every page a ghost sent to main left it unused; the shorter the FIFO, the fewer second reads find a ghost
            assertTrue(shortened >= capacity / 20 && shortened <= capacity / 5, "ghosts kept: " + shortened);
            driver.policy.checkInvariants();
            stream.run(5_000, 5, 2, 0);
            assertEquals(capacity, policy(driver).ghostLimit(), "every page a ghost sent to main was used there");
            driver.policy.checkInvariants();
        }
    }

    @Test
    void withoutAdaptiveGhostsTheGhostFifoKeepsItsLengthAndThePolicyWordItsFrequencyAlone() {
        try (PolicyDriver driver = adaptive(100, false)) {
            new ReadTwiceStream(driver).run(5_000, 11, 0, 0);
            assertEquals(90, policy(driver).ghostLimit());
            driver.policy.checkInvariants();
            for (long page = 0; page < 7_000; page++) {
                if (driver.isResident(page)) {
                    assertEquals(0, driver.policyWord(page) & ~S3FifoPolicy.FREQUENCY, "page " + page);
                }
            }
        }
    }

    /** Hot pages beside pages read twice: shorter ghosts keep the second reads out of the main FIFO, and the hot pages in. */
    @Test
    void adaptiveGhostsKeepTheHotPagesThatPagesReadTwiceWouldPushOut() {
        long[] hits = new long[2];
        for (int adaptive = 0; adaptive < 2; adaptive++) {
            try (PolicyDriver driver = adaptive(100, adaptive == 1)) {
                new ReadTwiceStream(driver).run(20_000, 11, 0, 0.5);
                hits[adaptive] = driver.hits();
                driver.policy.checkInvariants();
            }
        }
        assertTrue(hits[1] > 1.5 * hits[0], "adaptive " + hits[1] + " against full " + hits[0]); // 8,618 against 4,071
    }

    @Test
    void randomTraceKeepsTheQueuesConsistent() {
        try (PolicyDriver driver = s3fifo(50)) {
            SplittableRandom random = new SplittableRandom(7);
            for (int i = 0; i < 20_000; i++) {
                driver.request(random.nextInt(random.nextBoolean() ? 60 : 400));
            }
            driver.policy.checkInvariants();
            int[] sizes = policy(driver).queueSizes();
            assertEquals(50, sizes[0] + sizes[1]);
            assertArrayEquals(new int[] {50}, new int[] {sizes[0] + sizes[1]});
        }
    }
}
