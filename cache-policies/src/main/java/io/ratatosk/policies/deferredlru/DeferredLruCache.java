package io.ratatosk.policies.deferredlru;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * DeferredLRU in its original shape: a bounded, concurrent key-value memoization cache (get, put,
 * get-or-compute) whose eviction order is an LRU list reordered in batches by {@link DeferredLruList},
 * the same algorithm {@link DeferredLruPolicy} runs over page frames. A get that finds its key pushes
 * the entry onto the lock-free Recent list; when Recent reaches the pull threshold one thread moves
 * it to the head of the LRU list; an insert into a full cache takes an entry from the empty-entry
 * pool, which a purge from the LRU tail (skipping Recent) refills with a batch of the purge count.
 *
 * <p>Entries are preallocated (capacity of them, never more). The key index is a
 * {@link ConcurrentHashMap} from key to entry number: the thesis used a bucket-locked hash table,
 * and a key-value cache needs some concurrent map by nature; the map is the only thing that
 * allocates (a node per insert). Each entry carries a version (a seqlock): a get reads key and value
 * optimistically and retries if the entry changed meanwhile, and writers (put, eviction) take the
 * version with a CAS, so a get never returns another key's value or a torn one. The empty-entry pool
 * is a lock-free stack with a tagged head, since entries are recycled (no ABA).
 *
 * <p>Defaults: pull threshold 0.9 and purge count 0.01 of the capacity, as for the page cache (the
 * thesis's best hit rate, section 5.2; docs/policies.md has the measurements). A
 * function given to {@link #computeIfAbsent} may run in more than one thread for the same key when
 * they miss together; one result is kept and returned to all of them. An exception from a key's {@code hashCode} or
 * {@code equals} (or from the key index) reaches the call that met it, which may be an insert evicting that key, and
 * leaves every entry usable: nothing stays locked, claimed or out of the pool.
 *
 * <p>Source: Kroilov (2020), chapter 4 (algorithms 9-14) and chapter 5.
 */
public final class DeferredLruCache<K, V> {
    private static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);
    private static final VarHandle OBJECTS = MethodHandles.arrayElementVarHandle(Object[].class);
    private static final int EMPTY_POOL = 0;
    /** Spins of a thread waiting for another's consolidation before it yields its CPU instead. */
    private static final int REFILL_SPINS = 64;

    private final int capacity;
    private final int purgeCount;
    private final DeferredLruList list;
    private final ConcurrentHashMap<K, Integer> index;
    private final Integer[] entryNumbers;
    private final Object[] keys;
    private final Object[] values;
    /** Even: stable; odd: a writer holds the entry. */
    private final int[] versions;
    private final int[] poolNext;
    private final AtomicLong poolHead = new AtomicLong(EMPTY_POOL);
    private final AtomicInteger pooled = new AtomicInteger();
    /** The entries a purge evicted, chained through {@link #poolNext}, first to last; only the consolidator's. */
    private int purgedFirst;
    private int purgedLast;
    private int purgedCount;

    /** A cache of {@code capacity} entries with the default pull threshold and purge count. */
    public DeferredLruCache(int capacity) {
        this(capacity, Math.max(1, (int) (capacity * 0.9)), Math.max(1, capacity / 100));
    }

    /**
     * @param capacity      entries it holds at most, at most {@code Integer.MAX_VALUE - 16}
     * @param pullThreshold entries in Recent that trigger a pull, in [1, capacity]; 1 makes it an exact LRU
     * @param purgeCount    entries one purge frees, in [1, capacity]
     */
    public DeferredLruCache(int capacity, int pullThreshold, int purgeCount) {
        if (capacity < 1 || capacity > DeferredLruList.MAX_NODES || pullThreshold < 1 || pullThreshold > capacity
            || purgeCount < 1 || purgeCount > capacity) {
            throw new IllegalArgumentException("need capacity in [1, " + DeferredLruList.MAX_NODES
                + "] and pull threshold and purge count in [1, capacity]: capacity="
                + capacity + ", pullThreshold=" + pullThreshold + ", purgeCount=" + purgeCount);
        }
        this.capacity = capacity;
        this.purgeCount = purgeCount;
        this.list = new DeferredLruList(capacity, pullThreshold, () -> { });
        this.index = new ConcurrentHashMap<>(capacity);
        this.entryNumbers = new Integer[capacity];
        this.keys = new Object[capacity];
        this.values = new Object[capacity];
        this.versions = new int[capacity];
        this.poolNext = new int[capacity];
        for (int entry = capacity - 1; entry >= 0; entry--) {
            entryNumbers[entry] = entry;
            release(entry);
        }
    }

    public int capacity() {
        return capacity;
    }

    /**
     * Entries in use: holding a key, or being filled by an insert. Never more than
     * {@link #capacity()}: it counts the preallocated entries out of the pool. (The key index's own
     * size is a sum of counters that may read one high for an instant while inserts and evictions
     * race, so it is not used here.)
     */
    public int size() {
        return capacity - pooled.get();
    }

    /** The value cached for {@code key}, or null; a hit counts as an access. */
    public V get(K key) {
        Objects.requireNonNull(key, "key");
        while (true) {
            Integer number = index.get(key);
            if (number == null) {
                return null;
            }
            int entry = number;
            int version = (int) INTS.getAcquire(versions, entry);
            if ((version & 1) == 0) {
                Object k = OBJECTS.getOpaque(keys, entry);
                @SuppressWarnings("unchecked")
                V value = (V) OBJECTS.getOpaque(values, entry);
                VarHandle.loadLoadFence();
                if ((int) INTS.getVolatile(versions, entry) == version && key.equals(k)) {
                    list.touch(entry);
                    return value;
                }
            }
            Thread.onSpinWait(); // the entry is being written or was recycled: look the key up again
        }
    }

    /** Caches {@code value} for {@code key}, replacing what was there; counts as an access. */
    public void put(K key, V value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        while (true) {
            Integer number = index.get(key);
            if (number != null) {
                if (replace(number, key, value)) {
                    return;
                }
                continue;
            }
            if (insert(key, value) == null) {
                return;
            }
        }
    }

    /**
     * The value cached for {@code key}; on a miss, {@code compute}'s value, cached. Null (and
     * nothing cached) if {@code compute} returns null.
     */
    public V computeIfAbsent(K key, Function<? super K, ? extends V> compute) {
        V cached = get(key);
        if (cached != null) {
            return cached;
        }
        V computed = compute.apply(key);
        if (computed == null) {
            return null;
        }
        V existing = insert(key, computed);
        return existing != null ? existing : computed;
    }

    /** Writes {@code value} into {@code entry} if it still holds {@code key}; false if it was recycled. */
    private boolean replace(int entry, K key, V value) {
        if (!lockEntry(entry)) {
            return false;
        }
        boolean same;
        try {
            same = key.equals(keys[entry]); // the caller's equals, which may throw: the entry must not stay locked
            if (same) {
                OBJECTS.setOpaque(values, entry, value);
            }
        } finally {
            unlockEntry(entry);
        }
        if (same) {
            list.touch(entry);
        }
        return same;
    }

    /**
     * Algorithm 11: an empty entry gets the pair, is claimed, indexed, then linked at the head. If the
     * key was cached meanwhile, the entry goes back and the value already there is returned (null if
     * this insert won).
     */
    private V insert(K key, V value) {
        while (true) {
            int entry = acquireEntry();
            while (!lockEntry(entry)) {
                Thread.onSpinWait(); // a get still validating against the entry's last life
            }
            OBJECTS.setOpaque(keys, entry, key);
            OBJECTS.setOpaque(values, entry, value);
            unlockEntry(entry);
            list.claim(entry);
            Integer existing;
            try {
                existing = index.putIfAbsent(key, entryNumbers[entry]);
            } catch (RuntimeException | Error e) {
                // The key's hashCode or equals threw, or the map could not allocate its node. The entry is in neither
                // the pool nor the list: kept, it would be lost for good (a cache of one entry then waited forever).
                giveBack(entry);
                throw e;
            }
            if (existing == null) {
                list.linkClaimed(entry);
                return null;
            }
            giveBack(entry);
            V current = get(key);
            if (current != null) {
                return current;
            }
            // The other entry was evicted before we could read it: try again.
        }
    }

    /** Returns a claimed entry that was not linked, with its pair dropped, to the pool. */
    private void giveBack(int entry) {
        list.releaseClaim(entry);
        clear(entry);
        release(entry);
    }

    /** An empty entry: from the pool, else by purging the oldest entries into it (algorithm 14). */
    private int acquireEntry() {
        int waits = 0;
        while (true) {
            int entry = take();
            if (entry >= 0) {
                return entry;
            }
            if (list.tryLock()) {
                try {
                    if (list.pullPending()) {
                        list.pullRecent();
                    }
                    if (poolIsEmpty() && purge() == 0) {
                        list.pullRecent();
                        if (purge() == 0) {
                            int first = list.first();
                            if (first != DeferredLruList.NIL) {
                                evict(first);
                                releasePurged();
                            }
                        }
                    }
                } finally {
                    list.unlock();
                }
            } else {
                waits = awaitRefill(waits);
            }
        }
    }

    /**
     * Another thread is consolidating and will refill the pool: wait, reading only. Spinning at full speed took the
     * CPU the consolidating thread needed wherever threads outnumber cores (with 8 threads on 2 cores, a quarter of all
     * samples were this spin); past a short spin this yields.
     */
    private int awaitRefill(int waits) {
        if (waits < REFILL_SPINS) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
        return waits + 1;
    }

    /**
     * Under the consolidation lock: purges up to {@code purgeCount} of the oldest entries and hands them to the pool in
     * one step ({@link #releasePurged}); returns how many.
     */
    private int purge() {
        try {
            return list.purge(purgeCount, this::evict);
        } finally {
            releasePurged(); // also those evicted before an eviction threw
        }
    }

    /**
     * Under the consolidation lock: drops {@code entry}'s pair and chains it for {@link #releasePurged}, which hands the
     * purge's entries to the pool at once.
     */
    private boolean evict(int entry) {
        if (!lockEntry(entry)) {
            return false; // a put is writing it: spare it this time
        }
        try {
            index.remove(keys[entry], entryNumbers[entry]);
        } catch (RuntimeException | Error e) {
            // The key's hashCode or equals threw before the map changed: the entry stays as it was, cached. Left
            // locked, every get or put of its key would spin on it for good, and no purge could take it again.
            unlockEntry(entry);
            throw e;
        }
        list.unlink(entry);
        OBJECTS.setOpaque(keys, entry, null);
        OBJECTS.setOpaque(values, entry, null);
        unlockEntry(entry);
        if (purgedCount == 0) {
            purgedLast = entry;
        } else {
            INTS.setRelease(poolNext, entry, purgedFirst + 1);
        }
        purgedFirst = entry;
        purgedCount++;
        return true;
    }

    /**
     * Under the consolidation lock: pushes the entries {@link #evict} chained onto the pool with one compare-and-set.
     * Pushed one by one, each took the pool's head away from every thread waiting on it, a cache-line transfer per
     * entry of a purge of hundreds.
     */
    private void releasePurged() {
        if (purgedCount == 0) {
            return;
        }
        pooled.addAndGet(purgedCount); // counted before they can be taken, as in release
        long top;
        do {
            top = poolHead.get();
            INTS.setRelease(poolNext, purgedLast, (int) top);
        } while (!poolHead.compareAndSet(top, tagged(top, purgedFirst + 1)));
        purgedCount = 0;
    }

    private void clear(int entry) {
        while (!lockEntry(entry)) {
            Thread.onSpinWait();
        }
        OBJECTS.setOpaque(keys, entry, null);
        OBJECTS.setOpaque(values, entry, null);
        unlockEntry(entry);
    }

    private boolean lockEntry(int entry) {
        int version = (int) INTS.getVolatile(versions, entry);
        return (version & 1) == 0 && INTS.compareAndSet(versions, entry, version, version + 1);
    }

    private void unlockEntry(int entry) {
        INTS.setRelease(versions, entry, (int) INTS.getVolatile(versions, entry) + 1);
    }

    // ---------------------------------------------------------------- empty-entry pool: tagged stack

    private void release(int entry) {
        pooled.incrementAndGet(); // counted before it can be taken, so that the count never runs below the pool
        long top;
        do {
            top = poolHead.get();
            INTS.setRelease(poolNext, entry, (int) top);
        } while (!poolHead.compareAndSet(top, tagged(top, entry + 1)));
    }

    private int take() {
        long top;
        int entryPlusOne;
        do {
            top = poolHead.get();
            entryPlusOne = (int) top;
            if (entryPlusOne == EMPTY_POOL) {
                return -1;
            }
        } while (!poolHead.compareAndSet(top, tagged(top, (int) INTS.getAcquire(poolNext, entryPlusOne - 1))));
        pooled.decrementAndGet();
        return entryPlusOne - 1;
    }

    private boolean poolIsEmpty() {
        return (int) poolHead.get() == EMPTY_POOL;
    }

    private static long tagged(long old, int entryPlusOne) {
        return (((old >>> 32) + 1) << 32) | (entryPlusOne & 0xFFFFFFFFL);
    }

    // ---------------------------------------------------------------- introspection, checks

    /** Keys from the newest end of the LRU list to the oldest; on a quiet cache. */
    @SuppressWarnings("unchecked")
    public java.util.List<K> lruOrder() {
        java.util.List<K> order = new java.util.ArrayList<>();
        for (int entry : list.order()) {
            order.add((K) keys[entry]);
        }
        return order;
    }

    /**
     * On a quiet cache: the index, the entries and the LRU list agree (every indexed entry holds its
     * key and is linked, no other entry is), the pool holds exactly the other entries, and the list's
     * own invariants hold.
     */
    public void checkInvariants() {
        list.lock();
        try {
            boolean[] indexed = new boolean[capacity];
            index.forEach((key, number) -> {
                if (!key.equals(keys[number]) || indexed[number]) {
                    throw new IllegalStateException("deferred-lru cache: key " + key + " indexed at entry " + number
                        + " holding " + keys[number]);
                }
                indexed[number] = true;
            });
            list.checkInvariants("deferred-lru cache", entry -> indexed[entry]);
            int pooled = 0;
            for (int top = (int) poolHead.get(); top != EMPTY_POOL && pooled <= capacity; top = poolNext[top - 1]) {
                if (indexed[top - 1]) {
                    throw new IllegalStateException("deferred-lru cache: entry " + (top - 1) + " is both indexed and pooled");
                }
                pooled++;
            }
            if (pooled + index.size() != capacity || pooled != this.pooled.get()) {
                throw new IllegalStateException("deferred-lru cache: " + pooled + " pooled (counted " + this.pooled.get()
                    + ") and " + index.size() + " indexed entries, capacity " + capacity);
            }
        } finally {
            list.unlock();
        }
    }
}
