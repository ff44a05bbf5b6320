package io.ratatosk.pagecache.writeaware;

import io.ratatosk.bench.jmh.PrimitiveMaps.ShadowIndex;

/**
 * The benchmarks' access to the package-private {@link IdIndex} and to how ARI sizes its shadows; it lives in
 * the write-aware package (in the benchmark module) for that access alone.
 */
public final class IdIndexAccess implements ShadowIndex {
    private final IdIndex index;

    public IdIndexAccess(int maxEntries) {
        index = new IdIndex(maxEntries);
    }

    /** Pages per shadow clock of a cache of {@code frames} frames: one in {@link AriSampler#rateFor} of them. */
    public static int shadowFrames(int frames) {
        return Math.max(1, (int) Math.round((double) frames / AriSampler.rateFor(frames)));
    }

    /** The cells of an index for {@code maxEntries} ids. */
    public static int cells(int maxEntries) {
        return IdIndex.cellsFor(maxEntries);
    }

    @Override
    public int get(int id) {
        return index.get(id);
    }

    @Override
    public void put(int id, int slot) {
        index.put(id, slot);
    }

    @Override
    public void remove(int id) {
        index.remove(id);
    }
}
