package io.ratatosk.core;

import java.util.concurrent.TimeUnit;
import org.opentest4j.AssertionFailedError;

/**
 * cache-core's and cache-policies' tests' bound on a wait for another thread (cache-policies has it from this module's
 * test jar): a small copy of pagecache's test class of the same name (pagecache depends on both modules, so its test
 * jar cannot be used here). The bound ends a test that hangs, never times the library: {@code ratatosk.test.wait_s}
 * seconds, 60 by default, as pagecache's.
 */
public final class Waits {
    /** How long any one wait may take. */
    public static final long BOUND_SECONDS = Long.getLong("ratatosk.test.wait_s", 60);

    private Waits() {
    }

    /** Waits for {@code thread} to end; fails naming {@code what}, with the thread's stack, if it is alive after the bound. */
    public static void join(Thread thread, String what) throws InterruptedException {
        thread.join(TimeUnit.SECONDS.toMillis(BOUND_SECONDS));
        if (thread.isAlive()) {
            StringBuilder dump = new StringBuilder(what).append(": not within ").append(BOUND_SECONDS)
                .append(" s (ratatosk.test.wait_s)\n\"").append(thread.getName()).append("\" ").append(thread.getState());
            for (StackTraceElement frame : thread.getStackTrace()) {
                dump.append("\n    at ").append(frame);
            }
            throw new AssertionFailedError(dump.toString());
        }
    }
}
