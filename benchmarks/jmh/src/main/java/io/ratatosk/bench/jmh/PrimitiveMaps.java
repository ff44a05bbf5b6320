package io.ratatosk.bench.jmh;

import io.ratatosk.bench.sim.LongIntHashMap;
import io.ratatosk.bench.sim.Trace;
import io.ratatosk.pagecache.writeaware.IdIndex;
import io.ratatosk.pagecache.writeaware.WriteAwareEviction;
import io.ratatosk.policies.ExactHistoryPolicy;
import io.ratatosk.policies.PageKeyTable;
import io.ratatosk.policies.clockpro.GhostIndex;
import org.agrona.collections.Int2IntHashMap;
import org.agrona.collections.Long2LongHashMap;

/**
 * The four single-threaded primitive maps {@link PrimitiveMapBenchmark} compares, each as the operations its
 * owner calls: ours (the map itself, public for this benchmark alone) and agrona's nearest map behind the same
 * operations. A fork loads one side only, so every call below stays monomorphic and is inlined.
 *
 * <p>Agrona's maps are sized as ours: the same number of cells (a power of two) at a load factor of 1/2, so
 * that neither probes longer or holds less, and none of them resizes where ours is fixed. Agrona marks an
 * empty cell by its missing value, so that value is the one that can never be stored: the sentinel ours
 * returns for an absent key.
 */
public final class PrimitiveMaps {
    /** Agrona's maps at ours' load factor. */
    static final float LOAD_FACTOR = 0.5f;

    private PrimitiveMaps() {
    }

    /** {@code ExactHistoryPolicy}'s key table: page key to its latest ring entry. */
    public interface HistoryTable {
        /** What {@link #get} and {@link #remove} return for an absent key. */
        long ABSENT = Long.MIN_VALUE;

        long get(long key);

        void put(long key, long value);

        long remove(long key);
    }

    /** CLOCK-Pro's ghosts: a slot per ghost holding its key, found by key. */
    public interface GhostSlots {
        int NONE = -1;

        /** Takes a free slot for {@code key}, which must have no ghost. */
        int add(long key);

        int slotOf(long key);

        long keyAt(int slot);

        void remove(int slot);

        boolean overCapacity();

        /** Slots there are: the capacity plus one. */
        int slots();
    }

    /** ARI's shadow clock index: a sampled page's id (never 0) to its shadow slot. */
    public interface ShadowIndex {
        /** The slot of {@code id}, or -1. */
        int get(int id);

        /** Adds {@code id}, which must be absent. */
        void put(int id, int slot);

        /** Removes {@code id}, which must be present. */
        void remove(int id);
    }

    /** The simulator's trace builder: a raw trace key to a dense id, assigned in first-seen order. */
    public interface TraceIds {
        int idOf(long key);

        int size();
    }

    /** {@link HistoryTable} on agrona's {@link Long2LongHashMap}. */
    static final class AgronaHistoryTable implements HistoryTable {
        private final Long2LongHashMap map;

        AgronaHistoryTable(int cells) {
            map = new Long2LongHashMap(cells, LOAD_FACTOR, ABSENT);
        }

        @Override
        public long get(long key) {
            return map.get(key);
        }

        @Override
        public void put(long key, long value) {
            map.put(key, value);
        }

        @Override
        public long remove(long key) {
            return map.remove(key);
        }
    }

    /**
     * {@link GhostSlots} with agrona's {@link Long2LongHashMap} from key to slot as the index; the slots and their
     * free list are the same arrays as {@code GhostIndex}'s, which agrona has no counterpart of.
     */
    static final class AgronaGhostSlots implements GhostSlots {
        private final int capacity;
        private final long[] keys;
        private final int[] nextFree;
        private final Long2LongHashMap index;
        private int freeHead;

        AgronaGhostSlots(int capacity, int cells) {
            this.capacity = capacity;
            int slots = capacity + 1;
            keys = new long[slots];
            nextFree = new int[slots];
            for (int s = 0; s < slots; s++) {
                nextFree[s] = s + 1 < slots ? s + 1 : NONE;
            }
            index = new Long2LongHashMap(cells, LOAD_FACTOR, NONE);
        }

        @Override
        public int add(long key) {
            if (index.get(key) != NONE) {
                throw new IllegalStateException("key " + key + " already has a ghost");
            }
            if (freeHead == NONE) {
                throw new IllegalStateException("no free ghost slot: " + index.size() + " ghosts, capacity " + capacity);
            }
            int slot = freeHead;
            freeHead = nextFree[slot];
            keys[slot] = key;
            index.put(key, slot);
            return slot;
        }

        @Override
        public int slotOf(long key) {
            return (int) index.get(key);
        }

        @Override
        public long keyAt(int slot) {
            return keys[slot];
        }

        @Override
        public void remove(int slot) {
            index.remove(keys[slot]);
            keys[slot] = 0;
            nextFree[slot] = freeHead;
            freeHead = slot;
        }

        @Override
        public boolean overCapacity() {
            return index.size() > capacity;
        }

        @Override
        public int slots() {
            return keys.length;
        }
    }

    /** {@link ShadowIndex} on agrona's {@link Int2IntHashMap}. */
    static final class AgronaShadowIndex implements ShadowIndex {
        private final Int2IntHashMap map;

        AgronaShadowIndex(int cells) {
            map = new Int2IntHashMap(cells, LOAD_FACTOR, -1);
        }

        @Override
        public int get(int id) {
            return map.get(id);
        }

        @Override
        public void put(int id, int slot) {
            map.put(id, slot);
        }

        @Override
        public void remove(int id) {
            map.remove(id);
        }
    }

    /**
     * {@link TraceIds} on agrona's {@link Long2LongHashMap} (agrona has no long-to-int map): a lookup, and a put
     * of the next id on a miss; it grows, as ours does, when half full.
     */
    static final class AgronaTraceIds implements TraceIds {
        private final Long2LongHashMap map;

        AgronaTraceIds(int cells) {
            map = new Long2LongHashMap(cells, LOAD_FACTOR, -1);
        }

        @Override
        public int idOf(long key) {
            long id = map.get(key);
            if (id != -1) {
                return (int) id;
            }
            int next = map.size();
            map.put(key, next);
            return next;
        }

        @Override
        public int size() {
            return map.size();
        }
    }

    /** {@link HistoryTable} on our {@link PageKeyTable}, sized as {@code ExactHistoryPolicy} sizes it. */
    static final class OurHistoryTable implements HistoryTable {
        private final PageKeyTable table;

        OurHistoryTable(int capacity) {
            table = new PageKeyTable(ringBound(capacity));
        }

        /** Ring entries, and so keys at most, of an exact history of {@code capacity} entries. */
        static int ringBound(int capacity) {
            return ExactHistoryPolicy.ringBound(capacity);
        }

        /** The table's cells for an exact history of {@code capacity} entries. */
        static int cells(int capacity) {
            return PageKeyTable.cellsFor(ringBound(capacity));
        }

        @Override
        public long get(long key) {
            return table.get(key);
        }

        @Override
        public void put(long key, long value) {
            table.put(key, value);
        }

        @Override
        public long remove(long key) {
            return table.remove(key);
        }
    }

    /** {@link GhostSlots} on CLOCK-Pro's {@link GhostIndex}. */
    static final class OurGhostSlots implements GhostSlots {
        private final GhostIndex ghosts;

        OurGhostSlots(int capacity) {
            ghosts = new GhostIndex(capacity);
        }

        /** The index cells of {@code capacity} ghosts. */
        static int cells(int capacity) {
            return GhostIndex.cellsFor(capacity);
        }

        @Override
        public int add(long key) {
            return ghosts.add(key);
        }

        @Override
        public int slotOf(long key) {
            return ghosts.slotOf(key);
        }

        @Override
        public long keyAt(int slot) {
            return ghosts.keyAt(slot);
        }

        @Override
        public void remove(int slot) {
            ghosts.remove(slot);
        }

        @Override
        public boolean overCapacity() {
            return ghosts.overCapacity();
        }

        @Override
        public int slots() {
            return ghosts.slots();
        }
    }

    /** {@link ShadowIndex} on the shadow clocks' {@link IdIndex}, sized as ARI sizes its shadows. */
    static final class OurShadowIndex implements ShadowIndex {
        private final IdIndex index;

        OurShadowIndex(int maxEntries) {
            index = new IdIndex(maxEntries);
        }

        /** Pages per shadow clock of a cache of {@code frames} frames. */
        static int shadowFrames(int frames) {
            return WriteAwareEviction.shadowFrames(frames);
        }

        /** The cells of an index for {@code maxEntries} ids. */
        static int cells(int maxEntries) {
            return IdIndex.cellsFor(maxEntries);
        }

        @Override
        public int get(int id) {
            return index.get(id);
        }

        @Override
        public void put(int id, int slot) {
            index.put(id, slot);
        }

        @Override
        public void remove(int id) {
            index.remove(id);
        }
    }

    /** {@link TraceIds} on the simulator's {@link LongIntHashMap}, sized as {@link Trace}'s builder sizes it. */
    static final class OurTraceIds implements TraceIds {
        private final LongIntHashMap map;

        /** The map of a trace builder expecting {@code expectedRequests} requests. */
        OurTraceIds(int expectedRequests) {
            map = new LongIntHashMap(expectedKeys(expectedRequests));
        }

        /** The distinct keys the builder sizes its map for. */
        static int expectedKeys(int expectedRequests) {
            return Trace.Builder.expectedKeys(expectedRequests);
        }

        /** The cells of a map sized for {@code expectedKeys}. */
        static int cells(int expectedKeys) {
            return LongIntHashMap.capacityFor(expectedKeys);
        }

        @Override
        public int idOf(long key) {
            return map.idOf(key);
        }

        @Override
        public int size() {
            return map.size();
        }
    }
}
