package io.ratatosk.bench.ldbc.store;

/**
 * Relationship record layout, 32 bytes. A relationship sits in two doubly linked chains, its start
 * node's and its end node's; each end has its own previous and next pointer, and a walk from node
 * {@code n} follows the pointers of whichever end {@code n} is.
 */
final class RelationshipRecord {
    static final int SIZE = 32;
    /** byte: 1 when the record holds a relationship. */
    static final int IN_USE = 0;
    /** byte: {@link RelType#code()}. */
    static final int TYPE = 1;
    static final int START_NODE = 4;
    static final int END_NODE = 8;
    /** ints: relationship ids in the start node's chain, or {@link GraphStore#NONE}. */
    static final int START_PREV = 12;
    static final int START_NEXT = 16;
    /** ints: relationship ids in the end node's chain, or {@link GraphStore#NONE}. */
    static final int END_PREV = 20;
    static final int END_NEXT = 24;
    /** int: property record id, or {@link GraphStore#NONE}. */
    static final int FIRST_PROP = 28;

    private RelationshipRecord() {
    }
}
