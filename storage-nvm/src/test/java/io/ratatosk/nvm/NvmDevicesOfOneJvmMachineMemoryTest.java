package io.ratatosk.nvm;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalLong;

import io.ratatosk.pagecache.MachineMemoryExceededException;
import org.junit.jupiter.api.Test;

/**
 * The emulated NVM of every device of the JVM not yet closed is checked against the machine together: one device at a
 * time, two tiers of 60% of memory each both opened, the second zeroing its region into swap or the OOM killer (as
 * two page caches did before PageMemory counted them together). Checked against a made-up machine: a real one would be
 * zeroed if it passed.
 */
class NvmDevicesOfOneJvmMachineMemoryTest {
    private static final int PAGE = 512;

    @Test
    void aDeviceThatFitsAloneButNotWithAnOpenOneIsRefused() {
        NvmDeviceConfig firstConfig = NvmDeviceConfig.builder(PAGE).slots(64).injectLatency(false).build();
        NvmDeviceConfig config = NvmDeviceConfig.builder(PAGE).slots(4).injectLatency(false).build();
        long firstBytes = NvmDevice.regionBytes(firstConfig);
        long bytes = NvmDevice.regionBytes(config);
        try (NvmDevice first = new NvmDevice(firstConfig)) {
            // a machine the new device fits alone, and not with the first (whatever other devices are open besides)
            OptionalLong machine = OptionalLong.of(bytes + firstBytes - 1);
            MachineMemoryExceededException e = assertThrows(MachineMemoryExceededException.class,
                () -> NvmDevice.refuseMoreThanTheMachineHas(bytes, config, machine));
            assertTrue(e.getMessage().contains("bytes the other NVM devices (tiers) of this JVM hold, more than the "
                + machine.getAsLong() + " bytes of memory this machine") && e.getMessage().contains(NvmDeviceConfig.CAPACITY)
                && e.getMessage().endsWith("or close the other tiers first"), e.getMessage());
        }
    }

    @Test
    void theCheckCountsWhatTheOthersHold() {
        NvmDeviceConfig config = NvmDeviceConfig.builder(PAGE).slots(4).injectLatency(false).build();
        MachineMemoryExceededException e = assertThrows(MachineMemoryExceededException.class,
            () -> NvmDevice.refuseMoreThanTheMachineHas(2048, config, OptionalLong.of(4096), 2049));
        assertTrue(e.getMessage().startsWith("cannot allocate 2048 bytes of emulated NVM for " + NvmDeviceConfig.CAPACITY
            + "=2048: with the 2049 bytes the other NVM devices (tiers) of this JVM hold, more than the 4096 bytes"),
            e.getMessage());
        assertDoesNotThrow(() -> NvmDevice.refuseMoreThanTheMachineHas(2048, config, OptionalLong.of(4096), 2048));
        e = assertThrows(MachineMemoryExceededException.class,
            () -> NvmDevice.refuseMoreThanTheMachineHas(2048, config, OptionalLong.of(2047), 0));
        assertTrue(e.getMessage().contains(": more than the 2047 bytes") && e.getMessage().endsWith("a smaller size"),
            e.getMessage());
        assertDoesNotThrow(() -> NvmDevice.refuseMoreThanTheMachineHas(2048, config, OptionalLong.empty(), 1L << 40));
    }
}
