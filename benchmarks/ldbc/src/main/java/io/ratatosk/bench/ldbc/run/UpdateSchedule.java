package io.ratatosk.bench.ldbc.run;

import io.ratatosk.bench.ldbc.update.Update;
import java.util.List;

/**
 * The update stream of one run, shared by its query threads: each thread owes
 * {@link #UPDATES_PER_COMPLEX_READ} updates per complex read it issues (LDBC's ratio) and takes them,
 * in stream order, from here before running that read. When the stream is used up the reads go on
 * without updates. Thread-safe.
 */
public final class UpdateSchedule {
    /**
     * LDBC's driver issues complex read i once per {@code interleave_i} updates, so there are
     * 1 / sum(1 / interleave_i) updates per complex read over the fourteen (about 2.73 with the SF1
     * interleaves of {@link OperationStream#INTERLEAVES}).
     */
    public static final double UPDATES_PER_COMPLEX_READ;

    static {
        double readsPerUpdate = 0;
        for (int interleave : OperationStream.INTERLEAVES) {
            readsPerUpdate += 1.0 / interleave;
        }
        UPDATES_PER_COMPLEX_READ = 1 / readsPerUpdate;
    }

    private final List<Update> updates;
    private int next;

    public UpdateSchedule(List<Update> updates) {
        this.updates = updates;
    }

    /** The next update of the stream, or null when every update was taken. */
    public synchronized Update take() {
        return next < updates.size() ? updates.get(next++) : null;
    }

    public synchronized int taken() {
        return next;
    }

    public int size() {
        return updates.size();
    }

    /** A thread's debt of updates: grows with each complex read, paid one whole update at a time. */
    static final class Debt {
        private double owed;

        /** A complex read is about to run: how many updates to apply before it. */
        int dueBeforeComplexRead() {
            owed += UPDATES_PER_COMPLEX_READ;
            int due = (int) owed;
            owed -= due;
            return due;
        }
    }
}
