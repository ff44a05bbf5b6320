package io.ratatosk.bench.ldbc.store;

/** Which relationships of a node a walk follows, seen from that node. */
public enum Direction {
    /** The node is the start (the CSV's first column). */
    OUTGOING,
    /** The node is the end. */
    INCOMING,
    BOTH;

    boolean matches(boolean outgoing) {
        return this == BOTH || (this == OUTGOING) == outgoing;
    }
}
