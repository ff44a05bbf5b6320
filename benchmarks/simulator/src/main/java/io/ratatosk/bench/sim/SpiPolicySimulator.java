package io.ratatosk.bench.sim;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.Sweep;
import io.ratatosk.policies.replay.PolicyReplay;
import java.util.function.Function;

/**
 * Drives a cache-policies {@link EvictionPolicy} through the SPI exactly as a single-threaded page
 * cache without a background evictor would, with {@link PolicyReplay}: frames filled in order, then
 * housekeeping and one episode of one background {@link Sweep} (kept for the whole run) per eviction,
 * every fault and eviction under the frame's exclusive lock, {@code checkInvariants()} and every
 * binding checked when the run ends. Trace key {@code k} (dense) is page {@code PageKey.of(0, k)}.
 * Housekeeping runs where the page cache without a background evictor runs it, so that a policy whose
 * housekeeping changes what it decides (bitset-history trims its history there) counts the same hits
 * in both.
 */
final class SpiPolicySimulator implements PolicySimulator {
    private final String name;
    private final Function<FrameTable, EvictionPolicy> factory;

    SpiPolicySimulator(String name, Function<FrameTable, EvictionPolicy> factory) {
        this.name = name;
        this.factory = factory;
    }

    @Override
    public Outcome run(Trace trace, int capacity, Progress progress, int timelineBucket) {
        int[] keys = trace.keys();
        ReplayTicks ticks = new ReplayTicks(progress, timelineBucket, keys.length);
        try (PolicyReplay replay = new PolicyReplay(capacity, trace.distinct(), factory, Sweep.background())) {
            for (int i = 0; i < keys.length; i++) {
                replay.read(keys[i]);
                if (i + 1 == ticks.next()) {
                    ticks.tick(i + 1, replay.hits());
                }
            }
            long[] timeline = ticks.finish(keys.length, replay.hits());
            replay.verify();
            return new Outcome(replay.hits(), replay.policy().state(), timeline);
        } catch (IllegalStateException e) {
            throw new IllegalStateException(name + ": " + e.getMessage(), e);
        }
    }
}
