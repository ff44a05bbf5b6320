package io.ratatosk.bench.sim;

import java.util.Arrays;

/**
 * Belady's MIN without bypass: on a miss with a full cache, evict the resident key whose next use
 * is farthest away (never again counts as farthest), then admit the missed key. The resident keys
 * sit in an indexed binary max-heap keyed by next use; a hit only ever moves a key's next use
 * later, so it sifts up; an eviction replaces the root and sifts down. O(log capacity) a request,
 * no allocation after start.
 */
public final class OptSimulator implements PolicySimulator {
    @Override
    public Outcome run(Trace trace, int capacity, Progress progress, int timelineBucket) {
        int[] keys = trace.keys();
        ReplayTicks ticks = new ReplayTicks(progress, timelineBucket, keys.length);
        int[] nextUse = trace.nextUse();
        int heapCapacity = Math.min(capacity, trace.distinct());
        int[] heapKey = new int[heapCapacity];
        int[] heapNext = new int[heapCapacity];
        int[] slotOf = new int[trace.distinct()];
        Arrays.fill(slotOf, -1);
        int size = 0;
        long hits = 0;
        for (int i = 0; i < keys.length; i++) {
            int k = keys[i];
            int next = nextUse[i];
            int slot = slotOf[k];
            if (slot >= 0) {
                hits++;
                heapNext[slot] = next;
                siftUp(slot, heapKey, heapNext, slotOf);
            } else if (size < capacity) {
                heapKey[size] = k;
                heapNext[size] = next;
                slotOf[k] = size;
                siftUp(size++, heapKey, heapNext, slotOf);
            } else {
                slotOf[heapKey[0]] = -1;
                heapKey[0] = k;
                heapNext[0] = next;
                slotOf[k] = 0;
                siftDown(0, size, heapKey, heapNext, slotOf);
            }
            if (i + 1 == ticks.next()) {
                ticks.tick(i + 1, hits);
            }
        }
        long[] timeline = ticks.finish(keys.length, hits);
        checkHeap(size, heapKey, heapNext, slotOf);
        return new Outcome(hits, "", timeline);
    }

    private static void siftUp(int slot, int[] heapKey, int[] heapNext, int[] slotOf) {
        int key = heapKey[slot];
        int next = heapNext[slot];
        while (slot > 0) {
            int parent = (slot - 1) >>> 1;
            if (heapNext[parent] >= next) {
                break;
            }
            move(parent, slot, heapKey, heapNext, slotOf);
            slot = parent;
        }
        place(slot, key, next, heapKey, heapNext, slotOf);
    }

    private static void siftDown(int slot, int size, int[] heapKey, int[] heapNext, int[] slotOf) {
        int key = heapKey[slot];
        int next = heapNext[slot];
        while (true) {
            int child = 2 * slot + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && heapNext[child + 1] > heapNext[child]) {
                child++;
            }
            if (heapNext[child] <= next) {
                break;
            }
            move(child, slot, heapKey, heapNext, slotOf);
            slot = child;
        }
        place(slot, key, next, heapKey, heapNext, slotOf);
    }

    private static void move(int from, int to, int[] heapKey, int[] heapNext, int[] slotOf) {
        heapKey[to] = heapKey[from];
        heapNext[to] = heapNext[from];
        slotOf[heapKey[to]] = to;
    }

    private static void place(int slot, int key, int next, int[] heapKey, int[] heapNext, int[] slotOf) {
        heapKey[slot] = key;
        heapNext[slot] = next;
        slotOf[key] = slot;
    }

    /** Heap order and the key-to-slot index must agree once the run ends. */
    private static void checkHeap(int size, int[] heapKey, int[] heapNext, int[] slotOf) {
        for (int s = 0; s < size; s++) {
            if (slotOf[heapKey[s]] != s) {
                throw new IllegalStateException("opt heap slot " + s + " holds key " + heapKey[s]
                    + " but the index says slot " + slotOf[heapKey[s]]);
            }
            if (s > 0 && heapNext[(s - 1) >>> 1] < heapNext[s]) {
                throw new IllegalStateException("opt heap order broken at slot " + s);
            }
        }
    }
}
