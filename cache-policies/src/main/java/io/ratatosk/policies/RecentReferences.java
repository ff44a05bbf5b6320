package io.ratatosk.policies;

/**
 * A policy that can tell which of its resident pages were hit since it last looked at them for eviction:
 * a reference bit a hand clears, a usage count above the fault's, a frequency a queue's scan lowers. It is
 * the one thing about a page that every policy here agrees on, so {@code best-of} hands it over at a switch:
 * a page the outgoing expert saw hit recently counts one hit in the incoming one, which otherwise treats every
 * resident page as just faulted in (docs/policies.md, "What a switch hands over").
 */
public interface RecentReferences {
    /**
     * Whether the page in {@code frame} was hit since this policy's hand, arm or scan last passed it (or since
     * its fault). Read from the frame's policy word alone; racy against hits, as any reader of it is.
     */
    boolean recentlyReferenced(int frame);
}
