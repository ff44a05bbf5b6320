package io.ratatosk.policies.deferredlru;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.Waits;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class DeferredLruCacheTest {
    /** A value that says which key it belongs to, so a wrong or torn answer shows. */
    private record Value(int key, long stamp) {
    }

    @Test
    void getPutAndComputeIfAbsentMemoize() {
        DeferredLruCache<String, Integer> cache = new DeferredLruCache<>(4);
        assertNull(cache.get("a"));
        cache.put("a", 1);
        assertEquals(1, cache.get("a"));
        cache.put("a", 2);
        assertEquals(2, cache.get("a"));
        AtomicInteger calls = new AtomicInteger();
        assertEquals(3, cache.computeIfAbsent("b", k -> 3 + 0 * calls.incrementAndGet()));
        assertEquals(3, cache.computeIfAbsent("b", k -> 99 + 0 * calls.incrementAndGet()));
        assertEquals(1, calls.get(), "computed once");
        assertNull(cache.computeIfAbsent("c", k -> null));
        assertNull(cache.get("c"), "a null result is not cached");
        assertEquals(2, cache.size());
        cache.checkInvariants();
    }

    @Test
    void evictsInLruOrderFromOneThreadAtPullThresholdOne() {
        DeferredLruCache<Integer, Integer> cache = new DeferredLruCache<>(3, 1, 1);
        cache.put(1, 1);
        cache.put(2, 2);
        cache.put(3, 3);
        cache.get(1);
        cache.put(4, 4); // 2 is least recently used
        assertEquals(List.of(4, 1, 3), cache.lruOrder());
        cache.get(3);
        cache.put(5, 5); // 1
        cache.put(6, 6); // 4
        assertEquals(List.of(6, 5, 3), cache.lruOrder());
        assertNull(cache.get(1));
        assertNull(cache.get(2));
        assertNull(cache.get(4));
        cache.checkInvariants();
    }

    @Test
    void evictsTheLeastRecentlyUsedFirstWithDeferredPullsToo() {
        DeferredLruCache<Integer, Integer> cache = new DeferredLruCache<>(4, 4, 1);
        for (int key = 1; key <= 4; key++) {
            cache.put(key, key);
        }
        cache.get(1); // in Recent, not yet pulled: spared by the purge all the same
        cache.put(5, 5);
        assertNull(cache.get(2), "2 was the oldest entry not in Recent");
        assertEquals(1, cache.get(1));
        cache.put(6, 6);
        assertNull(cache.get(3));
        cache.checkInvariants();
    }

    @Test
    void neverHoldsMoreThanItsCapacity() {
        DeferredLruCache<Integer, Integer> cache = new DeferredLruCache<>(16);
        for (int key = 0; key < 1000; key++) {
            cache.computeIfAbsent(key, k -> k * 2);
            assertTrue(cache.size() <= 16);
        }
        assertEquals(16, cache.size());
        cache.checkInvariants();
    }

    @Test
    void aCacheOfOneEntryKeepsTheLatest() {
        DeferredLruCache<Integer, Integer> cache = new DeferredLruCache<>(1, 1, 1);
        cache.put(1, 1);
        cache.put(2, 2);
        assertNull(cache.get(1));
        assertEquals(2, cache.get(2));
        cache.checkInvariants();
    }

    /**
     * A key whose {@code failAt}-th call of hashCode or equals, counted together, throws: a transient failure (as of an
     * index that could not allocate); every other call works.
     */
    private static final class FailingKey {
        private final int id;
        private final int failAt;
        private int calls;

        FailingKey(int id, int failAt) {
            this.id = id;
            this.failAt = failAt;
        }

        @Override
        public int hashCode() {
            if (++calls == failAt) {
                throw new IllegalStateException("hashCode of key " + id + " failed");
            }
            return id;
        }

        @Override
        public boolean equals(Object other) {
            if (++calls == failAt) {
                throw new IllegalStateException("equals of key " + id + " failed");
            }
            return other instanceof FailingKey key && key.id == id;
        }
    }

    /**
     * An insert whose index update throws (the key's hashCode or equals, or the map's node allocation) leaves the entry
     * it took from the pool unused: it must go back. It stayed claimed, in neither the pool nor the LRU list, for good:
     * size() read one high from then on, and in a cache of one entry every later insert waited forever for an entry.
     */
    @Test
    void anInsertWhoseIndexUpdateThrowsGivesItsEntryBack() throws Exception {
        DeferredLruCache<FailingKey, Integer> cache = new DeferredLruCache<>(1, 1, 1);
        FailingKey broken = new FailingKey(1, 2); // the lookup hashes it once; the index's insert, the second time, throws
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> cache.put(broken, 1));
        assertEquals("hashCode of key 1 failed", thrown.getMessage(), "the key's own exception, as it was");
        assertEquals(0, cache.size(), "the failed insert holds no entry");
        cache.checkInvariants();
        FailingKey next = new FailingKey(2, 0);
        Thread insert = new Thread(() -> cache.put(next, 2));
        insert.setDaemon(true); // spins if the entry is lost: must not keep the JVM alive
        insert.start();
        insert.join(TimeUnit.MINUTES.toMillis(1));
        assertFalse(insert.isAlive(), "the next insert still waits for the cache's one entry");
        assertEquals(2, cache.get(next));
        cache.checkInvariants();
    }

    /**
     * An eviction whose index update throws (the evicted key's hashCode or equals) leaves the entry as it was: cached,
     * unlocked, and the exception goes to the insert that needed the room. The entry stayed write-locked for good: a get
     * or put of its key spun forever on the lock, and no purge could take it again (in a cache of one entry, every later
     * insert spun forever too).
     */
    @Test
    void anEvictionWhoseIndexUpdateThrowsLeavesTheEntryUsable() throws Exception {
        DeferredLruCache<FailingKey, Integer> cache = new DeferredLruCache<>(1, 1, 1);
        FailingKey evicted = new FailingKey(1, 3); // hashed by put's lookup and the index's insert; the eviction's remove throws
        cache.put(evicted, 1);
        FailingKey newer = new FailingKey(2, 0);
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> cache.put(newer, 2));
        assertEquals("hashCode of key 1 failed", thrown.getMessage());
        cache.checkInvariants();
        Integer[] read = new Integer[1];
        Thread reader = new Thread(() -> {
            read[0] = cache.get(evicted);
            cache.put(newer, 2); // evicts it, its hashCode working again
        });
        reader.setDaemon(true); // spins on a locked entry before the fix: must not keep the JVM alive
        reader.start();
        reader.join(TimeUnit.MINUTES.toMillis(1));
        assertFalse(reader.isAlive(), "a get or put still spins on the entry whose eviction failed");
        assertEquals(1, read[0], "the entry kept its pair");
        assertEquals(2, cache.get(newer));
        assertNull(cache.get(evicted));
        cache.checkInvariants();
    }

    /** As an eviction's: a put whose key's equals throws while it holds the entry to replace its value. */
    @Test
    void aReplaceWhoseKeysEqualsThrowsLeavesTheEntryUsable() throws Exception {
        DeferredLruCache<FailingKey, Integer> cache = new DeferredLruCache<>(2);
        FailingKey key = new FailingKey(1, 4); // two hashes to insert, one to look it up again, then replace's equals
        cache.put(key, 1);
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> cache.put(key, 2));
        assertEquals("equals of key 1 failed", thrown.getMessage());
        Integer[] read = new Integer[1];
        Thread reader = new Thread(() -> read[0] = cache.get(key));
        reader.setDaemon(true); // spins on a locked entry before the fix: must not keep the JVM alive
        reader.start();
        reader.join(TimeUnit.MINUTES.toMillis(1));
        assertFalse(reader.isAlive(), "a get still spins on the entry whose replace failed");
        assertEquals(1, read[0], "the value the failed put did not replace");
        cache.checkInvariants();
    }

    /**
     * The entries a purge evicted before one of its evictions threw are in the pool when the exception leaves. Since
     * purges hand their entries over in one step at the end (407b0d1), they stayed out of both the pool and the list
     * until the next purge: size() read them as held and checkInvariants failed.
     */
    @Test
    void anEvictionThatThrowsMidPurgePoolsTheEntriesEvictedBeforeIt() {
        DeferredLruCache<FailingKey, Integer> cache = new DeferredLruCache<>(3, 1, 3);
        FailingKey oldest = new FailingKey(1, 0);
        FailingKey failing = new FailingKey(2, 3); // the purge's remove, after the oldest's, is its third hash
        cache.put(oldest, 1);
        cache.put(failing, 2);
        cache.put(new FailingKey(3, 0), 3);
        assertThrows(IllegalStateException.class, () -> cache.put(new FailingKey(4, 0), 4));
        assertNull(cache.get(oldest), "evicted before the failure");
        assertEquals(2, cache.size(), "two entries hold keys; the oldest's is back in the pool");
        cache.checkInvariants();
    }

    @Test
    void badSizesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new DeferredLruCache<>(0));
        // Past an array's reach: refused by name, where the arrays' sizes once overflowed (NegativeArraySizeException).
        IllegalArgumentException tooLarge = assertThrows(IllegalArgumentException.class,
            () -> new DeferredLruCache<>(Integer.MAX_VALUE));
        assertTrue(tooLarge.getMessage().contains("capacity=" + Integer.MAX_VALUE), tooLarge.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new DeferredLruCache<>(10, 11, 1));
        assertThrows(IllegalArgumentException.class, () -> new DeferredLruCache<>(10, 1, 0));
    }

    /**
     * Eight threads hammer a cache of 64 entries with 512 keys (so entries are recycled all the
     * time) through get, put and computeIfAbsent; every value carries its key. No answer may belong
     * to another key, the size may never pass the capacity, and the structures must agree after.
     */
    @Test
    void concurrentGetAndPutUnderContentionNeverReturnAWrongValueNorExceedTheCapacity() throws Exception {
        int threads = 8;
        int capacity = 64;
        int keys = 512;
        for (int[] thresholds : new int[][] {{32, 1}, {1, 1}, {60, 16}}) {
            DeferredLruCache<Integer, Value> cache = new DeferredLruCache<>(capacity, thresholds[0], thresholds[1]);
            AtomicLong stamps = new AtomicLong();
            AtomicInteger oversize = new AtomicInteger();
            CyclicBarrier start = new CyclicBarrier(threads);
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<Long>> futures = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    long seed = t;
                    futures.add(pool.submit(() -> {
                        SplittableRandom random = new SplittableRandom(seed);
                        start.await();
                        long hits = 0;
                        for (int op = 0; op < 40_000; op++) {
                            int key = random.nextInt(8) == 0 ? random.nextInt(keys) : random.nextInt(keys / 8);
                            Value value;
                            switch (random.nextInt(3)) {
                                case 0 -> value = cache.get(key);
                                case 1 -> {
                                    cache.put(key, new Value(key, stamps.incrementAndGet()));
                                    value = null;
                                }
                                default -> value = cache.computeIfAbsent(key, k -> new Value(k, stamps.incrementAndGet()));
                            }
                            if (value != null) {
                                hits++;
                                if (value.key() != key) {
                                    throw new AssertionError("asked for " + key + ", got the value of " + value.key());
                                }
                            }
                            if (cache.size() > capacity) {
                                oversize.incrementAndGet();
                            }
                        }
                        return hits;
                    }));
                }
                long hits = 0;
                for (Future<Long> future : futures) {
                    hits += future.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS);
                }
                assertTrue(hits > 0);
            } finally {
                pool.shutdownNow();
            }
            assertEquals(0, oversize.get(), "size above capacity");
            assertTrue(cache.size() <= capacity);
            cache.checkInvariants();
        }
    }
}
