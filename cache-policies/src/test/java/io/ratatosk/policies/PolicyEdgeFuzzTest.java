package io.ratatosk.policies;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.Sweep;
import io.ratatosk.core.Waits;
import io.ratatosk.core.config.FlagValueException;
import io.ratatosk.core.config.FlagValues;
import io.ratatosk.policies.replay.PolicyReplay;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every policy, at tiny frame counts and with each of its flags at values near its limits, driven through the
 * sequences the page cache can produce under races: hits on frames being evicted or already unbound, pages dropped
 * without being chosen (unmap, truncate, a failed fault), victims asked for with every frame pinned or all but one.
 * A victim must be evictable, a choice must end (a victim or NO_VICTIM) and find the one evictable frame within a
 * bounded number of calls, and the policy's own invariants must hold after every step.
 */
class PolicyEdgeFuzzTest {
    private static final int[] FRAME_COUNTS = {1, 2, 3, 4, 8};
    /** Candidate values tried for every flag; those its flag or the rules refuse are skipped. */
    private static final List<String> CANDIDATES = List.of("0", "0.0001", "0.1", "0.5", "1", "1.0", "2", "3", "4",
        "7", "16", "64", "100", "1000", "true", "false");
    /** Calls of nextVictim that may pass without a victim while some frame is evictable (the cache allows 10 s). */
    private static final int MAX_FRUITLESS_CALLS = 2_000;

    static Stream<Arguments> configurations() {
        List<Arguments> all = new ArrayList<>();
        for (PolicyEntry entry : PolicyRegistry.ENTRIES) {
            List<Map<String, String>> variants = new ArrayList<>();
            variants.add(Map.of());
            for (PolicyEntry.ReadFlag read : entry.flags()) {
                for (String value : CANDIDATES) {
                    variants.add(Map.of(read.flag().name(), value));
                }
            }
            for (Map<String, String> flags : variants) {
                if (acceptedAtSomeFrameCount(entry.name(), flags)) {
                    all.add(Arguments.of(entry.name(), flags));
                }
            }
        }
        return all.stream();
    }

    /**
     * Whether the policy can be made with {@code flags} at one of {@link #FRAME_COUNTS} at least. A variant its flag or
     * the rules refuse at every one runs nothing (more than half of them: "true" for a number, "0.5" for a count), and
     * was listed all the same as a test that passed, twice, making and closing a frame table for each of its runs.
     */
    private static boolean acceptedAtSomeFrameCount(String policyName, Map<String, String> flags) {
        for (int frameCount : FRAME_COUNTS) {
            try (FrameTable frames = new FrameTable(frameCount)) {
                PolicyRegistry.create(policyName, frames, PolicyRegistry.parse(flags));
                return true;
            } catch (FlagValueException refused) {
                // refused at this frame count: try the next
            }
        }
        return false;
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("configurations")
    void survivesRacySequencesAtTinyFrameCounts(String policyName, Map<String, String> flags) {
        assertTimeoutPreemptively(Duration.ofSeconds(Waits.BOUND_SECONDS), () -> {
            for (int frameCount : FRAME_COUNTS) {
                for (long seed = 1; seed <= 3; seed++) {
                    run(policyName, flags, frameCount, seed);
                }
            }
        });
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("configurations")
    void replaysAtTinyFrameCountsAsTheSimulatorDoes(String policyName, Map<String, String> flags) {
        assertTimeoutPreemptively(Duration.ofSeconds(Waits.BOUND_SECONDS), () -> {
            for (int frameCount : FRAME_COUNTS) {
                FlagValues values;
                try (FrameTable probe = new FrameTable(frameCount)) {
                    values = PolicyRegistry.parse(flags);
                    PolicyRegistry.create(policyName, probe, values);
                } catch (FlagValueException refused) {
                    continue; // a value its flag or a rule refuses at this frame count
                }
                SplittableRandom random = new SplittableRandom(frameCount);
                try (PolicyReplay replay = new PolicyReplay(frameCount, frames -> PolicyRegistry.create(policyName, frames, values))) {
                    for (int i = 0; i < 5_000; i++) {
                        // a hot set a little larger than the frames, and a scan now and then
                        int page = random.nextInt(4) == 0 ? random.nextInt(1_000) : random.nextInt(frameCount + 2);
                        replay.access(page, random.nextInt(5) == 0);
                    }
                    replay.verify();
                }
            }
        });
    }

    private static void run(String policyName, Map<String, String> flags, int frameCount, long seed) {
        FrameTable frames = new FrameTable(frameCount);
        try {
            EvictionPolicy policy;
            try {
                policy = PolicyRegistry.create(policyName, frames, PolicyRegistry.parse(flags));
            } catch (FlagValueException refused) {
                return; // a value its flag or a rule refuses at this frame count
            }
            String what = policyName + " " + flags + " on " + frameCount + " frames, seed " + seed;
            try {
                new Driver(what, frames, policy, new SplittableRandom(seed)).run(3_000);
            } catch (RuntimeException e) {
                throw new AssertionError(what + ": " + e, e);
            }
        } finally {
            frames.close();
        }
    }

    /** One single-threaded run, keeping the binding of every frame and which page is where. */
    private static final class Driver {
        private final String what;
        private final FrameTable frames;
        private final EvictionPolicy policy;
        private final SplittableRandom random;
        private final int frameCount;
        private final Map<Long, Integer> resident = new HashMap<>();
        private final Set<Integer> pins = new LinkedHashSet<>();
        private final Sweep background = Sweep.background();
        private final Sweep cooperative = Sweep.cooperative(42);
        private long nextFreshPage;

        Driver(String what, FrameTable frames, EvictionPolicy policy, SplittableRandom random) {
            this.what = what;
            this.frames = frames;
            this.policy = policy;
            this.random = random;
            this.frameCount = frames.frameCount();
            this.nextFreshPage = 4L * frameCount;
        }

        void run(int steps) {
            for (int step = 0; step < steps; step++) {
                int op = random.nextInt(100);
                if (op < 45) {
                    access(random.nextInt(3 * frameCount + 1));
                } else if (op < 55) {
                    access(nextFreshPage++);
                } else if (op < 70) {
                    togglePin(random.nextInt(frameCount));
                } else if (op < 78) {
                    policy.onHit(random.nextInt(frameCount)); // a hit racing an eviction: any frame, bound or not
                } else if (op < 84) {
                    dropUnchosen();
                } else if (op < 88) {
                    policy.housekeeping();
                } else if (op < 94) {
                    chooseWithAllButOnePinned();
                } else {
                    chooseWithEveryFramePinned();
                }
                policy.checkInvariants(); // after every step: a hand left misplaced by a drop decides before the next fault
            }
            unpinAll();
            fill();
            policy.checkInvariants();
        }

        private void access(long page) {
            Integer frame = resident.get(page);
            if (frame != null) {
                policy.onHit(frame);
                return;
            }
            int target = freeFrame();
            if (target < 0) {
                target = evictOne(random.nextBoolean() ? background : cooperative);
                if (target < 0) {
                    return; // everything pinned
                }
            }
            bind(target, page);
        }

        private void bind(int frame, long page) {
            assertTrue(frames.tryExclusiveLock(frame), what);
            long key = PageKey.of(0, page);
            frames.setBinding(frame, key);
            policy.onFault(frame, key);
            frames.unlockExclusive(frame);
            resident.put(page, frame);
        }

        private int freeFrame() {
            for (int frame = 0; frame < frameCount; frame++) {
                if (frames.binding(frame) == PageKey.UNBOUND && !pins.contains(frame)) {
                    return frame;
                }
            }
            return -1;
        }

        /** Asks for victims until one is evicted; -1 if none can be (every bound frame pinned). */
        private int evictOne(Sweep sweep) {
            sweep.begin();
            boolean anyEvictable = anyEvictable();
            for (int call = 0; call < MAX_FRUITLESS_CALLS; call++) {
                int victim = policy.nextVictim(sweep);
                if (victim == EvictionPolicy.NO_VICTIM) {
                    if (!anyEvictable) {
                        return -1;
                    }
                    continue;
                }
                assertTrue(victim >= 0 && victim < frameCount, what + ": victim " + victim + " out of range");
                assertTrue(frames.isEvictable(victim), what + ": victim " + victim + " is not evictable (binding "
                    + PageKey.toString(frames.binding(victim)) + ", pinned " + pins.contains(victim) + ")");
                unbind(victim);
                return victim;
            }
            throw new AssertionError(what + ": " + MAX_FRUITLESS_CALLS + " calls of nextVictim found no victim though "
                + "an evictable frame was there (pinned: " + pins + ")");
        }

        private boolean anyEvictable() {
            for (int frame = 0; frame < frameCount; frame++) {
                if (frames.isEvictable(frame)) {
                    return true;
                }
            }
            return false;
        }

        private void unbind(int frame) {
            assertTrue(frames.tryExclusiveLock(frame), what);
            long key = frames.binding(frame);
            frames.setBinding(frame, PageKey.UNBOUND);
            resident.remove(PageKey.pageId(key));
            policy.onEvicted(frame, key);
            frames.unlockExclusive(frame);
        }

        /** An unmap or truncate drops a page the policy did not choose; a failed fault unbinds the page it bound. */
        private void dropUnchosen() {
            int frame = random.nextInt(frameCount);
            if (frames.binding(frame) == PageKey.UNBOUND) {
                if (!pins.contains(frame)) {
                    bind(frame, nextFreshPage++);
                    unbind(frame); // a fault that failed after the bind
                }
                return;
            }
            if (!pins.contains(frame)) {
                unbind(frame);
            }
        }

        private void togglePin(int frame) {
            if (pins.contains(frame)) {
                frames.unlockWrite(frame);
                pins.remove(frame);
            } else if (frames.binding(frame) != PageKey.UNBOUND && pins.size() < frameCount) {
                assertTrue(frames.tryWriteLock(frame), what);
                pins.add(frame);
            }
        }

        private void unpinAll() {
            for (int frame : pins) {
                frames.unlockWrite(frame);
            }
            pins.clear();
        }

        private void fill() {
            int frame;
            while ((frame = freeFrame()) >= 0) {
                bind(frame, nextFreshPage++);
            }
        }

        private void chooseWithAllButOnePinned() {
            unpinAll();
            fill();
            int spared = random.nextInt(frameCount);
            for (int frame = 0; frame < frameCount; frame++) {
                if (frame != spared) {
                    togglePin(frame);
                }
            }
            int victim = evictOne(random.nextBoolean() ? background : cooperative);
            assertTrue(victim == spared, what + ": with every frame pinned but " + spared + " the victim was " + victim);
            bind(victim, nextFreshPage++);
            unpinAll();
        }

        private void chooseWithEveryFramePinned() {
            unpinAll();
            fill();
            for (int frame = 0; frame < frameCount; frame++) {
                togglePin(frame);
            }
            assertTrue(evictOne(random.nextBoolean() ? background : cooperative) == -1, what);
            unpinAll();
        }
    }
}
