package io.ratatosk.policies.clockpro;

import io.ratatosk.bench.jmh.PrimitiveMaps.GhostSlots;

/**
 * The benchmarks' access to the package-private {@link GhostIndex}; it lives in CLOCK-Pro's package (in the
 * benchmark module) for that access alone.
 */
public final class GhostIndexAccess implements GhostSlots {
    private final GhostIndex ghosts;

    public GhostIndexAccess(int capacity) {
        ghosts = new GhostIndex(capacity);
    }

    /** The index cells of {@code capacity} ghosts. */
    public static int cells(int capacity) {
        return GhostIndex.cellsFor(capacity);
    }

    @Override
    public int add(long key) {
        return ghosts.add(key);
    }

    @Override
    public int slotOf(long key) {
        return ghosts.slotOf(key);
    }

    @Override
    public long keyAt(int slot) {
        return ghosts.keyAt(slot);
    }

    @Override
    public void remove(int slot) {
        ghosts.remove(slot);
    }

    @Override
    public boolean overCapacity() {
        return ghosts.overCapacity();
    }

    @Override
    public int slots() {
        return ghosts.slots();
    }
}
