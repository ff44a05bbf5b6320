package io.ratatosk.bench.sim;

/**
 * One policy, ready to replay a trace at one capacity from an empty cache. A request is a hit if
 * its key is resident; a miss always admits the key (no bypass). Each call builds fresh state, so
 * one simulator may replay several runs one after another, but one run is single-threaded.
 */
public interface PolicySimulator {
    /** How many requests a simulator replays between two {@link Progress#advance} calls. */
    int PROGRESS_STEP = 1 << 16;

    /** Replays every request of {@code trace} into a cache of {@code capacity} entries; returns the hits. */
    default long replay(Trace trace, int capacity, Progress progress) {
        return run(trace, capacity, progress, 0).hits();
    }

    /**
     * As {@link #replay}, with what the policy said of its own state at the end ({@code EvictionPolicy.state()}:
     * best-of names the expert it follows and its switches), or "" where it has nothing to say.
     */
    default Outcome run(Trace trace, int capacity, Progress progress) {
        return run(trace, capacity, progress, 0);
    }

    /**
     * As {@link #run(Trace, int, Progress)}, and with {@code timelineBucket} above 0 the hits in each bucket of that many
     * requests ({@link ReplayTicks}).
     */
    Outcome run(Trace trace, int capacity, Progress progress, int timelineBucket);

    /**
     * A run's hits, the policy's own account of its state at the end ("" for none), and its hits per bucket of
     * requests (null unless a timeline was asked for; the last bucket may be shorter).
     */
    record Outcome(long hits, String state, long[] timeline) {
        public Outcome(long hits, String state) {
            this(hits, state, null);
        }
    }

    /** Receives replayed request counts, possibly from several threads at once. */
    @FunctionalInterface
    interface Progress {
        Progress NONE = requests -> { };

        void advance(long requests);
    }
}
