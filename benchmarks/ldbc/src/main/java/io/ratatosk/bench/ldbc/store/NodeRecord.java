package io.ratatosk.bench.ldbc.store;

/**
 * Node record layout, 16 bytes: in use, label, the first relationship of the node's chain (every
 * relationship it takes part in, at either end) and the first record of its property chain.
 */
final class NodeRecord {
    static final int SIZE = 16;
    /** byte: 1 when the record holds a node. */
    static final int IN_USE = 0;
    /** byte: {@link Label#code()}. */
    static final int LABEL = 1;
    /** int: relationship id, or {@link GraphStore#NONE}. */
    static final int FIRST_REL = 4;
    /** int: property record id, or {@link GraphStore#NONE}. */
    static final int FIRST_PROP = 8;

    private NodeRecord() {
    }
}
