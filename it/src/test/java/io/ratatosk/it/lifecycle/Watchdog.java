package io.ratatosk.it.lifecycle;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Fails the run when one operation of any participant takes longer than the op timeout: a deadlock,
 * a thread spinning on a frame that stays locked, a fault waiting forever. On a hang it records every
 * thread's full stack, so the report shows where each was.
 */
final class Watchdog implements AutoCloseable {
    private final long timeoutNanos;
    private final AtomicLongArray startedAt;
    private final AtomicReferenceArray<String> what;
    private final Failures failures;
    private final Thread thread;
    private volatile boolean running = true;

    Watchdog(int participants, Duration timeout, Failures failures) {
        this.timeoutNanos = timeout.toNanos();
        this.startedAt = new AtomicLongArray(participants);
        this.what = new AtomicReferenceArray<>(participants);
        this.failures = failures;
        this.thread = new Thread(this::watch, "lifecycle-watchdog");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** Participant {@code p} begins an operation. */
    void begin(int p, String description) {
        what.set(p, description);
        startedAt.set(p, System.nanoTime());
    }

    void end(int p) {
        startedAt.set(p, 0);
    }

    private void watch() {
        while (running && !failures.any()) {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            for (int p = 0; p < startedAt.length(); p++) {
                long start = startedAt.get(p);
                if (start != 0 && now - start > timeoutNanos) {
                    failures.fail("operation did not finish within " + Duration.ofNanos(timeoutNanos).toSeconds()
                        + " s (a hang): participant " + p + ": " + what.get(p) + "\n" + threadDump(), null);
                    return;
                }
            }
        }
    }

    static String threadDump() {
        StringBuilder sb = new StringBuilder("--- all threads ---\n");
        for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
            Thread t = e.getKey();
            sb.append('"').append(t.getName()).append("\" ").append(t.getState()).append('\n');
            for (StackTraceElement frame : e.getValue()) {
                sb.append("    at ").append(frame).append('\n');
            }
        }
        return sb.toString();
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
