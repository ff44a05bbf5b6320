package io.ratatosk.bench.ldbc.run;

import io.ratatosk.nvm.NvmStats;
import io.ratatosk.nvm.NvmTierStats;

/** The NVM tier's counters over a measured phase (a difference of two snapshots). */
public record NvmCounters(long swapIns, long fileReads, long swapOuts, long cleanEvictionsAbsorbed,
                          long writeBacks, long nvmEvictions, long bypasses, long deviceReads, long deviceWrites,
                          long modeledDeviceNanos, long injectedNanos, double energyJoules, long wearMax) {

    static NvmCounters between(NvmTierStats before, NvmTierStats after) {
        NvmStats b = before.device();
        NvmStats a = after.device();
        return new NvmCounters(after.swapIns() - before.swapIns(), after.fileReads() - before.fileReads(),
            after.swapOuts() - before.swapOuts(), after.cleanEvictionsAbsorbed() - before.cleanEvictionsAbsorbed(),
            after.writeBacks() - before.writeBacks(), after.nvmEvictions() - before.nvmEvictions(),
            after.bypasses() - before.bypasses(), a.reads() - b.reads(), a.writes() - b.writes(),
            a.modeledDeviceNanos() - b.modeledDeviceNanos(), a.injectedNanos() - b.injectedNanos(),
            a.energyJoules() - b.energyJoules(), a.wearMax());
    }
}
