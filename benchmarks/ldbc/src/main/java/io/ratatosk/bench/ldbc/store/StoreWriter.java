package io.ratatosk.bench.ldbc.store;

import static io.ratatosk.bench.ldbc.store.GraphStore.NONE;

import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;

/**
 * Writes a {@link GraphStore} in one pass: every node first, label by label, then every
 * relationship. Records are appended at increasing ids; a new relationship goes to the head of both
 * its nodes' chains, with the chain heads kept on the heap (4 bytes per node) until
 * {@link #finish} writes them into the node records and fills in the previous-pointers in one
 * backward pass over the relationships, checking on the way whether every chain is grouped by type. Only then is {@code store.meta} written, so a store whose
 * load failed or was cut short never looks complete. Single-threaded.
 */
public final class StoreWriter implements AutoCloseable {
    private final Path dir;
    private final Map<StoreFile, PagedFile> files = new EnumMap<>(StoreFile.class);
    private final Appender nodes;
    private final Appender rels;
    private final Appender props;
    private final Appender strings;
    private final PageCursor index;
    private final long indexCapacity;
    private long indexPage = -1;
    private long indexKeys;
    private byte[] labels = new byte[1 << 12];
    private final Map<Label, StoreMeta.NodeRange> ranges = new EnumMap<>(Label.class);
    private Label currentLabel;
    private long currentLabelFirst;
    private int[] heads;
    private long minMessageDate = Long.MAX_VALUE;
    private long maxMessageDate = Long.MIN_VALUE;
    private boolean finished;

    private StoreWriter(Path dir, PageCache cache, long expectedNodes) throws IOException {
        this.dir = dir;
        for (StoreFile f : StoreFile.values()) {
            files.put(f, cache.map(dir.resolve(f.fileName()), StoreFile.PAGE_SIZE));
        }
        nodes = new Appender(StoreFile.NODES);
        rels = new Appender(StoreFile.RELATIONSHIPS);
        props = new Appender(StoreFile.PROPERTIES);
        strings = new Appender(StoreFile.STRINGS);
        indexCapacity = IdIndexLayout.capacityFor(expectedNodes);
        index = files.get(StoreFile.ID_INDEX).io(0, PagedFile.PF_SHARED_WRITE_LOCK);
        // The header, then the last slot page, so the file has its full size from the start.
        index.next(0);
        index.putLong(IdIndexLayout.HEADER_MAGIC, IdIndexLayout.MAGIC);
        index.putLong(IdIndexLayout.HEADER_CAPACITY, indexCapacity);
        index.next(IdIndexLayout.pageOfSlot(indexCapacity - 1));
        indexPage = IdIndexLayout.pageOfSlot(indexCapacity - 1);
    }

    /**
     * Starts a new store in {@code dir}, deleting whatever store was there (its completion marker
     * first). {@code expectedNodes} sizes the id index: at least the number of nodes to come.
     */
    public static StoreWriter create(Path dir, PageCache cache, long expectedNodes) throws IOException {
        Files.createDirectories(dir);
        GraphStore.delete(dir);
        return new StoreWriter(dir, cache, expectedNodes);
    }

    // ---- nodes -----------------------------------------------------------------------------------

    /**
     * Adds a node with its LDBC id (stored as the first property, then {@code properties} in order).
     * Nodes of one label must come together.
     *
     * @return the node id, or {@link GraphStore#NONE} if a node with this id already exists in the
     *         label's id space (nothing is written then)
     */
    public int addNode(Label label, long ldbcId, PropertyBatch properties) throws IOException {
        if (heads != null) {
            throw new IllegalStateException("nodes must all be added before the first relationship");
        }
        if (ldbcId < 0 || ldbcId > IdIndexLayout.MAX_LDBC_ID) {
            throw new IllegalArgumentException("id " + ldbcId + " is outside [0, " + IdIndexLayout.MAX_LDBC_ID + "]");
        }
        if (label != currentLabel) {
            closeLabelRange();
            if (ranges.containsKey(label)) {
                throw new IllegalStateException("nodes of label " + label + " must come together");
            }
            currentLabel = label;
            currentLabelFirst = nodes.next;
        }
        long node = nodes.next;
        checkIdSpace(node, "nodes");
        if (!indexInsert(IdIndexLayout.key(label, ldbcId), (int) node)) {
            return NONE;
        }
        int firstProp = writeProperties(ldbcId, properties);
        int off = nodes.append();
        PageCursor c = nodes.cursor;
        c.putByte(off + NodeRecord.IN_USE, (byte) 1);
        c.putByte(off + NodeRecord.LABEL, (byte) label.code());
        c.putInt(off + NodeRecord.FIRST_REL, NONE);
        c.putInt(off + NodeRecord.FIRST_PROP, firstProp);
        if (node >= labels.length) {
            labels = Arrays.copyOf(labels, labels.length * 2);
        }
        labels[(int) node] = (byte) label.code();
        if (label.isMessage()) {
            long created = properties.find(PropertyKey.CREATION_DATE, Long.MIN_VALUE);
            if (created != Long.MIN_VALUE) {
                minMessageDate = Math.min(minMessageDate, created);
                maxMessageDate = Math.max(maxMessageDate, created);
            }
        }
        return (int) node;
    }

    private void closeLabelRange() {
        if (currentLabel != null) {
            ranges.put(currentLabel, new StoreMeta.NodeRange(currentLabelFirst, nodes.next - currentLabelFirst));
        }
    }

    /** The node with this label and LDBC id, or {@link GraphStore#NONE}. */
    public int nodeById(Label label, long ldbcId) throws IOException {
        if (ldbcId < 0 || ldbcId > IdIndexLayout.MAX_LDBC_ID) {
            return NONE;
        }
        long key = IdIndexLayout.key(label, ldbcId);
        long slot = IdIndexLayout.firstSlot(key, indexCapacity);
        for (long probes = 0; probes < indexCapacity; probes++) {
            int off = indexSlot(slot);
            long k = index.getLong(off + IdIndexLayout.SLOT_KEY);
            if (k == 0) {
                return NONE;
            }
            if (k == key) {
                int node = index.getInt(off + IdIndexLayout.SLOT_NODE);
                return labels[node] == label.code() ? node : NONE;
            }
            slot = (slot + 1) & (indexCapacity - 1);
        }
        return NONE;
    }

    private boolean indexInsert(long key, int node) throws IOException {
        if (indexKeys >= indexCapacity - 1) {
            throw new IllegalStateException("the id index is full at " + indexKeys + " keys: more nodes than expected");
        }
        long slot = IdIndexLayout.firstSlot(key, indexCapacity);
        while (true) {
            int off = indexSlot(slot);
            long k = index.getLong(off + IdIndexLayout.SLOT_KEY);
            if (k == key) {
                return false;
            }
            if (k == 0) {
                index.putLong(off + IdIndexLayout.SLOT_KEY, key);
                index.putInt(off + IdIndexLayout.SLOT_NODE, node);
                indexKeys++;
                return true;
            }
            slot = (slot + 1) & (indexCapacity - 1);
        }
    }

    private int indexSlot(long slot) throws IOException {
        long page = IdIndexLayout.pageOfSlot(slot);
        if (page != indexPage) {
            index.next(page);
            indexPage = page;
        }
        return IdIndexLayout.offsetOfSlot(slot);
    }

    // ---- relationships -----------------------------------------------------------------------------

    /** Adds a relationship from {@code start} to {@code end}, at the head of both nodes' chains. */
    public int addRelationship(RelType type, int start, int end, PropertyBatch properties) throws IOException {
        if (heads == null) {
            closeLabelRange();
            currentLabel = null;
            heads = new int[(int) nodes.next];
            Arrays.fill(heads, NONE);
        }
        if (start < 0 || start >= heads.length || end < 0 || end >= heads.length) {
            throw new IllegalArgumentException("relationship between " + start + " and " + end
                + ": node ids must be in [0, " + heads.length + ")");
        }
        if (start == end) {
            throw new IllegalArgumentException("a relationship must join two different nodes: both ends are node " + start);
        }
        long rel = rels.next;
        checkIdSpace(rel, "relationships");
        int firstProp = properties == null || properties.size() == 0 ? NONE : writeProperties(-1, properties);
        int off = rels.append();
        PageCursor c = rels.cursor;
        c.putByte(off + RelationshipRecord.IN_USE, (byte) 1);
        c.putByte(off + RelationshipRecord.TYPE, (byte) type.code());
        c.putInt(off + RelationshipRecord.START_NODE, start);
        c.putInt(off + RelationshipRecord.END_NODE, end);
        c.putInt(off + RelationshipRecord.START_PREV, NONE);
        c.putInt(off + RelationshipRecord.START_NEXT, heads[start]);
        c.putInt(off + RelationshipRecord.END_PREV, NONE);
        c.putInt(off + RelationshipRecord.END_NEXT, heads[end]);
        c.putInt(off + RelationshipRecord.FIRST_PROP, firstProp);
        heads[start] = (int) rel;
        heads[end] = (int) rel;
        return (int) rel;
    }

    // ---- properties ------------------------------------------------------------------------------

    /** Writes a chain of consecutive property records: the LDBC id first unless negative, then the batch. */
    private int writeProperties(long ldbcId, PropertyBatch batch) throws IOException {
        int count = batch.size() + (ldbcId >= 0 ? 1 : 0);
        if (count == 0) {
            return NONE;
        }
        int first = (int) props.next;
        checkIdSpace(props.next + count, "property records");
        int written = 0;
        if (ldbcId >= 0) {
            writeLong(PropertyKey.ID, ldbcId, ++written == count);
        }
        for (int i = 0; i < batch.size(); i++) {
            boolean last = ++written == count;
            PropertyKey key = batch.key(i);
            if (key.isNumeric()) {
                writeLong(key, batch.longValue(i), last);
            } else {
                writeString(key, batch.stringValue(i), last);
            }
        }
        return first;
    }

    private int propertyHeader(PropertyKey key, int valueType, boolean last) throws IOException {
        long id = props.next;
        int off = props.append();
        PageCursor c = props.cursor;
        c.putByte(off + PropertyRecord.IN_USE, (byte) 1);
        c.putByte(off + PropertyRecord.KEY, (byte) key.code());
        c.putByte(off + PropertyRecord.VALUE_TYPE, (byte) valueType);
        c.putInt(off + PropertyRecord.NEXT, last ? NONE : (int) (id + 1));
        return off;
    }

    private void writeLong(PropertyKey key, long value, boolean last) throws IOException {
        int off = propertyHeader(key, PropertyRecord.LONG, last);
        props.cursor.putLong(off + PropertyRecord.VALUE, value);
    }

    private void writeString(PropertyKey key, String value, boolean last) throws IOException {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= PropertyRecord.INLINE_CAPACITY) {
            int off = propertyHeader(key, PropertyRecord.INLINE_STRING, last);
            props.cursor.putByte(off + PropertyRecord.INLINE_LENGTH, (byte) bytes.length);
            props.cursor.putBytes(off + PropertyRecord.VALUE, bytes, 0, bytes.length);
            return;
        }
        int firstBlock = writeBlocks(bytes);
        int off = propertyHeader(key, PropertyRecord.DYNAMIC_STRING, last);
        props.cursor.putInt(off + PropertyRecord.DYNAMIC_FIRST_BLOCK, firstBlock);
        props.cursor.putInt(off + PropertyRecord.DYNAMIC_LENGTH, bytes.length);
    }

    private int writeBlocks(byte[] bytes) throws IOException {
        int first = (int) strings.next;
        int blocks = (bytes.length + StringBlock.DATA_CAPACITY - 1) / StringBlock.DATA_CAPACITY;
        checkIdSpace(strings.next + blocks, "string blocks");
        for (int b = 0; b < blocks; b++) {
            long id = strings.next;
            int off = strings.append();
            int from = b * StringBlock.DATA_CAPACITY;
            int used = Math.min(StringBlock.DATA_CAPACITY, bytes.length - from);
            PageCursor c = strings.cursor;
            c.putInt(off + StringBlock.NEXT, b == blocks - 1 ? NONE : (int) (id + 1));
            c.putInt(off + StringBlock.USED, used);
            c.putBytes(off + StringBlock.DATA, bytes, from, used);
        }
        return first;
    }

    private static void checkIdSpace(long id, String what) {
        if (id >= Integer.MAX_VALUE) {
            throw new IllegalStateException("too many " + what + " for 32-bit record ids: " + id);
        }
    }

    // ---- finishing ---------------------------------------------------------------------------------

    public long nodeCount() {
        return nodes.next;
    }

    public long relationshipCount() {
        return rels.next;
    }

    /**
     * Links the chains (node heads, previous-pointers), flushes every file, and writes store.meta
     * last. The writer is closed afterwards.
     */
    public StoreMeta finish(String source) throws IOException {
        if (heads == null) {
            closeLabelRange();
            heads = new int[(int) nodes.next];
            Arrays.fill(heads, NONE);
        }
        nodes.close();
        rels.close();
        props.close();
        strings.close();
        index.next(0);
        index.putLong(IdIndexLayout.HEADER_SIZE, indexKeys);
        index.close();
        writeChainHeads();
        boolean grouped = linkPreviousPointers();
        for (PagedFile f : files.values()) {
            f.flush();
        }
        StoreMeta meta = new StoreMeta(GraphStore.FORMAT_VERSION, source, nodes.next, rels.next, props.next,
            strings.next, indexCapacity, indexKeys, ranges,
            minMessageDate == Long.MAX_VALUE ? 0 : minMessageDate,
            maxMessageDate == Long.MIN_VALUE ? 0 : maxMessageDate, grouped);
        closeFiles();
        finished = true;
        GraphStore.writeMeta(dir, meta);
        return meta;
    }

    private void writeChainHeads() throws IOException {
        StoreFile f = StoreFile.NODES;
        try (PageCursor c = files.get(f).io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            long page = -1;
            for (int n = 0; n < heads.length; n++) {
                if (f.pageOf(n) != page) {
                    page = f.pageOf(n);
                    c.next(page);
                }
                c.putInt(f.offsetOf(n) + NodeRecord.FIRST_REL, heads[n]);
            }
        }
    }

    /**
     * From the newest relationship back, which is every chain's order: each node's previous-pointer is
     * the newer relationship seen last. Returns whether every chain is grouped by type (each type in one
     * run), which holds when the relationships of each type were added together.
     */
    private boolean linkPreviousPointers() throws IOException {
        int[] newer = heads;
        Arrays.fill(newer, NONE);
        int[] typesSeen = new int[newer.length];
        byte[] lastType = new byte[newer.length];
        boolean grouped = true;
        StoreFile f = StoreFile.RELATIONSHIPS;
        try (PageCursor c = files.get(f).io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            long page = -1;
            for (long r = rels.next - 1; r >= 0; r--) {
                if (f.pageOf(r) != page) {
                    page = f.pageOf(r);
                    c.next(page);
                }
                int off = f.offsetOf(r);
                int start = c.getInt(off + RelationshipRecord.START_NODE);
                int end = c.getInt(off + RelationshipRecord.END_NODE);
                byte type = c.getByte(off + RelationshipRecord.TYPE);
                c.putInt(off + RelationshipRecord.START_PREV, newer[start]);
                c.putInt(off + RelationshipRecord.END_PREV, newer[end]);
                newer[start] = (int) r;
                newer[end] = (int) r;
                grouped &= startsNoSecondRun(start, type, lastType, typesSeen);
                grouped &= startsNoSecondRun(end, type, lastType, typesSeen);
            }
        }
        return grouped;
    }

    /** Notes {@code type} next in {@code node}'s chain; false if it begins a second run of that type. */
    private static boolean startsNoSecondRun(int node, byte type, byte[] lastType, int[] typesSeen) {
        if (lastType[node] == type) {
            return true;
        }
        boolean first = (typesSeen[node] & (1 << type)) == 0;
        typesSeen[node] |= 1 << type;
        lastType[node] = type;
        return first;
    }

    private void closeFiles() throws IOException {
        GraphStore.closeAll(files);
    }

    /**
     * Without {@link #finish}: abandons the store, closing its files and deleting them, so nothing
     * half-written is left behind. After {@code finish}: nothing to do.
     */
    @Override
    public void close() throws IOException {
        if (finished) {
            return;
        }
        finished = true;
        nodes.close();
        rels.close();
        props.close();
        strings.close();
        index.close();
        try {
            closeFiles();
        } finally {
            GraphStore.delete(dir);
        }
    }

    /** Appends records at increasing ids through one write cursor that moves page by page. */
    private final class Appender {
        final StoreFile file;
        final PageCursor cursor;
        long next;
        long page = -1;

        Appender(StoreFile file) throws IOException {
            this.file = file;
            this.cursor = files.get(file).io(0, PagedFile.PF_SHARED_WRITE_LOCK);
        }

        /** Positions the cursor on record {@code next}, which it then takes; returns its offset. */
        int append() throws IOException {
            long id = next++;
            long p = file.pageOf(id);
            if (p != page) {
                cursor.next(p);
                page = p;
            }
            return file.offsetOf(id);
        }

        void close() {
            cursor.close();
        }
    }
}
