package io.ratatosk.bench.ldbc.store;

import static io.ratatosk.bench.ldbc.store.GraphStore.NONE;

import io.ratatosk.pagecache.CursorException;
import io.ratatosk.pagecache.PageCursor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * One thread's reads of a {@link GraphStore}: id lookups, node and relationship records, property
 * chains and relationship chains, all through optimistic page cursors (one per store file, each
 * staying on its page while reads hit it). Every record is read field by field inside a
 * {@code shouldRetry} loop into locals; a field that makes no sense (not in use, an id out of range)
 * is recorded as a cursor exception, not thrown, since the read may be torn by a concurrent eviction.
 * Only a problem that survives a validated read is reported, as a damaged store. A string whose blocks
 * span pages is read through a linked cursor, validated as one read. Not thread-safe.
 */
public final class StoreReader implements AutoCloseable {
    /** Strings longer than this are taken for damage, not data. */
    private static final int MAX_STRING_BYTES = 1 << 24;

    private final GraphStore store;
    private StoreMeta meta;
    private final StoreCursor nodes;
    private final StoreCursor rels;
    private final StoreCursor props;
    private final StoreCursor strings;
    private final StoreCursor index;
    private final byte[] inline = new byte[PropertyRecord.INLINE_CAPACITY];

    /** The node record last read by {@link #readNode}. */
    private int nodeLabel;
    private int nodeFirstRel;
    private int nodeFirstProp;

    /** The relationship record last read by {@link #readRelationship}. */
    private int relType;
    private int relStart;
    private int relEnd;
    private int relStartNext;
    private int relEndNext;
    private int relFirstProp;

    StoreReader(GraphStore store, PinRecorder recorder) throws IOException {
        this.store = store;
        this.meta = store.meta();
        this.nodes = new StoreCursor(store.file(StoreFile.NODES), StoreFile.NODES, recorder);
        this.rels = new StoreCursor(store.file(StoreFile.RELATIONSHIPS), StoreFile.RELATIONSHIPS, recorder);
        this.props = new StoreCursor(store.file(StoreFile.PROPERTIES), StoreFile.PROPERTIES, recorder);
        this.strings = new StoreCursor(store.file(StoreFile.STRINGS), StoreFile.STRINGS, recorder);
        this.index = new StoreCursor(store.file(StoreFile.ID_INDEX), StoreFile.ID_INDEX, recorder);
    }

    public StoreMeta meta() {
        return meta;
    }

    /**
     * Takes the store's current record counts ({@link StoreUpdater#publish()}), so that what was
     * inserted since this reader was made or last refreshed can be read.
     */
    public void refresh() {
        meta = store.meta();
    }

    /** Reads with these counts: the updater's own view, before it publishes. */
    void refreshTo(StoreMeta current) {
        meta = current;
    }

    // ---- id index --------------------------------------------------------------------------------

    /**
     * The node with LDBC id {@code ldbcId} in the id space of {@code label}, or {@link GraphStore#NONE}.
     * Posts and comments share an id space: {@code nodeById(Label.POST, id)} finds a comment too.
     */
    public int nodeById(Label label, long ldbcId) throws IOException {
        if (ldbcId < 0 || ldbcId > IdIndexLayout.MAX_LDBC_ID) {
            return NONE;
        }
        long key = IdIndexLayout.key(label, ldbcId);
        long capacity = meta.indexCapacity();
        long slot = IdIndexLayout.firstSlot(key, capacity);
        for (long probes = 0; probes < capacity; probes++) {
            move(index, IdIndexLayout.pageOfSlot(slot), "id index slot", slot);
            int off = IdIndexLayout.offsetOfSlot(slot);
            long k;
            int node;
            do {
                index.setOffset(off + IdIndexLayout.SLOT_KEY);
                k = index.getLong();
                node = index.getInt(); // SLOT_NODE follows the key
                if (k == key) {
                    inRange(index, node, meta.nodes(), "node", "id index slot ", slot);
                }
            } while (index.shouldRetry());
            checkDecoded(index);
            if (k == 0) {
                return NONE;
            }
            if (k == key) {
                return label(node).idSpace() == label.idSpace() ? node : NONE;
            }
            slot = (slot + 1) & (capacity - 1);
        }
        return NONE;
    }

    // ---- nodes -------------------------------------------------------------------------------------

    private void readNode(int node) throws IOException {
        checkRange(node, meta.nodes(), "node", "a lookup");
        move(nodes, StoreFile.NODES.pageOf(node), "node", node);
        int off = StoreFile.NODES.offsetOf(node);
        int inUse;
        int label;
        int firstRel;
        int firstProp;
        do {
            nodes.setOffset(off + NodeRecord.IN_USE);
            inUse = nodes.getByte();
            label = nodes.getByte(); // LABEL follows IN_USE
            nodes.setOffset(off + NodeRecord.FIRST_REL);
            firstRel = nodes.getInt();
            firstProp = nodes.getInt(); // FIRST_PROP follows FIRST_REL
            if (inUse != 1 || Label.byCode(label) == null) {
                nodes.setCursorException("node " + node + " is not in use or has no valid label (" + label + ")");
            } else if (inRangeOrNone(nodes, firstRel, meta.relationships(), "relationship", "node ", node)) {
                inRangeOrNone(nodes, firstProp, meta.properties(), "property", "node ", node);
            }
        } while (nodes.shouldRetry());
        checkDecoded(nodes);
        nodeLabel = label;
        nodeFirstRel = firstRel;
        nodeFirstProp = firstProp;
    }

    public Label label(int node) throws IOException {
        readNode(node);
        return Label.byCode(nodeLabel);
    }

    /** Fills {@code into} with the wanted properties of {@code node}. */
    public PropertyValues properties(int node, PropertyValues into) throws IOException {
        readNode(node);
        walkProperties(nodeFirstProp, into);
        return into;
    }

    /** Fills {@code into} with the wanted properties of the relationship whose chain starts at {@code firstProp}. */
    public PropertyValues relationshipProperties(int firstProp, PropertyValues into) throws IOException {
        walkProperties(firstProp, into);
        return into;
    }

    /** The LDBC id of {@code node} (its first property). */
    public long ldbcId(int node) throws IOException {
        readNode(node);
        return longProperty(nodeFirstProp, PropertyKey.ID, "node " + node);
    }

    /** A long property of {@code node}; it must exist. */
    public long longProperty(int node, PropertyKey key) throws IOException {
        readNode(node);
        return longProperty(nodeFirstProp, key, "node " + node);
    }

    /** A long property of the relationship whose property chain starts at {@code firstProp}; it must exist. */
    public long relationshipLongProperty(int firstProp, PropertyKey key) throws IOException {
        return longProperty(firstProp, key, "relationship property chain " + firstProp);
    }

    private long longProperty(int first, PropertyKey key, String owner) throws IOException {
        int p = first;
        long steps = 0;
        while (p != NONE) {
            checkRange(p, meta.properties(), "property", owner);
            move(props, StoreFile.PROPERTIES.pageOf(p), "property", p);
            int off = StoreFile.PROPERTIES.offsetOf(p);
            int k;
            int type;
            int next;
            long value;
            do {
                props.setOffset(off + PropertyRecord.KEY);
                k = props.getByte();
                type = props.getByte(); // VALUE_TYPE follows KEY
                props.setOffset(off + PropertyRecord.NEXT);
                next = props.getInt();
                value = props.getLong(); // VALUE follows NEXT
                if (k == key.code()) {
                    if (type != PropertyRecord.LONG) {
                        props.setCursorException("property " + p + " of " + owner + " (" + key + ") is not a number");
                    }
                } else {
                    inRangeOrNone(props, next, meta.properties(), "property", "property ", p);
                }
            } while (props.shouldRetry());
            checkDecoded(props);
            if (k == key.code()) {
                return value;
            }
            p = next;
            if (++steps > meta.properties()) {
                throw corrupt("property chain of " + owner + " loops");
            }
        }
        throw new IllegalStateException("no " + key + " property on " + owner + " in " + store.dir());
    }

    private void walkProperties(int first, PropertyValues into) throws IOException {
        into.reset();
        int p = first;
        long steps = 0;
        while (p != NONE && !into.complete()) {
            checkRange(p, meta.properties(), "property", "a property chain");
            move(props, StoreFile.PROPERTIES.pageOf(p), "property", p);
            int off = StoreFile.PROPERTIES.offsetOf(p);
            int inUse;
            int k;
            int type;
            int length;
            int next;
            long value;
            int dynamicBlock;
            int dynamicLength;
            do {
                // The header's fields follow each other: in use, key, value type, inline length, next.
                props.setOffset(off + PropertyRecord.IN_USE);
                inUse = props.getByte();
                k = props.getByte();
                type = props.getByte();
                length = props.getByte() & 0xff;
                next = props.getInt();
                value = props.getLong(); // VALUE follows NEXT; the dynamic string's two ints share its bytes
                props.setOffset(off + PropertyRecord.DYNAMIC_FIRST_BLOCK);
                dynamicBlock = props.getInt();
                dynamicLength = props.getInt();
                if (type == PropertyRecord.INLINE_STRING) {
                    props.setOffset(off + PropertyRecord.VALUE);
                    props.getBytes(inline, 0, Math.min(length, inline.length));
                }
                if (inUse != 1 || PropertyKey.byCode(k) == null) {
                    props.setCursorException("property record " + p + " is not in use or has no valid key (" + k + ")");
                } else {
                    inRangeOrNone(props, next, meta.properties(), "property", "property ", p);
                }
            } while (props.shouldRetry());
            checkDecoded(props);
            PropertyKey key = PropertyKey.byCode(k);
            if (into.wants(key)) {
                switch (type) {
                    case PropertyRecord.LONG -> into.setLong(key, value);
                    case PropertyRecord.INLINE_STRING -> {
                        if (length > inline.length) {
                            throw corrupt("property " + p + " has an inline string of " + length + " bytes");
                        }
                        into.setString(key, new String(inline, 0, length, StandardCharsets.UTF_8));
                    }
                    case PropertyRecord.DYNAMIC_STRING -> into.setString(key, readString(dynamicBlock, dynamicLength, p));
                    default -> throw corrupt("property " + p + " has value type " + type);
                }
            }
            p = next;
            if (++steps > meta.properties()) {
                throw corrupt("a property chain loops at property " + p);
            }
        }
    }

    private String readString(int firstBlock, int length, int property) throws IOException {
        if (length <= PropertyRecord.INLINE_CAPACITY || length > MAX_STRING_BYTES) {
            throw corrupt("property " + property + " has a dynamic string of " + length + " bytes");
        }
        byte[] out = new byte[length];
        checkRange(firstBlock, meta.stringBlocks(), "string block", "property " + property);
        move(strings, StoreFile.STRINGS.pageOf(firstBlock), "string block", firstBlock);
        // The string is one record that may span pages: its blocks on the first block's page are read
        // through the strings cursor, the others through its linked cursor, and one shouldRetry()
        // validates them all.
        try {
            do {
                int pos = 0;
                int block = firstBlock;
                while (pos < length) {
                    if (!inRange(strings, block, meta.stringBlocks(), "string block", "property ", property)) {
                        break;
                    }
                    PageCursor c = strings.onPage(StoreFile.STRINGS.pageOf(block));
                    if (c == null) {
                        break; // past the end of the file: recorded as a cursor exception
                    }
                    int expected = Math.min(StringBlock.DATA_CAPACITY, length - pos);
                    c.setOffset(StoreFile.STRINGS.offsetOf(block) + StringBlock.NEXT);
                    int next = c.getInt();
                    int used = c.getInt(); // USED follows NEXT, DATA follows USED
                    if (used != expected) {
                        strings.setCursorException("string block " + block + " holds " + used + " bytes where " + expected
                            + " were expected");
                        break;
                    }
                    c.getBytes(out, pos, expected);
                    pos += used;
                    block = next;
                }
            } while (strings.shouldRetry());
        } finally {
            strings.endSpanningRead();
        }
        checkDecoded(strings);
        return new String(out, StandardCharsets.UTF_8);
    }

    // ---- relationships ----------------------------------------------------------------------------

    private void readRelationship(int rel) throws IOException {
        checkRange(rel, meta.relationships(), "relationship", "a relationship chain");
        move(rels, StoreFile.RELATIONSHIPS.pageOf(rel), "relationship", rel);
        int off = StoreFile.RELATIONSHIPS.offsetOf(rel);
        int inUse;
        int type;
        int start;
        int end;
        int startNext;
        int endNext;
        int firstProp;
        do {
            rels.setOffset(off + RelationshipRecord.IN_USE);
            inUse = rels.getByte();
            type = rels.getByte(); // TYPE follows IN_USE
            rels.setOffset(off + RelationshipRecord.START_NODE);
            start = rels.getInt();
            end = rels.getInt(); // END_NODE follows START_NODE
            rels.setOffset(off + RelationshipRecord.START_NEXT);
            startNext = rels.getInt();
            rels.setOffset(off + RelationshipRecord.END_NEXT);
            endNext = rels.getInt();
            firstProp = rels.getInt(); // FIRST_PROP follows END_NEXT
            if (inUse != 1 || RelType.byCode(type) == null) {
                rels.setCursorException("relationship " + rel + " is not in use or has no valid type (" + type + ")");
            } else if (inRange(rels, start, meta.nodes(), "node", "relationship ", rel)
                && inRange(rels, end, meta.nodes(), "node", "relationship ", rel)
                && inRangeOrNone(rels, startNext, meta.relationships(), "relationship", "relationship ", rel)
                && inRangeOrNone(rels, endNext, meta.relationships(), "relationship", "relationship ", rel)) {
                inRangeOrNone(rels, firstProp, meta.properties(), "property", "relationship ", rel);
            }
        } while (rels.shouldRetry());
        checkDecoded(rels);
        relType = type;
        relStart = start;
        relEnd = end;
        relStartNext = startNext;
        relEndNext = endNext;
        relFirstProp = firstProp;
    }

    /** Called for each relationship a walk finds; return false to stop the walk. */
    @FunctionalInterface
    public interface RelationshipVisitor {
        /**
         * @param otherNode     the node at the relationship's other end
         * @param firstProperty the relationship's property chain, or {@link GraphStore#NONE}
         */
        boolean visit(int otherNode, int firstProperty) throws IOException;
    }

    /**
     * Walks {@code node}'s relationship chain and calls {@code visitor} for each relationship of
     * {@code type} in {@code direction}. In a store whose chains are grouped by type the walk ends
     * with the run of {@code type}. The visitor may read the store, walks included: the walk keeps
     * its place in locals.
     */
    public void relationships(int node, RelType type, Direction direction, RelationshipVisitor visitor)
        throws IOException {
        readNode(node);
        int rel = nodeFirstRel;
        int typeCode = type.code();
        boolean grouped = meta.chainsGroupedByType();
        boolean inRun = false;
        long steps = 0;
        while (rel != NONE) {
            readRelationship(rel);
            if (relType != typeCode && inRun && grouped) {
                return;
            }
            int start = relStart;
            int end = relEnd;
            boolean outgoing;
            int next;
            if (start == node) {
                outgoing = true;
                next = relStartNext;
            } else if (end == node) {
                outgoing = false;
                next = relEndNext;
            } else {
                throw corrupt("relationship " + rel + " is in the chain of node " + node + " but joins "
                    + start + " and " + end);
            }
            inRun = relType == typeCode;
            if (inRun && direction.matches(outgoing)) {
                if (!visitor.visit(outgoing ? end : start, relFirstProp)) {
                    return;
                }
            }
            rel = next;
            if (++steps > meta.relationships()) {
                throw corrupt("the relationship chain of node " + node + " loops");
            }
        }
    }

    /** The other end of the first relationship of {@code type} in {@code direction}, or {@link GraphStore#NONE}. */
    public int single(int node, RelType type, Direction direction) throws IOException {
        int[] found = {NONE};
        relationships(node, type, direction, (other, props) -> {
            found[0] = other;
            return false;
        });
        return found[0];
    }

    // ---- checks ----------------------------------------------------------------------------------

    private void move(StoreCursor cursor, long pageId, String what, long id) throws IOException {
        if (!cursor.moveTo(pageId)) {
            throw corrupt(what + " " + id + " lies on page " + pageId + ", past the end of its file");
        }
    }

    private void checkRange(long id, long count, String what, String owner) {
        if (id < 0 || id >= count) {
            throw corrupt(owner + " refers to " + what + " " + id + ", outside [0, " + count + ")");
        }
    }

    private void checkRangeOrNone(long id, long count, String what, String owner) {
        if (id != NONE) {
            checkRange(id, count, what, owner);
        }
    }

    /**
     * Inside a read loop: true if {@code id} is in {@code [0, count)}; else records why not as the
     * cursor's exception (the message built only then) and returns false.
     */
    private static boolean inRange(StoreCursor cursor, long id, long count, String what, String ownerKind, long owner) {
        if (id < 0 || id >= count) {
            cursor.setCursorException(ownerKind + owner + " refers to " + what + " " + id + ", outside [0, " + count + ")");
            return false;
        }
        return true;
    }

    /** As {@link #inRange}, {@link GraphStore#NONE} allowed. */
    private static boolean inRangeOrNone(StoreCursor cursor, long id, long count, String what, String ownerKind, long owner) {
        return id == NONE || inRange(cursor, id, count, what, ownerKind, owner);
    }

    /** After a validated read: a problem the decoder recorded is real, and the store is damaged. */
    private void checkDecoded(StoreCursor cursor) throws IOException {
        try {
            cursor.checkAndClearCursorException();
        } catch (CursorException e) {
            throw corrupt(e.getMessage());
        }
    }

    private IllegalStateException corrupt(String problem) {
        return new IllegalStateException("damaged graph store " + store.dir() + ": " + problem);
    }

    /** Closes the cursors, which publishes their hit and fault counts to the cache's statistics. */
    @Override
    public void close() {
        nodes.close();
        rels.close();
        props.close();
        strings.close();
        index.close();
    }
}
