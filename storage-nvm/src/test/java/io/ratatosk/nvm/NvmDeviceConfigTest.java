package io.ratatosk.nvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NvmDeviceConfigTest {
    private static final int PAGE = 8192;

    private static NvmDeviceConfig parse(String... flagsAndValues) {
        Map<String, String> flags = new HashMap<>();
        for (int i = 0; i < flagsAndValues.length; i += 2) {
            flags.put(flagsAndValues[i], flagsAndValues[i + 1]);
        }
        return NvmDeviceConfig.from(flags::get, PAGE);
    }

    @Test
    void unsetFlagsTakeTheirDefaults() {
        NvmDeviceConfig c = parse();
        assertEquals(NvmProfile.NVME, c.profile());
        assertEquals(256L << 20, c.capacityBytes());
        assertEquals((256 << 20) / PAGE, c.slots());
        assertEquals(1, c.devices());
        assertEquals(50_000, c.readLatencyNanos());
        assertEquals(50_000, c.writeLatencyNanos());
        assertEquals(100_000, c.endurance());
        assertEquals(WritePolicy.WRITE_BACK, c.writePolicy());
        assertFalse(c.writeAware());
        assertEquals(0, c.prefetch());
        assertTrue(c.injectLatency());
        assertEquals(Remapping.START_GAP, c.remapping());
    }

    @Test
    void everyFlagIsRead() {
        NvmDeviceConfig c = parse(
            NvmDeviceConfig.PROFILE, "pcm",
            NvmDeviceConfig.CAPACITY, "64m",
            NvmDeviceConfig.DEVICES, "10",
            NvmDeviceConfig.READ_LATENCY, "3us",
            NvmDeviceConfig.WRITE_LATENCY, "2ms",
            NvmDeviceConfig.ENDURANCE, "1000000",
            NvmDeviceConfig.WRITE_POLICY, "write-through",
            NvmDeviceConfig.WRITE_AWARE, "true",
            NvmDeviceConfig.PREFETCH, "16",
            NvmDeviceConfig.INJECT_LATENCY, "false",
            NvmDeviceConfig.REMAPPING, "none");
        assertEquals(NvmProfile.PCM, c.profile());
        assertEquals(64L << 20, c.capacityBytes());
        assertEquals(10, c.devices());
        assertEquals(3_000, c.readLatencyNanos());
        assertEquals(2_000_000, c.writeLatencyNanos());
        assertEquals(1_000_000, c.endurance());
        assertEquals(WritePolicy.WRITE_THROUGH, c.writePolicy());
        assertTrue(c.writeAware());
        assertEquals(16, c.prefetch());
        assertFalse(c.injectLatency());
        assertEquals(Remapping.NONE, c.remapping());
    }

    @Test
    void latencyWithoutUnitIsNanosAndOverridesThePerLineModelForTheWholePage() {
        NvmDeviceConfig c = parse(NvmDeviceConfig.PROFILE, "pcm", NvmDeviceConfig.WRITE_LATENCY, "500");
        assertEquals(500, c.writeLatencyNanos());
        assertEquals(2_024, c.readLatencyNanos());
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
        "pagecache.nvm.capacity|4k|must be at least one page (8192 bytes): pagecache.nvm.capacity=4k",
        "pagecache.nvm.capacity|lots|must be a size in bytes with an optional k, m or g: pagecache.nvm.capacity=lots",
        "pagecache.nvm.capacity|-8m|must not be negative: pagecache.nvm.capacity=-8m",
        "pagecache.nvm.read_latency|-5|must not be negative: pagecache.nvm.read_latency=-5",
        "pagecache.nvm.write_latency|-1us|must not be negative: pagecache.nvm.write_latency=-1us",
        "pagecache.nvm.read_latency|fast|must be a non-negative latency in nanoseconds, optionally with ns, us or ms",
        "pagecache.nvm.write_latency|5 s|must be a non-negative latency in nanoseconds",
        "pagecache.nvm.profile|optane|must be one of nvme, nvme-fast, pcm, dram: pagecache.nvm.profile=optane",
        "pagecache.nvm.devices|0|must be at least 1: pagecache.nvm.devices=0",
        "pagecache.nvm.devices|many|must be a non-negative whole number: pagecache.nvm.devices=many",
        "pagecache.nvm.endurance|0|must be at least 1 write per slot: pagecache.nvm.endurance=0",
        "pagecache.nvm.write_policy|write-around|must be one of write-back, write-through",
        "pagecache.nvm.write_aware|yes|must be true or false: pagecache.nvm.write_aware=yes",
        "pagecache.nvm.prefetch|65|must be in [0, 64]: pagecache.nvm.prefetch=65",
        "pagecache.nvm.inject_latency|1|must be true or false",
        "pagecache.nvm.remapping|random|must be one of start-gap, none",
    })
    void badFlagValueIsRefusedWithAMessageNamingTheFlag(String flag, String value, String expected) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse(flag, value));
        assertTrue(e.getMessage().startsWith(flag + " must"), e.getMessage());
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    @Test
    void moreDevicesThanSlotsIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> parse(NvmDeviceConfig.CAPACITY, "32k", NvmDeviceConfig.DEVICES, "5"));
        assertEquals("pagecache.nvm.devices must not exceed the number of NVM slots (capacity / page size = 4):"
            + " pagecache.nvm.devices=5", e.getMessage());
    }

    @Test
    void nonPositivePageSizeIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> NvmDeviceConfig.from(f -> null, 0));
        assertTrue(e.getMessage().startsWith("pagecache.page_size must be positive"), e.getMessage());
    }

    @Test
    void toBuilderReproducesTheConfig() {
        NvmDeviceConfig c = parse(NvmDeviceConfig.PROFILE, "dram", NvmDeviceConfig.CAPACITY, "1m",
            NvmDeviceConfig.DEVICES, "3", NvmDeviceConfig.WRITE_LATENCY, "7");
        assertEquals(c.toString(), c.toBuilder().build().toString());
    }
}
