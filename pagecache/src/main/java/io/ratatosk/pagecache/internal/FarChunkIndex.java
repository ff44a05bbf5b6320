package io.ratatosk.pagecache.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A {@link TranslationTable}'s far chunks by chunk number, for lookups that allocate nothing: an open-addressing hash of
 * primitive keys, added to under the table's lock and read without one. (The table's ordered map of them, kept for
 * walks, takes a boxed key: a lookup there allocated on every read of a far page.) Chunks are never removed.
 */
final class FarChunkIndex {
    private static final VarHandle KEY = MethodHandles.arrayElementVarHandle(long[].class);
    private static final int INITIAL_SLOTS = 16;

    /** Replaced by a larger copy when half full; a reader holding the old one finds every chunk added before. */
    private volatile Slots slots = new Slots(INITIAL_SLOTS);

    /** The chunk numbered {@code chunkIndex}, or null if it was never added. */
    int[] get(long chunkIndex) {
        return slots.get(chunkIndex + 1);
    }

    /** Adds a chunk not added before. Under the table's lock: one writer at a time. */
    void add(long chunkIndex, int[] chunk) {
        Slots s = slots;
        if (2 * (s.size + 1) > s.keys.length) {
            Slots grown = new Slots(2 * s.keys.length);
            for (int i = 0; i < s.keys.length; i++) {
                if (s.keys[i] != 0) {
                    grown.put(s.keys[i], s.chunks[i]);
                }
            }
            grown.put(chunkIndex + 1, chunk);
            slots = grown; // published whole
        } else {
            s.put(chunkIndex + 1, chunk);
        }
    }

    /** Keys are chunk number + 1, so that 0 marks a free slot; never more than half full, so a probe ends. */
    private static final class Slots {
        final long[] keys;
        final int[][] chunks;
        int size;

        Slots(int length) {
            keys = new long[length];
            chunks = new int[length][];
        }

        int[] get(long key) {
            int mask = keys.length - 1;
            for (int i = slotOf(key, mask); ; i = (i + 1) & mask) {
                long k = (long) KEY.getAcquire(keys, i);
                if (k == key) {
                    return chunks[i]; // written before the key was released
                }
                if (k == 0) {
                    return null;
                }
            }
        }

        void put(long key, int[] chunk) {
            int mask = keys.length - 1;
            int i = slotOf(key, mask);
            while (keys[i] != 0) {
                i = (i + 1) & mask;
            }
            chunks[i] = chunk;
            KEY.setRelease(keys, i, key); // after the chunk: a reader that sees the key sees its chunk
            size++;
        }

        private static int slotOf(long key, int mask) {
            return (int) ((key * 0x9E3779B97F4A7C15L) >>> 32) & mask; // far chunk numbers are often multiples of a stride
        }
    }
}
