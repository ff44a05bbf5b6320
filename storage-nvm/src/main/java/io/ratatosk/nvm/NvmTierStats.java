package io.ratatosk.nvm;

/**
 * A snapshot of {@link NvmSwapStore}'s counters, with the device's own ({@link NvmStats}).
 *
 * <ul>
 *   <li>{@code swapIns}: faults served from NVM (each one a file read avoided);
 *   {@code fileReads}: faults that missed NVM and read the file.</li>
 *   <li>{@code swapOuts}: evictions from the frames that wrote the page into NVM;
 *   {@code cleanEvictionsAbsorbed}: clean evictions whose unchanged copy was already in NVM (no
 *   write at all); {@code dirtyEvictionsAbsorbed}: dirty evictions kept dirty in NVM under
 *   write-back, whose file write was deferred.</li>
 *   <li>{@code writeBacks}: dirty pages written from NVM to their file (when evicted from NVM, on
 *   force, on close), or in its place the frame's newer version when an NVM write tore the dirty copy;
 *   {@code writeThroughs}: file writes at eviction under write-through;
 *   {@code flushWrites}: pages the page cache flushed through the tier ({@code write}).</li>
 *   <li>{@code nvmEvictions}: slots the tier's clock reclaimed; {@code bypasses}: evictions that
 *   found no slot in bounded time and went straight to the file (dirty) or were dropped (clean);
 *   {@code invalidations}: NVM copies dropped because a newer version reached the file, or the file
 *   was truncated or closed (its dirty copies given up too), or a failed write left the copy behind the frame's newer
 *   version: an NVM write tearing it (also in {@code deviceWriteErrors}), or a write-through's file write failing.
 *   A failed NVM write of a page NVM held no copy of drops nothing, and counts in {@code deviceWriteErrors} only.</li>
 *   <li>{@code deviceWriteErrors}: NVM writes that failed; {@code writeBackErrors}: file writes of a
 *   victim that failed (the page stays dirty in NVM and the error recurs at its file's force);
 *   {@code dirtyCopiesGivenUp}: dirty copies {@link NvmSwapStore#closeGivingUpUnwritten} dropped unwritten, their
 *   files refusing them: pages lost, which {@link #fileWritesAvoided()} does not count as saved.</li>
 * </ul>
 *
 * <p>Every snapshot, also one taken while pages move, has {@code swapOuts >= dirtyEvictionsAbsorbed >= writeBacks +
 * dirtyCopiesGivenUp}: {@link NvmSwapStore#stats()} reads each count before the one its events follow.
 */
public record NvmTierStats(
    long swapIns,
    long fileReads,
    long swapOuts,
    long cleanEvictionsAbsorbed,
    long dirtyEvictionsAbsorbed,
    long writeBacks,
    long writeThroughs,
    long flushWrites,
    long nvmEvictions,
    long bypasses,
    long invalidations,
    long deviceWriteErrors,
    long writeBackErrors,
    long dirtyCopiesGivenUp,
    int residentPages,
    long dirtyPages,
    NvmStats device) {

    /** File reads the tier saved: every swap-in. */
    public long fileReadsAvoided() {
        return swapIns;
    }

    /**
     * File writes the tier saved, net: dirty evictions absorbed minus the write-backs they caused later, and minus the
     * copies given up (never written, and lost: counted as saved, a tier that lost its pages looked as if it had saved
     * their writes).
     */
    public long fileWritesAvoided() {
        return Math.max(0, dirtyEvictionsAbsorbed - writeBacks - dirtyCopiesGivenUp);
    }
}
