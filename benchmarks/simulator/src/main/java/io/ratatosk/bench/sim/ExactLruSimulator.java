package io.ratatosk.bench.sim;

/**
 * Exact LRU, the reference column: an intrusive doubly linked list over int arrays indexed by the
 * dense key, most recent first, with a sentinel at index {@code distinct}. A hit moves the key to
 * the front; a miss with a full cache evicts the back.
 */
final class ExactLruSimulator implements PolicySimulator {
    @Override
    public Outcome run(Trace trace, int capacity, Progress progress, int timelineBucket) {
        int[] keys = trace.keys();
        ReplayTicks ticks = new ReplayTicks(progress, timelineBucket, keys.length);
        int head = trace.distinct();
        int[] prev = new int[head + 1];
        int[] next = new int[head + 1];
        boolean[] resident = new boolean[head];
        prev[head] = head;
        next[head] = head;
        int size = 0;
        long hits = 0;
        for (int i = 0; i < keys.length; i++) {
            int k = keys[i];
            if (resident[k]) {
                hits++;
                if (next[head] != k) {
                    next[prev[k]] = next[k];
                    prev[next[k]] = prev[k];
                    linkFront(k, head, prev, next);
                }
            } else {
                if (size == capacity) {
                    int victim = prev[head];
                    next[prev[victim]] = head;
                    prev[head] = prev[victim];
                    resident[victim] = false;
                } else {
                    size++;
                }
                linkFront(k, head, prev, next);
                resident[k] = true;
            }
            if (i + 1 == ticks.next()) {
                ticks.tick(i + 1, hits);
            }
        }
        long[] timeline = ticks.finish(keys.length, hits);
        checkList(head, prev, next, resident, size);
        return new Outcome(hits, "", timeline);
    }

    private static void linkFront(int k, int head, int[] prev, int[] next) {
        int first = next[head];
        next[k] = first;
        prev[k] = head;
        prev[first] = k;
        next[head] = k;
    }

    /** The list must hold exactly the resident keys, linked consistently both ways. */
    private static void checkList(int head, int[] prev, int[] next, boolean[] resident, int size) {
        int count = 0;
        for (int k = next[head]; k != head; k = next[k]) {
            if (!resident[k] || next[prev[k]] != k || ++count > size) {
                throw new IllegalStateException("lru list corrupt at key " + k + " after " + count + " entries");
            }
        }
        if (count != size) {
            throw new IllegalStateException("lru list holds " + count + " keys, expected " + size);
        }
    }
}
