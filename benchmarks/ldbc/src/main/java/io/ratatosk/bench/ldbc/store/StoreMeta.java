package io.ratatosk.bench.ldbc.store;

import java.util.Map;

/**
 * What {@code store.meta} says about a complete store. The file is written last, after every page
 * is flushed, so a store without it was never finished and is not opened.
 *
 * @param formatVersion   {@link GraphStore#FORMAT_VERSION} of the writer
 * @param source          what was loaded (a fingerprint of the CSV input), to tell whether a cached
 *                        store still matches its data
 * @param nodes           node records in use, ids 0 .. nodes-1
 * @param labels          the contiguous node id range of each label
 * @param indexCapacity   slots in the id index, a power of two
 * @param minMessageDate  earliest creation date of a post or comment, epoch ms (0 without messages)
 * @param maxMessageDate  latest creation date of a post or comment, epoch ms (0 without messages)
 * @param chainsGroupedByType true if in every node's relationship chain the relationships of one
 *                        type form a single run (the writer checks it), so that a walk for one type
 *                        may stop where its run ends
 */
public record StoreMeta(
    int formatVersion,
    String source,
    long nodes,
    long relationships,
    long properties,
    long stringBlocks,
    long indexCapacity,
    long indexKeys,
    Map<Label, NodeRange> labels,
    long minMessageDate,
    long maxMessageDate,
    boolean chainsGroupedByType) {

    /** Node ids {@code first .. first + count - 1}. */
    public record NodeRange(long first, long count) {
        public boolean contains(long node) {
            return node >= first && node < first + count;
        }
    }

    /** The range of {@code label}; empty if the store has no such node. */
    public NodeRange range(Label label) {
        NodeRange r = labels.get(label);
        return r == null ? new NodeRange(0, 0) : r;
    }
}
