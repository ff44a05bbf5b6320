package io.ratatosk.bench.ldbc.store;

import io.ratatosk.core.PageKey;

/**
 * The id index: an open-addressing hash table with linear probing from (id space, LDBC id) to node
 * id, living in its own paged file so that its pages compete for frames like every other page.
 * Page 0 is a header; slots of 16 bytes (key, node id) fill the pages from page 1 on. The capacity
 * is a power of two at least twice the number of keys, so probe runs stay short. Key 0 marks an
 * empty slot: no real key is 0, because every id space is at least 1.
 */
final class IdIndexLayout {
    static final long MAGIC = 0x524154415f494458L; // "RATA_IDX"
    static final int HEADER_MAGIC = 0;
    static final int HEADER_CAPACITY = 8;
    static final int HEADER_SIZE = 16;

    static final int SLOT_SIZE = 16;
    static final int SLOT_KEY = 0;
    static final int SLOT_NODE = 8;
    static final int SLOTS_PER_PAGE = StoreFile.PAGE_SIZE / SLOT_SIZE;

    /** LDBC ids must fit below the id space's bits. */
    static final int ID_BITS = 56;
    static final long MAX_LDBC_ID = (1L << ID_BITS) - 1;

    private IdIndexLayout() {
    }

    static long key(Label label, long ldbcId) {
        return ((long) label.idSpace() << ID_BITS) | ldbcId;
    }

    static long firstSlot(long key, long capacity) {
        return PageKey.hash(key) & (capacity - 1);
    }

    static long pageOfSlot(long slot) {
        return 1 + slot / SLOTS_PER_PAGE;
    }

    static int offsetOfSlot(long slot) {
        return (int) (slot % SLOTS_PER_PAGE) * SLOT_SIZE;
    }

    /** The smallest power of two at least twice {@code keys}, at least one page of slots. */
    static long capacityFor(long keys) {
        long c = SLOTS_PER_PAGE;
        while (c < 2 * keys) {
            c <<= 1;
        }
        return c;
    }
}
