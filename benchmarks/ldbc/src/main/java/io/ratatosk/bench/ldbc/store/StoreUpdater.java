package io.ratatosk.bench.ldbc.store;

import static io.ratatosk.bench.ldbc.store.GraphStore.NONE;

import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Inserts into an open {@link GraphStore} while it is being read: new nodes (with their property
 * chain, long strings and id index entry) and new relationships, each linked into both nodes'
 * chains at the head of the run of its type, so chains stay grouped by type. Every record is
 * written through a {@code PF_SHARED_WRITE_LOCK} cursor that is closed right after, so pages get
 * dirty and eviction has to write them back; reads (chain walks) go through optimistic cursors.
 *
 * <p>An insert becomes visible to readers with {@link #publish()}, which hands the store its new
 * record counts (readers take them with {@link StoreReader#refresh()}). One updater per store,
 * single-threaded; callers keep readers out while an update is half done (the runner holds a write
 * lock around each update).
 */
public final class StoreUpdater implements AutoCloseable {
    /** Inserts stop before the id index is this full, so that its probe runs stay short. */
    private static final double MAX_INDEX_LOAD = 0.75;

    private final GraphStore store;
    private final PinRecorder recorder;
    /** Read cursors, opened when first needed and closed by {@link #publish()}, which publishes their counts. */
    private StoreCursor nodes;
    private StoreCursor rels;
    private StoreReader reader;
    private long nodeCount;
    private long relCount;
    private long propCount;
    private long stringCount;
    private long indexKeys;
    private long minMessageDate;
    private long maxMessageDate;

    StoreUpdater(GraphStore store, PinRecorder recorder) throws IOException {
        this.store = store;
        this.recorder = recorder;
        StoreMeta m = store.meta();
        nodeCount = m.nodes();
        relCount = m.relationships();
        propCount = m.properties();
        stringCount = m.stringBlocks();
        indexKeys = m.indexKeys();
        minMessageDate = m.minMessageDate();
        maxMessageDate = m.maxMessageDate();
    }

    /** How many more nodes the id index of a store with {@code meta} takes: inserts stop at 75% of its slots. */
    public static long indexRoom(StoreMeta meta) {
        return Math.max(0, (long) Math.floor(meta.indexCapacity() * MAX_INDEX_LOAD) - meta.indexKeys());
    }

    /** The node with this label and LDBC id, as of the last {@link #publish()} and this updater's own inserts. */
    public int nodeById(Label label, long ldbcId) throws IOException {
        return reader().nodeById(label, ldbcId);
    }

    /** The label of an existing node. */
    public Label label(int node) throws IOException {
        return reader().label(node);
    }

    /** A reader that sees this updater's inserts (for checks before an insert). */
    public StoreReader reader() throws IOException {
        if (reader == null) {
            reader = store.newReader();
        }
        reader.refreshTo(currentMeta());
        return reader;
    }

    private void openCursors() throws IOException {
        if (nodes == null) {
            nodes = new StoreCursor(store.file(StoreFile.NODES), StoreFile.NODES, recorder);
            rels = new StoreCursor(store.file(StoreFile.RELATIONSHIPS), StoreFile.RELATIONSHIPS, recorder);
        }
    }

    // ---- nodes -----------------------------------------------------------------------------------

    /**
     * Appends a node with its LDBC id (the first property, then {@code properties} in order) and
     * files it in the id index.
     *
     * @return the node id, or {@link GraphStore#NONE} if the id space of {@code label} has this id
     *         already (nothing is written then)
     */
    public int addNode(Label label, long ldbcId, PropertyBatch properties) throws IOException {
        if (ldbcId < 0 || ldbcId > IdIndexLayout.MAX_LDBC_ID) {
            throw new IllegalArgumentException("id " + ldbcId + " is outside [0, " + IdIndexLayout.MAX_LDBC_ID + "]");
        }
        long capacity = store.meta().indexCapacity();
        if (indexKeys + 1 > capacity * MAX_INDEX_LOAD) {
            throw new IllegalStateException("the id index of " + store.dir() + " holds " + indexKeys + " keys in "
                + capacity + " slots: no room for more than " + (long) (capacity * MAX_INDEX_LOAD) + " (the loader sizes it"
                + " for the nodes of the data set's update streams too: load it again with these streams in place, --reload)");
        }
        if (nodeById(label, ldbcId) != NONE) {
            return NONE;
        }
        checkIdSpace(nodeCount + 1, "nodes");
        int node = (int) nodeCount;
        int firstProp = writeProperties(ldbcId, properties);
        try (PageCursor c = writeCursor(StoreFile.NODES, node)) {
            int off = StoreFile.NODES.offsetOf(node);
            c.putByte(off + NodeRecord.IN_USE, (byte) 1);
            c.putByte(off + NodeRecord.LABEL, (byte) label.code());
            c.putInt(off + NodeRecord.FIRST_REL, NONE);
            c.putInt(off + NodeRecord.FIRST_PROP, firstProp);
        }
        nodeCount++;
        indexInsert(IdIndexLayout.key(label, ldbcId), node, capacity);
        if (label.isMessage()) {
            long created = properties.find(PropertyKey.CREATION_DATE, Long.MIN_VALUE);
            if (created != Long.MIN_VALUE) {
                minMessageDate = minMessageDate == 0 ? created : Math.min(minMessageDate, created);
                maxMessageDate = Math.max(maxMessageDate, created);
            }
        }
        return node;
    }

    private void indexInsert(long key, int node, long capacity) throws IOException {
        long slot = IdIndexLayout.firstSlot(key, capacity);
        PagedFile file = store.file(StoreFile.ID_INDEX);
        while (true) {
            long page = IdIndexLayout.pageOfSlot(slot);
            int off = IdIndexLayout.offsetOfSlot(slot);
            try (PageCursor c = file.io(page, PagedFile.PF_SHARED_WRITE_LOCK)) {
                pin(c, StoreFile.ID_INDEX, page);
                if (c.getLong(off + IdIndexLayout.SLOT_KEY) == 0) {
                    c.putLong(off + IdIndexLayout.SLOT_KEY, key);
                    c.putInt(off + IdIndexLayout.SLOT_NODE, node);
                    break;
                }
            }
            slot = (slot + 1) & (capacity - 1);
        }
        indexKeys++;
        try (PageCursor c = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            pin(c, StoreFile.ID_INDEX, 0);
            c.putLong(IdIndexLayout.HEADER_SIZE, indexKeys);
        }
    }

    // ---- relationships -----------------------------------------------------------------------------

    /**
     * Appends a relationship from {@code start} to {@code end} and links it into both chains, at the
     * head of the run of its type (or at the head of the chain where the node has none of that type).
     */
    public int addRelationship(RelType type, int start, int end, PropertyBatch properties) throws IOException {
        if (start < 0 || start >= nodeCount || end < 0 || end >= nodeCount) {
            throw new IllegalArgumentException("relationship between " + start + " and " + end
                + ": node ids must be in [0, " + nodeCount + ")");
        }
        if (start == end) {
            throw new IllegalArgumentException("a relationship must join two different nodes: both ends are node " + start);
        }
        checkIdSpace(relCount + 1, "relationships");
        // Where it goes in each chain, read before anything is written.
        int[] atStart = insertionPoint(start, type);
        int[] atEnd = insertionPoint(end, type);
        int firstProp = properties == null || properties.size() == 0 ? NONE : writeProperties(-1, properties);
        int rel = (int) relCount;
        try (PageCursor c = writeCursor(StoreFile.RELATIONSHIPS, rel)) {
            int off = StoreFile.RELATIONSHIPS.offsetOf(rel);
            c.putByte(off + RelationshipRecord.IN_USE, (byte) 1);
            c.putByte(off + RelationshipRecord.TYPE, (byte) type.code());
            c.putInt(off + RelationshipRecord.START_NODE, start);
            c.putInt(off + RelationshipRecord.END_NODE, end);
            c.putInt(off + RelationshipRecord.START_PREV, atStart[0]);
            c.putInt(off + RelationshipRecord.START_NEXT, atStart[1]);
            c.putInt(off + RelationshipRecord.END_PREV, atEnd[0]);
            c.putInt(off + RelationshipRecord.END_NEXT, atEnd[1]);
            c.putInt(off + RelationshipRecord.FIRST_PROP, firstProp);
        }
        relCount++;
        link(start, rel, atStart);
        link(end, rel, atEnd);
        return rel;
    }

    /**
     * [previous, next] of a new relationship of {@code type} in {@code node}'s chain: before the first
     * relationship of that type, or at the head of the chain if there is none.
     */
    private int[] insertionPoint(int node, RelType type) throws IOException {
        int first = firstRel(node);
        int prev = NONE;
        int cur = first;
        long steps = 0;
        while (cur != NONE) {
            long[] r = readRel(cur);
            if (r[0] == type.code()) {
                return new int[] {prev, cur};
            }
            prev = cur;
            cur = (int) (r[1] == node ? r[3] : r[4]);
            if (++steps > relCount) {
                throw new IllegalStateException("damaged graph store " + store.dir() + ": the chain of node " + node
                    + " loops");
            }
        }
        return new int[] {NONE, first};
    }

    /** Points {@code node}'s chain at {@code rel} between the two neighbours of {@code at}. */
    private void link(int node, int rel, int[] at) throws IOException {
        int prev = at[0];
        int next = at[1];
        if (next != NONE) {
            setChainPointer(next, node, RelationshipRecord.START_PREV, RelationshipRecord.END_PREV, rel);
        }
        if (prev == NONE) {
            try (PageCursor c = writeCursor(StoreFile.NODES, node)) {
                c.putInt(StoreFile.NODES.offsetOf(node) + NodeRecord.FIRST_REL, rel);
            }
        } else {
            setChainPointer(prev, node, RelationshipRecord.START_NEXT, RelationshipRecord.END_NEXT, rel);
        }
    }

    /** Sets the pointer of {@code node}'s end of relationship {@code r}: {@code ifStart} or {@code ifEnd}. */
    private void setChainPointer(int r, int node, int ifStart, int ifEnd, int value) throws IOException {
        try (PageCursor c = writeCursor(StoreFile.RELATIONSHIPS, r)) {
            int off = StoreFile.RELATIONSHIPS.offsetOf(r);
            int startNode = c.getInt(off + RelationshipRecord.START_NODE);
            c.putInt(off + (startNode == node ? ifStart : ifEnd), value);
        }
    }

    private int firstRel(int node) throws IOException {
        openCursors();
        nodes.moveTo(StoreFile.NODES.pageOf(node));
        int off = StoreFile.NODES.offsetOf(node);
        int first;
        do {
            first = nodes.getInt(off + NodeRecord.FIRST_REL);
        } while (nodes.shouldRetry());
        return first;
    }

    /** [type, start, end, startNext, endNext] of relationship {@code rel}. */
    private long[] readRel(int rel) throws IOException {
        openCursors();
        if (!rels.moveTo(StoreFile.RELATIONSHIPS.pageOf(rel))) {
            throw new IllegalStateException("damaged graph store " + store.dir() + ": relationship " + rel
                + " lies past the end of its file");
        }
        int off = StoreFile.RELATIONSHIPS.offsetOf(rel);
        long type;
        long start;
        long end;
        long startNext;
        long endNext;
        do {
            type = rels.getByte(off + RelationshipRecord.TYPE);
            start = rels.getInt(off + RelationshipRecord.START_NODE);
            end = rels.getInt(off + RelationshipRecord.END_NODE);
            startNext = rels.getInt(off + RelationshipRecord.START_NEXT);
            endNext = rels.getInt(off + RelationshipRecord.END_NEXT);
        } while (rels.shouldRetry());
        return new long[] {type, start, end, startNext, endNext};
    }

    // ---- properties ------------------------------------------------------------------------------

    /** Appends a chain of consecutive property records: the LDBC id first unless negative, then the batch. */
    private int writeProperties(long ldbcId, PropertyBatch batch) throws IOException {
        int count = batch.size() + (ldbcId >= 0 ? 1 : 0);
        if (count == 0) {
            return NONE;
        }
        checkIdSpace(propCount + count, "property records");
        int first = (int) propCount;
        int written = 0;
        if (ldbcId >= 0) {
            writeProperty(PropertyKey.ID, ldbcId, null, ++written == count);
        }
        for (int i = 0; i < batch.size(); i++) {
            PropertyKey key = batch.key(i);
            boolean last = ++written == count;
            if (key.isNumeric()) {
                writeProperty(key, batch.longValue(i), null, last);
            } else {
                writeProperty(key, 0, batch.stringValue(i), last);
            }
        }
        return first;
    }

    private void writeProperty(PropertyKey key, long value, String text, boolean last) throws IOException {
        byte[] bytes = text == null ? null : text.getBytes(StandardCharsets.UTF_8);
        int firstBlock = bytes != null && bytes.length > PropertyRecord.INLINE_CAPACITY ? writeBlocks(bytes) : NONE;
        long id = propCount++;
        try (PageCursor c = writeCursor(StoreFile.PROPERTIES, id)) {
            int off = StoreFile.PROPERTIES.offsetOf(id);
            c.putByte(off + PropertyRecord.IN_USE, (byte) 1);
            c.putByte(off + PropertyRecord.KEY, (byte) key.code());
            c.putInt(off + PropertyRecord.NEXT, last ? NONE : (int) (id + 1));
            if (bytes == null) {
                c.putByte(off + PropertyRecord.VALUE_TYPE, (byte) PropertyRecord.LONG);
                c.putLong(off + PropertyRecord.VALUE, value);
            } else if (firstBlock == NONE) {
                c.putByte(off + PropertyRecord.VALUE_TYPE, (byte) PropertyRecord.INLINE_STRING);
                c.putByte(off + PropertyRecord.INLINE_LENGTH, (byte) bytes.length);
                c.putBytes(off + PropertyRecord.VALUE, bytes, 0, bytes.length);
            } else {
                c.putByte(off + PropertyRecord.VALUE_TYPE, (byte) PropertyRecord.DYNAMIC_STRING);
                c.putInt(off + PropertyRecord.DYNAMIC_FIRST_BLOCK, firstBlock);
                c.putInt(off + PropertyRecord.DYNAMIC_LENGTH, bytes.length);
            }
        }
    }

    private int writeBlocks(byte[] bytes) throws IOException {
        int blocks = (bytes.length + StringBlock.DATA_CAPACITY - 1) / StringBlock.DATA_CAPACITY;
        checkIdSpace(stringCount + blocks, "string blocks");
        int first = (int) stringCount;
        for (int b = 0; b < blocks; b++) {
            long id = stringCount++;
            int from = b * StringBlock.DATA_CAPACITY;
            int used = Math.min(StringBlock.DATA_CAPACITY, bytes.length - from);
            try (PageCursor c = writeCursor(StoreFile.STRINGS, id)) {
                int off = StoreFile.STRINGS.offsetOf(id);
                c.putInt(off + StringBlock.NEXT, b == blocks - 1 ? NONE : (int) (id + 1));
                c.putInt(off + StringBlock.USED, used);
                c.putBytes(off + StringBlock.DATA, bytes, from, used);
            }
        }
        return first;
    }

    // ---- publishing --------------------------------------------------------------------------------

    private StoreMeta currentMeta() {
        StoreMeta m = store.meta();
        return new StoreMeta(m.formatVersion(), m.source(), nodeCount, relCount, propCount, stringCount,
            m.indexCapacity(), indexKeys, m.labels(), minMessageDate, maxMessageDate, m.chainsGroupedByType());
    }

    /**
     * Makes every insert so far part of the store: its record counts, for readers and for store.meta.
     * Closes the updater's read cursors, so that the cache's counters include their pins.
     */
    public void publish() {
        store.publish(currentMeta());
        close();
    }

    private PageCursor writeCursor(StoreFile f, long record) throws IOException {
        long page = f.pageOf(record);
        PageCursor c = store.file(f).io(page, PagedFile.PF_SHARED_WRITE_LOCK);
        pin(c, f, page);
        return c;
    }

    private void pin(PageCursor c, StoreFile f, long page) throws IOException {
        if (!c.next()) {
            c.close();
            throw new IOException("cannot write page " + page + " of " + f.fileName() + " in " + store.dir());
        }
        if (recorder != null) {
            recorder.pinned(f.traceFileId(), page);
        }
    }

    private static void checkIdSpace(long id, String what) {
        if (id >= Integer.MAX_VALUE) {
            throw new IllegalStateException("too many " + what + " for 32-bit record ids: " + id);
        }
    }

    /** Closes the read cursors (they open again when needed). */
    @Override
    public void close() {
        if (nodes != null) {
            nodes.close();
            rels.close();
            nodes = null;
            rels = null;
        }
        if (reader != null) {
            reader.close();
            reader = null;
        }
    }
}
