package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
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

    /** Prints its first argument to stdout, its second to stderr, and exits with status 3. */
    public static final class ExitsWithThree {
        public static void main(String[] args) {
            System.out.println("out: " + args[0]);
            System.err.println("err: " + args[1]);
            System.exit(3);
        }
    }
}
