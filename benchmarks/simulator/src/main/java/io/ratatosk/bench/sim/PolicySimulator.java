package io.ratatosk.bench.sim;

/**
 * One policy, ready to replay a trace at one capacity from an empty cache. A request is a hit if
 * its key is resident; a miss always admits the key (no bypass). Each call builds fresh state, so
 * one simulator may replay several runs one after another, but one run is single-threaded.
 */
@FunctionalInterface
public interface PolicySimulator {
    /** How many requests a simulator replays between two {@link Progress#advance} calls. */
    int PROGRESS_STEP = 1 << 16;

    /** Replays every request of {@code trace} into a cache of {@code capacity} entries; returns the hits. */
    long replay(Trace trace, int capacity, Progress progress);

    /**
     * As {@link #replay}, with what the policy said of its own state at the end ({@code EvictionPolicy.state()}:
     * best-of names the expert it follows and its switches), or "" where it has nothing to say.
     */
    default Outcome run(Trace trace, int capacity, Progress progress) {
        return new Outcome(replay(trace, capacity, progress), "");
    }

    /** A run's hits and the policy's own account of its state at the end ("" for none). */
    record Outcome(long hits, String state) {
    }

    /** Receives replayed request counts, possibly from several threads at once. */
    @FunctionalInterface
    interface Progress {
        Progress NONE = requests -> { };

        void advance(long requests);
    }
}
