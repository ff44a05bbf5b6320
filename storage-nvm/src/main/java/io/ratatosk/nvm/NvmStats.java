package io.ratatosk.nvm;

/**
 * A snapshot of one {@link NvmDevice}'s counters. Reads and writes count device operations,
 * including start-gap's internal moves ({@code remapMoves} of each); failed writes are counted apart
 * and in nothing else.
 *
 * <ul>
 *   <li>{@code modeledDeviceNanos} = reads x read latency + writes x write latency: the time the
 *   devices were busy under the model, whether or not latency was injected.</li>
 *   <li>{@code injectedNanos}: wall time threads actually spent inside device operations (copy plus
 *   wait), measured; at least the modeled time when latency is injected, 0 (copy time only, not
 *   measured) when it is not. {@code queueWaitNanos}: wall time spent waiting for a busy device.</li>
 *   <li>Wear is writes per physical slot. {@code projectedLifetimeSeconds} = endurance / (wearMax
 *   per second of {@code elapsedNanos}): how long the most worn slot would last at this run's rate;
 *   infinite before the first write.</li>
 *   <li>Energy: read and write energy are power x modeled latency per operation; standby energy is
 *   standby power x devices x elapsed time.</li>
 * </ul>
 */
public record NvmStats(
    long reads,
    long writes,
    long bytesRead,
    long bytesWritten,
    long remapMoves,
    long failedWrites,
    long wearMax,
    double wearMean,
    long wearTotal,
    int physicalSlots,
    long modeledDeviceNanos,
    long injectedNanos,
    long queueWaitNanos,
    double readEnergyJoules,
    double writeEnergyJoules,
    double standbyEnergyJoules,
    long elapsedNanos,
    long endurance,
    double projectedLifetimeSeconds) {

    /** Read, write and standby energy together. */
    public double energyJoules() {
        return readEnergyJoules + writeEnergyJoules + standbyEnergyJoules;
    }

    /** Max over mean writes per slot: 1 is perfectly even wear. NaN before the first write. */
    public double wearRatio() {
        return wearMean == 0 ? Double.NaN : wearMax / wearMean;
    }

    /** Injected over modeled time: how closely the injected latency followed the model. */
    public double injectedToModeled() {
        return modeledDeviceNanos == 0 ? Double.NaN : (double) injectedNanos / modeledDeviceNanos;
    }
}
