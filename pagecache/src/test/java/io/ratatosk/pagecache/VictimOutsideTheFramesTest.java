package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ratatosk.core.Sweep;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A policy that names as its victim a frame the cache does not have (a bug: one past the last, or a negative index
 * other than NO_VICTIM) is refused with an exception naming the policy and the frame. The engine once took the
 * victim's exclusive lock as it was, a compare-and-set on native memory past the frame table's end (or before its
 * start), and went on from whatever it read there: a write into memory that is not the cache's, which can crash the
 * JVM later. Run in a JVM of its own, since without the check that write lands in the test's process.
 */
class VictimOutsideTheFramesTest {
    @TempDir
    Path dir;

    @Test
    void aVictimThatIsNoFrameOfTheCacheIsRefusedNamingThePolicyAndTheFrame() throws Exception {
        ChildJvm.Result child = ChildJvm.run(dir, "64m", NameVictims.class);
        assertEquals(0, child.status(), child.output());
    }

    /** Names frame count (one past the last) and then -2 as victims, to a fault and to a background sweep. */
    static final class NameVictims {
        public static void main(String[] args) throws Exception {
            PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "128k", "pagecache.page_size", "8k",
                "pagecache.evictor.enabled", "false"));
            int frameCount = config.frames();
            for (int bad : new int[] {frameCount, -2}) {
                for (boolean background : new boolean[] {false, true}) {
                    String outcome = evictWithVictim(config, bad, background);
                    String expected = "IllegalStateException: eviction policy off-by-one named frame " + bad + " as its victim";
                    if (!outcome.startsWith(expected) || !outcome.contains("0 to " + (frameCount - 1))) {
                        System.out.println("victim " + bad + (background ? " (background)" : "") + ": " + outcome);
                        System.exit(1);
                    }
                }
            }
            System.exit(0);
        }

        /**
         * What an eviction asked of the engine did within the tests' bound ({@link Waits#BOUND_SECONDS}): its exception's
         * class and message, or a hang. The bound is the tests' one for a thread that never ends: a second or so is all
         * it takes, but a child JVM on a loaded 2-core machine waits seconds for a core.
         */
        private static String evictWithVictim(PageCacheConfig config, int victim, boolean background) throws Exception {
            EvictionEngine engine = new EvictionEngine(config, frames -> new InertPolicy("off-by-one") {
                @Override
                public int nextVictim(Sweep sweep) {
                    return victim;
                }
            });
            List<Integer> taken = new ArrayList<>();
            for (int f = engine.tryGrabFreeFrame(); f >= 0; f = engine.tryGrabFreeFrame()) {
                taken.add(f);
            }
            taken.forEach(engine.frames()::unlockExclusive); // no frame free: the engine must ask the policy
            AtomicReference<String> outcome = new AtomicReference<>("no outcome within " + Waits.BOUND_SECONDS + " s");
            Thread evicting = new Thread(() -> {
                try {
                    int frame = background ? engine.evict(Sweep.background()) : engine.grabFrame();
                    outcome.set("returned frame " + frame);
                } catch (Throwable t) {
                    outcome.set(t.getClass().getSimpleName() + ": " + t.getMessage());
                }
            });
            evicting.setDaemon(true);
            evicting.start();
            evicting.join(TimeUnit.SECONDS.toMillis(Waits.BOUND_SECONDS));
            return outcome.get();
        }
    }
}
