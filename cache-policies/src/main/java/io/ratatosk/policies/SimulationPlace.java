package io.ratatosk.policies;

import io.ratatosk.core.PolicyLock;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * Where a policy's miniature simulations replay its sampled requests, and which lock guards their state there:
 * in each fault, under the policy's own lock (the simulator, a page cache without a background evictor: in one
 * thread every sample replays in order, deterministically), or, once {@link #moveToBackground} was called, in
 * the background evictor's housekeeping, under a lock of the simulations' own, so that no fault waits for them.
 * best-of's miniatures and w-tinylfu-adaptive's window simulations run this way. The simulations' lock is taken
 * before the policy's (a best-of switch), never after it.
 */
public final class SimulationPlace {
    /**
     * Sampled requests one background housekeeping call replays at most (four miniatures each in best-of: about a
     * hundred microseconds), so that the evictor refills the free frames between chunks. Replaying a full ring in
     * one call (4,096 keys, milliseconds) let the faults use up the free frames meanwhile: on two faulting threads of
     * the 2-core VM, 60% of best-of's evictions were the faults' own, against a third for clock-pro. (With one
     * faulting thread the chunks cut that share by a few points; on 16 cores they changed no throughput:
     * docs/benchmarks.md, "16 cores, fourth visit".)
     */
    public static final int BACKGROUND_CHUNK = 128;
    private final String policy;
    private final DeferringLock policyLock;
    private final PolicyLock simulationLock = new PolicyLock();
    /** Set once, before the first request; read by every fault. */
    private volatile boolean inBackground;

    /** For the policy named {@code policy}, whose own lock is {@code policyLock}. */
    public SimulationPlace(String policy, DeferringLock policyLock) {
        this.policy = policy;
        this.policyLock = policyLock;
    }

    /** Whether the evictor's housekeeping, not the faults, runs the simulations. */
    public boolean inBackground() {
        return inBackground;
    }

    /**
     * From now on only the evictor's housekeeping runs the simulations. The caller holds the policy's lock; the page
     * cache asks before the first request, and later ({@code requestsSeen}) a fault's replay and the evictor's could
     * overlap, so it is refused.
     *
     * @throws IllegalStateException if {@code requestsSeen}
     */
    public void moveToBackground(boolean requestsSeen) {
        if (requestsSeen) {
            throw new IllegalStateException(policy + ": housekeepingInBackground() after the first request");
        }
        inBackground = true;
    }

    /**
     * Replays {@code ring} into {@code sink} (the simulations) under the lock that guards their state: in the
     * background, the oldest {@link #BACKGROUND_CHUNK} keys at most ({@link #pending} tells the evictor to call
     * again); else all of them.
     */
    public void drain(SampleRing ring, LongConsumer sink) {
        boolean background = lockGuard();
        try {
            if (background) {
                ring.drain(sink, BACKGROUND_CHUNK);
            } else {
                ring.drain(sink);
            }
        } finally {
            unlockGuard(background);
        }
    }

    /** Whether a background housekeeping left keys of {@code ring} for its next call; racy. */
    public boolean pending(SampleRing ring) {
        return inBackground && ring.hasPending();
    }

    /** {@code value} of the simulations' state, read under the lock that guards it. */
    public long read(LongSupplier value) {
        boolean background = lockGuard();
        try {
            return value.getAsLong();
        } finally {
            unlockGuard(background);
        }
    }

    /**
     * Takes the lock that guards the simulations' state: theirs in the background, else the policy's (which applies
     * its deferred faults and evictions first). Returns which, for {@link #unlockGuard}.
     */
    private boolean lockGuard() {
        boolean background = inBackground;
        if (background) {
            simulationLock.lock();
        } else {
            policyLock.lock();
        }
        return background;
    }

    private void unlockGuard(boolean background) {
        if (background) {
            simulationLock.unlock();
        } else {
            policyLock.unlock();
        }
    }
}
