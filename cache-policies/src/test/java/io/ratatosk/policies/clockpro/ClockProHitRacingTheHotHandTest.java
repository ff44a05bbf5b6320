package io.ratatosk.policies.clockpro;

import static io.ratatosk.policies.clockpro.ClockProBits.HOT;
import static io.ratatosk.policies.clockpro.ClockProBits.REFERENCED;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.Sweep;
import io.ratatosk.core.Waits;
import io.ratatosk.policies.PolicyRegistry;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Hits racing the hands' changes of a page's state: a hit the hand did not see must not be lost. Each round sets up
 * 4 frames (pages 0 and 1 hot, 2 and 3 cold in their test period) and runs one victim search, while another thread
 * hits a page at a moment drawn at random; then it checks the page's word. A race, so a round shows a lost hit only
 * now and then; thousands of rounds show one at once (the first few dozen, before the JIT compiles the hand).
 */
class ClockProHitRacingTheHotHandTest {
    private static final int ROUNDS = 20_000;
    private static final List<String> POLICIES = List.of(ClockProPolicy.NAME, ClockProPlusPolicy.NAME);

    /**
     * Cold pages 2 and 3 pinned: the cold hand passes them and the hot hand runs once, reaching page 0 first, demoting
     * it if unreferenced, and never coming back to it. Wherever the hit on 0 lands, 0 ends hot (the hand saw the bit
     * and spared it) or referenced (the hit came after the demotion, or between the hand's look and its change); a cold
     * page without its bit is a hit lost.
     */
    @Test
    void aHitRacingTheHotHandsDemotionKeepsItsReferenceBit() throws Exception {
        for (String policy : POLICIES) {
            race(policy, (frames, clock) -> {
                frames.tryWriteLock(2);
                frames.tryWriteLock(3);
            }, 0, false);
        }
    }

    /**
     * Page 2 referenced in its test period: the cold hand clears its bit, the hot hand demotes page 0 to make room,
     * and 2 moves to the list head hot. A hit that finds 2's bit clear came after the cold hand cleared it, a hit the
     * hand never saw: 2 must end referenced.
     */
    @Test
    void aHitWhileTheHotHandMakesRoomForAPromotionKeepsItsReferenceBit() throws Exception {
        for (String policy : POLICIES) {
            race(policy, (frames, clock) -> clock.onHit(2), 2, true);
        }
    }

    @FunctionalInterface
    private interface Setup {
        void apply(FrameTable frames, EvictionPolicy clock);
    }

    /**
     * Rounds of {@code setup}, a victim search and a hit on {@code page}; with {@code onlyClearBit}, the hitter hits
     * only if it finds the bit clear, and the page must end referenced; else it must end hot or referenced.
     */
    private static void race(String policy, Setup setup, int page, boolean onlyClearBit) throws Exception {
        AtomicReference<Round> current = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicBoolean stop = new AtomicBoolean();
        Thread hitter = new Thread(() -> {
            SplittableRandom random = new SplittableRandom(1);
            try {
                for (int round = 0; round < ROUNDS; round++) {
                    Round r;
                    for (int looks = 0; (r = current.get()) == null || r.number != round; looks++) {
                        if (stop.get()) {
                            return;
                        }
                        pause(looks);
                    }
                    spin(random.nextInt(64));
                    if (!onlyClearBit || (r.frames.policyWord(page) & REFERENCED) == 0) {
                        r.clock.onHit(page);
                        r.newHit = true;
                    }
                    r.done = true;
                }
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
            }
        }, "hitter");
        hitter.setDaemon(true); // a hitter left spinning fails the test below, and must not keep the JVM alive
        hitter.start();
        SplittableRandom random = new SplittableRandom(2);
        Sweep sweep = Sweep.cooperative(1);
        try {
            for (int round = 0; round < ROUNDS && failure.get() == null; round++) {
                try (FrameTable frames = new FrameTable(4)) {
                    EvictionPolicy clock = PolicyRegistry.create(policy, frames,
                        PolicyRegistry.parse(Map.of("pagecache.clockpro.adaptive", "false")));
                    for (int frame = 0; frame < 4; frame++) {
                        ClockFrames.bind(frames, clock, frame, PageKey.of(0, frame));
                    }
                    setup.apply(frames, clock);
                    Round r = new Round(round, frames, clock);
                    current.set(r);
                    spin(random.nextInt(64));
                    sweep.begin();
                    clock.nextVictim(sweep);
                    long deadline = System.nanoTime() + Waits.BOUND_SECONDS * 1_000_000_000L;
                    for (int looks = 0; !r.done && failure.get() == null; looks++) {
                        if (System.nanoTime() - deadline > 0) {
                            throw new AssertionError(policy + ": the hitter did not hit in round " + round
                                + " within " + Waits.BOUND_SECONDS + " s (ratatosk.test.wait_s)");
                        }
                        pause(looks);
                    }
                    if (!r.done) {
                        break; // the hitter failed: its failure, asserted below, is the test's, not a hit it never made
                    }
                    long word = frames.policyWord(page);
                    boolean lost = onlyClearBit ? r.newHit && (word & REFERENCED) == 0 : (word & (HOT | REFERENCED)) == 0;
                    if (lost) {
                        throw new AssertionError(policy + ", round " + round + ": page " + page + ", hit while a hand changed it, is "
                            + ClockProBits.toString(word) + ": the hit was lost");
                    }
                }
            }
        } finally {
            stop.set(true);
            Waits.join(hitter, policy + ": the hitter");
        }
        assertNull(failure.get(), () -> policy + ": " + failure.get());
    }

    /** Spins a while, then yields the core: on a loaded 2-core machine the other thread may be waiting for it. */
    private static void pause(int looks) {
        if (looks < 1_000) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
    }

    private static void spin(int times) {
        for (int i = 0; i < times; i++) {
            Thread.onSpinWait();
        }
    }

    private static final class Round {
        final int number;
        final FrameTable frames;
        final EvictionPolicy clock;
        volatile boolean newHit;
        volatile boolean done;

        Round(int number, FrameTable frames, EvictionPolicy clock) {
            this.number = number;
            this.frames = frames;
            this.clock = clock;
        }
    }
}
