package io.ratatosk.nvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class NvmProfileTest {
    @Test
    void pcmPageReadPaysOneFirstRowReadPerRowAndSameRowReadsForTheOtherLines() {
        // 8 KiB = 128 lines in 8 rows of 1 KiB: 8 x 28 + 120 x 15
        assertEquals(2_024, NvmProfile.PCM.readPageNanos(8192));
        // 4 KiB = 64 lines in 4 rows
        assertEquals(4 * 28 + 60 * 15, NvmProfile.PCM.readPageNanos(4096));
        // a page smaller than a row sits in one row
        assertEquals(28 + 7 * 15, NvmProfile.PCM.readPageNanos(512));
    }

    @Test
    void pcmPageWritePays150NanosForEveryLine() {
        assertEquals(128 * 150, NvmProfile.PCM.writePageNanos(8192));
        assertEquals(64 * 150, NvmProfile.PCM.writePageNanos(4096));
    }

    @Test
    void dramControlChargesTable22DramFiguresPerLine() {
        assertEquals(128 * 15, NvmProfile.DRAM.readPageNanos(8192));
        assertEquals(128 * 22, NvmProfile.DRAM.writePageNanos(8192));
        assertEquals(210, NvmProfile.DRAM.readPowerMilliwatts());
        assertEquals(195, NvmProfile.DRAM.writePowerMilliwatts());
    }

    @Test
    void nvmeProfilesChargeOneLatencyPerPageWhateverItsSize() {
        for (int pageSize : new int[] {512, 4096, 8192, 65536}) {
            assertEquals(50_000, NvmProfile.NVME.readPageNanos(pageSize));
            assertEquals(50_000, NvmProfile.NVME.writePageNanos(pageSize));
            assertEquals(10_000, NvmProfile.NVME_FAST.readPageNanos(pageSize));
            assertEquals(10_000, NvmProfile.NVME_FAST.writePageNanos(pageSize));
        }
    }

    @Test
    void pcmPowerIsTable22() {
        assertEquals(78, NvmProfile.PCM.readPowerMilliwatts());
        assertEquals(773, NvmProfile.PCM.writePowerMilliwatts());
        assertEquals(45, NvmProfile.PCM.standbyPowerMilliwatts());
    }

    @Test
    void profilesAreFoundByFlagValueIgnoringCase() {
        assertEquals(NvmProfile.NVME_FAST, NvmProfile.fromFlagValue(" NVMe-Fast ").orElseThrow());
        assertTrue(NvmProfile.fromFlagValue("optane").isEmpty());
        assertEquals("nvme, nvme-fast, pcm, dram", NvmProfile.accepted());
    }
}
