package io.ratatosk.policies;

import io.ratatosk.core.PolicyLock;
import java.util.Objects;

/**
 * A locked policy's lock that its faults and evictions never wait for. A fault or an eviction applies its event
 * under the lock if the lock is free; if it is held, the event goes to a {@link DeferredEvents} ring and the
 * thread returns at once. Every holder applies the ring, in order, before its own work ({@link #lock}), and each,
 * having unlocked, applies what was left meanwhile if the lock is free ({@link #unlock}), so no event waits for a
 * lock no one takes (beyond the few rounds one thread applies: then for the next fault, eviction or victim
 * choice, which all apply them first). A full ring makes the thread wait for the lock, as before.
 *
 * <p>Why. With many threads faulting, each miss took a locked policy's lock three times (the fault, the victim
 * choice, the eviction) for well under a microsecond of work each, and the threads queued on it parked: on 16
 * cores, 8 faulting threads of {@code best-of} spent 8,393 of their 12,017 wall-clock samples parked on it
 * (docs/benchmarks.md, "16 cores, second visit"). Only the victim choice still waits: it must see every fault and
 * eviction told before it.
 *
 * <p>What a policy gives up. A hit on a page whose fault is still in the ring updates the policy word that the
 * fault then sets, so that hit is forgotten; an eviction applied late reads the frame's word as the frame's next
 * page's hits left it (their fault is always applied after it). In one thread the lock is always free and
 * nothing is deferred: the simulator and the page cache count the same hits.
 *
 * <p>Reentrant as {@link PolicyLock} is; only the outermost hold applies the ring, so a sink never runs inside
 * another event's application.
 *
 * <p>A policy that another one owns and calls only under that owner's lock (best-of's experts and miniatures:
 * {@link PolicyEntry#guardedFactory()}) gets a lock {@link #guardedByOwner guarded by its owner}, which takes
 * nothing and defers nothing: each event is applied at once, and {@link #lock}, {@link #unlock} and
 * {@link #applyIfFree} do nothing. Its own lock would only repeat the owner's: in a best-of replay the nested
 * locks were a sixth of the policy's time (docs/policies.md, "best-of's experts take no lock of their own").
 */
public final class DeferringLock {
    /** Events that may wait for the lock's holder; a thread that finds the ring full waits for the lock. */
    public static final int DEFAULT_CAPACITY = 1024;
    /** Rounds of {@link #applyIfFree}: under a steady stream of deferred events, the next holder applies the rest. */
    private static final int APPLY_ROUNDS = 4;

    /** Null where the owner's lock guards every call ({@link #guardedByOwner}). */
    private final PolicyLock lock;
    private final DeferredEvents deferred;
    private final DeferredEvents.Sink sink;

    /** What a policy does with one fault or one eviction, under the lock. */
    @FunctionalInterface
    public interface Apply {
        void apply(int frame, long pageKey);
    }

    /** Applies faults with {@code fault} and evictions with {@code evicted}, under this lock; room for {@link #DEFAULT_CAPACITY} deferred ones. */
    public DeferringLock(Apply fault, Apply evicted) {
        this(DEFAULT_CAPACITY, fault, evicted);
    }

    public DeferringLock(int capacity, Apply fault, Apply evicted) {
        this(new PolicyLock(), capacity, fault, evicted);
    }

    /**
     * For a policy whose owner calls its faults, evictions, victim choice and housekeeping under the owner's own
     * lock, one thread at a time: applies each event at once, and locks nothing.
     */
    public static DeferringLock guardedByOwner(Apply fault, Apply evicted) {
        return new DeferringLock(null, 0, fault, evicted);
    }

    /** {@link #guardedByOwner} if {@code guardedByOwner}, else {@link #DeferringLock(Apply, Apply)}. */
    public static DeferringLock of(boolean guardedByOwner, Apply fault, Apply evicted) {
        return guardedByOwner ? guardedByOwner(fault, evicted) : new DeferringLock(fault, evicted);
    }

    private DeferringLock(PolicyLock lock, int capacity, Apply fault, Apply evicted) {
        Objects.requireNonNull(fault, "fault");
        Objects.requireNonNull(evicted, "evicted");
        this.lock = lock;
        this.deferred = lock == null ? null : new DeferredEvents(capacity);
        this.sink = new DeferredEvents.Sink() {
            @Override
            public void fault(int frame, long pageKey) {
                fault.apply(frame, pageKey);
            }

            @Override
            public void evicted(int frame, long pageKey) {
                evicted.apply(frame, pageKey);
            }
        };
    }

    /** Applies the fault under the lock, after every event told before it; or defers it if the lock is held. */
    public void fault(int frame, long pageKey) {
        tell(true, frame, pageKey);
    }

    /** Applies the eviction under the lock, after every event told before it; or defers it if the lock is held. */
    public void evicted(int frame, long pageKey) {
        tell(false, frame, pageKey);
    }

    private void tell(boolean fault, int frame, long pageKey) {
        if (lock == null) {
            if (fault) {
                sink.fault(frame, pageKey);
            } else {
                sink.evicted(frame, pageKey);
            }
            return;
        }
        if (!lock.tryLock()) {
            if (fault ? deferred.offerFault(frame, pageKey) : deferred.offerEviction(frame, pageKey)) {
                applyIfFree();
                return;
            }
            lock.lock();
        }
        try {
            applyDeferred();
            if (fault) {
                sink.fault(frame, pageKey);
            } else {
                sink.evicted(frame, pageKey);
            }
        } finally {
            unlock();
        }
    }

    /** Takes the lock and applies every event deferred before: the caller's work sees every fault and eviction told before it. */
    public void lock() {
        if (lock == null) {
            return;
        }
        lock.lock();
        try {
            applyDeferred();
        } catch (RuntimeException | Error e) {
            lock.unlock();
            throw e;
        }
    }

    /** Unlocks, then applies what others deferred meanwhile if the lock is free. */
    public void unlock() {
        if (lock == null) {
            return;
        }
        lock.unlock();
        applyIfFree();
    }

    /** Whether the current thread holds the lock (guarded by its owner: always, as only the owner's holder calls). */
    public boolean isHeldByCurrentThread() {
        return lock == null || lock.isHeldByCurrentThread();
    }

    /**
     * Applies the deferred events if the lock is free (and not held by this thread), a few rounds at most: a thread
     * that deferred its event found the lock held before the holder unlocked, so either it sees the lock free
     * here and applies its event itself, or the holder sees the event in its own call here.
     */
    public void applyIfFree() {
        if (lock == null) {
            return;
        }
        for (int round = 0; round < APPLY_ROUNDS && deferred.hasPending() && !lock.isHeldByCurrentThread() && lock.tryLock(); round++) {
            try {
                deferred.drain(sink);
            } finally {
                lock.unlock();
            }
        }
    }

    private void applyDeferred() {
        if (lock.getHoldCount() == 1) {
            deferred.drain(sink);
        }
    }
}
