package io.ratatosk.bench.sim;

/**
 * A column of the simulator that replays a peer cache (another library's policy) beside the page
 * cache's own. Found with {@link java.util.ServiceLoader}, so that the simulator depends on no peer:
 * the module that has the peer on its class path registers its column, and the catalog lists it
 * between the page cache's policies and OPT.
 */
public interface PeerColumn {
    /** The column's name in {@code --policies} and in the tables; a peer column takes no flags. */
    String name();

    /** A fresh simulator of the peer. */
    PolicySimulator simulator();
}
