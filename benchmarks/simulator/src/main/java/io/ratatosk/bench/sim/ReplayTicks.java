package io.ratatosk.bench.sim;

/**
 * What one replay reports as it goes: its progress every {@link PolicySimulator#PROGRESS_STEP} requests, and, where a
 * timeline was asked for, its hits in each bucket of that many requests. A simulator's loop compares the requests
 * served with {@link #next()} once per request and calls {@link #tick} when they meet, so that a run without a
 * timeline costs what the progress alone did.
 */
public final class ReplayTicks {
    private final PolicySimulator.Progress progress;
    private final int bucket;
    private final long[] timeline;
    private long nextProgress = PolicySimulator.PROGRESS_STEP;
    private long nextBucket;
    private long next;
    private long reported;
    private long hitsAtBucketStart;
    private int filled;

    /**
     * @param progress told of the requests served, in steps
     * @param bucket   requests per timeline bucket, or 0 for no timeline
     * @param requests the trace's requests: the last bucket may be shorter
     */
    public ReplayTicks(PolicySimulator.Progress progress, int bucket, int requests) {
        if (bucket < 0) {
            throw new IllegalArgumentException("a timeline bucket must be at least 1 request (0: no timeline): " + bucket);
        }
        this.progress = progress;
        this.bucket = bucket;
        this.timeline = bucket == 0 ? null : new long[(int) ((requests + (long) bucket - 1) / bucket)];
        this.nextBucket = bucket == 0 ? Long.MAX_VALUE : bucket;
        this.next = Math.min(nextProgress, nextBucket);
    }

    /** The count of requests served at which the loop must call {@link #tick} next. */
    public long next() {
        return next;
    }

    /** {@code served} requests are done ({@link #next()} of them), {@code hits} of them hits. */
    public void tick(long served, long hits) {
        if (served == nextProgress) {
            progress.advance(served - reported);
            reported = served;
            nextProgress += PolicySimulator.PROGRESS_STEP;
        }
        if (served == nextBucket) {
            timeline[filled++] = hits - hitsAtBucketStart;
            hitsAtBucketStart = hits;
            nextBucket += bucket;
        }
        next = Math.min(nextProgress, nextBucket);
    }

    /**
     * The replay is over after {@code served} requests and {@code hits} hits: reports the rest of the progress and
     * returns the hits per bucket (the last one over the requests left), or null without a timeline.
     */
    public long[] finish(long served, long hits) {
        progress.advance(served - reported);
        reported = served;
        if (timeline == null) {
            return null;
        }
        if (filled < timeline.length) { // the last bucket, shorter than the others
            timeline[filled++] = hits - hitsAtBucketStart;
            hitsAtBucketStart = hits;
        }
        return timeline;
    }
}
