package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ChildJvm's deadline. It read the child's output to its end and then waited for it, for ever: a child that hung (a
 * frame left locked, a page left faulting: what the out-of-heap children guard) hung the build instead of failing it.
 */
class ChildJvmTest {
    /**
     * Counted from the child's announcement, after which it has nothing left to do but sleep; the test waits it out. A
     * deadline counted from the start failed the test falsely where the JVM's start took longer, on loaded cores.
     */
    private static final Duration DEADLINE = Duration.ofSeconds(1);

    @TempDir
    Path dir;

    @Test
    void aChildStillRunningAtItsDeadlineIsKilledAndFailsTheTestWithItsStacks() throws Exception {
        AssertionError hung;
        try (ChildJvm.Started child = ChildJvm.start(dir, "32m", List.of(), SleepsForever.class)) {
            Waits.until(() -> child.output().contains(SleepsForever.ANNOUNCEMENT), "the child's announcement");
            hung = assertThrows(AssertionError.class, () -> child.waitFor(DEADLINE));
        }
        String message = hung.getMessage();
        assertTrue(message.startsWith(SleepsForever.class.getName() + " in a JVM of its own (pid "), message);
        assertTrue(message.contains(") hung: still running " + DEADLINE.toSeconds() + " s into the wait for it"), message);
        assertTrue(message.contains(SleepsForever.ANNOUNCEMENT), message); // what it printed before it hung
        assertTrue(message.contains("SleepsForever.sleepForever("), message); // and where it hung
        Matcher pid = Pattern.compile("\\(pid (\\d+)\\)").matcher(message);
        assertTrue(pid.find(), message);
        assertFalse(ProcessHandle.of(Long.parseLong(pid.group(1))).map(ProcessHandle::isAlive).orElse(false),
            "the hung child is still running");
    }

    /**
     * A hung child's report ends with the whole of its thread dump: the heap summary the JVM prints last, after a
     * safepoint of its own. The dump was taken as done once half a second added nothing, so a dump that paused longer
     * (a loaded machine, or here a thread that reaches no safepoint for seconds) lost its end, and the child was killed
     * mid-dump.
     */
    @Test
    void aHungChildsReportHoldsItsWholeThreadDumpHoweverLongTheDumpPauses() throws Exception {
        AssertionError hung;
        try (ChildJvm.Started child = ChildJvm.start(dir, "32m", List.of("-XX:-UseCountedLoopSafepoints"),
                SpinsWithoutSafepoints.class)) {
            Waits.until(() -> child.output().contains(SpinsWithoutSafepoints.ANNOUNCEMENT), "the child's announcement");
            hung = assertThrows(AssertionError.class, () -> child.waitFor(DEADLINE));
        }
        String message = hung.getMessage();
        int threadsEnd = message.indexOf("JNI global refs:");
        assertTrue(threadsEnd > 0, message);
        assertTrue(message.indexOf("\nHeap\n", threadsEnd) > 0, "the heap summary after the threads: " + message);
        assertTrue(message.indexOf("Metaspace", threadsEnd) > 0, "the heap summary's end: " + message);
    }

    @Test
    void aChildThatEndsInTimeGivesItsStatusAndEverythingItPrinted() throws Exception {
        ChildJvm.Result result = ChildJvm.run(dir, "32m", ExitsWithThree.class, "one", "two");
        assertEquals(3, result.status(), result.output());
        assertTrue(result.output().contains("out: one"), result.output());
        assertTrue(result.output().contains("err: two"), result.output());
    }

    /** Announces itself, then never ends. */
    public static final class SleepsForever {
        static final String ANNOUNCEMENT = "going to sleep for ever";

        public static void main(String[] args) throws InterruptedException {
            sleepForever();
        }

        /** Announces from here, so that once the announcement is out this frame is on the stack until the end. */
        private static void sleepForever() throws InterruptedException {
            System.out.println(ANNOUNCEMENT);
            Thread.sleep(Long.MAX_VALUE);
        }
    }

    /**
     * Announces itself, then never ends, while a thread of it runs compiled loops of half a billion rounds that (with
     * {@code -XX:-UseCountedLoopSafepoints}) poll for no safepoint: each safepoint waits for the loop under way, seconds.
     */
    public static final class SpinsWithoutSafepoints {
        static final String ANNOUNCEMENT = "spinning without safepoints";
        static volatile long sink;

        public static void main(String[] args) throws InterruptedException {
            CountDownLatch compiled = new CountDownLatch(1);
            Thread spinner = new Thread(() -> {
                long x = 1;
                while (true) {
                    x = spin(x);
                    sink = x;
                    compiled.countDown(); // the first call's loop was compiled on the way (OSR): the later ones run so
                }
            }, "spinner");
            spinner.setDaemon(true);
            spinner.start();
            compiled.await();
            System.out.println(ANNOUNCEMENT);
            Thread.sleep(Long.MAX_VALUE);
        }

        /** A counted loop the compiler can neither remove nor shorten (xorshift). */
        private static long spin(long x) {
            for (int i = 0; i < 1 << 29; i++) {
                x ^= x << 13;
                x ^= x >>> 7;
                x ^= x << 17;
            }
            return x;
        }
    }

    /** Prints its first argument to stdout, its second to stderr, and exits with status 3. */
    public static final class ExitsWithThree {
        public static void main(String[] args) {
            System.out.println("out: " + args[0]);
            System.err.println("err: " + args[1]);
            System.exit(3);
        }
    }
}
