package io.ratatosk.nvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.ratatosk.core.config.Flag;
import io.ratatosk.pagecache.PageCacheFlags;
import io.ratatosk.pagecache.InvalidConfigurationException;
import io.ratatosk.pagecache.PageCacheConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The NVM flags as the central parser reads them, and the config built from them. */
class NvmDeviceConfigTest {
    private static final int PAGE = 8192;

    private static NvmDeviceConfig parse(String... flagsAndValues) {
        return NvmDeviceConfig.from(config(flagsAndValues));
    }

    private static PageCacheConfig config(String... flagsAndValues) {
        Map<String, String> flags = new LinkedHashMap<>();
        for (int i = 0; i < flagsAndValues.length; i += 2) {
            flags.put(flagsAndValues[i], flagsAndValues[i + 1]);
        }
        return PageCacheConfig.parse(flags);
    }

    private static String refusal(String... flagsAndValues) {
        return assertThrows(InvalidConfigurationException.class, () -> config(flagsAndValues)).getMessage();
    }

    @Test
    void unsetFlagsTakeTheirDefaults() {
        NvmDeviceConfig c = parse();
        assertEquals(NvmProfile.NVME, c.profile());
        assertEquals(256L << 20, c.capacityBytes());
        assertEquals((256 << 20) / PAGE, c.slots());
        assertEquals(PAGE, c.pageSize());
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
    void slotsFollowThePageSizeFlag() {
        NvmDeviceConfig c = parse("pagecache.page_size", "4k", NvmDeviceConfig.CAPACITY, "1m");
        assertEquals(4096, c.pageSize());
        assertEquals(256, c.slots());
    }

    @Test
    void latencyWithoutUnitIsNanosAndOverridesThePerLineModelForTheWholePage() {
        NvmDeviceConfig c = parse(NvmDeviceConfig.PROFILE, "pcm", NvmDeviceConfig.WRITE_LATENCY, "500");
        assertEquals(500, c.writeLatencyNanos());
        assertEquals(2_024, c.readLatencyNanos());
        assertEquals(1_500, parse(NvmDeviceConfig.READ_LATENCY, "1.5us").readLatencyNanos());
        assertEquals(0, parse(NvmDeviceConfig.READ_LATENCY, "0").readLatencyNanos());
    }

    @Test
    void theFlagChoicesAreExactlyTheEnumsFlagValues() {
        assertEquals(NvmFlags.PROFILES, Arrays.stream(NvmProfile.values()).map(NvmProfile::flagValue).collect(Collectors.toList()));
        assertEquals(NvmFlags.WRITE_POLICIES, Arrays.stream(WritePolicy.values()).map(WritePolicy::flagValue).collect(Collectors.toList()));
        assertEquals(NvmFlags.REMAPPINGS, Arrays.stream(Remapping.values()).map(Remapping::flagValue).collect(Collectors.toList()));
    }

    @Test
    void everyNvmFlagIsRegisteredInTheCentralParser() {
        List<String> nvmFlags = PageCacheFlags.ALL.all().stream().map(Flag::name).filter(n -> n.startsWith("pagecache.nvm.")).collect(Collectors.toList());
        assertEquals(List.of(NvmDeviceConfig.PROFILE, NvmDeviceConfig.CAPACITY, NvmDeviceConfig.DEVICES,
            NvmDeviceConfig.READ_LATENCY, NvmDeviceConfig.WRITE_LATENCY, NvmDeviceConfig.ENDURANCE,
            NvmDeviceConfig.WRITE_POLICY, NvmDeviceConfig.WRITE_AWARE, NvmDeviceConfig.PREFETCH,
            NvmDeviceConfig.INJECT_LATENCY, NvmDeviceConfig.REMAPPING), nvmFlags);
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
        "pagecache.nvm.capacity|lots|pagecache.nvm.capacity=lots: must be a size in [1 page of pagecache.page_size, 1t] (not a size",
        "pagecache.nvm.capacity|-8m|pagecache.nvm.capacity=-8m: must be a size in [1 page of pagecache.page_size, 1t] (negative)",
        "pagecache.nvm.capacity|2t|pagecache.nvm.capacity=2t: must be a size in [1 page of pagecache.page_size, 1t]",
        "pagecache.nvm.read_latency|-5|pagecache.nvm.read_latency=-5: must be a duration in [0ns, 10s] (negative)",
        "pagecache.nvm.write_latency|-1us|pagecache.nvm.write_latency=-1us: must be a duration in [0ns, 10s] (negative)",
        "pagecache.nvm.read_latency|fast|pagecache.nvm.read_latency=fast: must be a duration in [0ns, 10s] (not a duration",
        "pagecache.nvm.write_latency|11s|pagecache.nvm.write_latency=11s: must be a duration in [0ns, 10s]",
        "pagecache.nvm.write_latency|1.5ns|pagecache.nvm.write_latency=1.5ns: must be a duration in [0ns, 10s] (not a whole number of nanoseconds)",
        "pagecache.nvm.profile|optane|pagecache.nvm.profile=optane: must be one of nvme, nvme-fast, pcm, dram",
        "pagecache.nvm.devices|0|pagecache.nvm.devices=0: must be an integer >= 1, at most the NVM slots (capacity / page_size)",
        "pagecache.nvm.devices|many|pagecache.nvm.devices=many: must be an integer >= 1, at most the NVM slots (capacity / page_size) (not an integer)",
        "pagecache.nvm.endurance|0|pagecache.nvm.endurance=0: must be an integer >= 1",
        "pagecache.nvm.write_policy|write-around|pagecache.nvm.write_policy=write-around: must be one of write-back, write-through",
        "pagecache.nvm.write_aware|yes|pagecache.nvm.write_aware=yes: must be true or false",
        "pagecache.nvm.prefetch|65|pagecache.nvm.prefetch=65: must be an integer in [0, 64]",
        "pagecache.nvm.prefetch|-1|pagecache.nvm.prefetch=-1: must be an integer in [0, 64]",
        "pagecache.nvm.inject_latency|1|pagecache.nvm.inject_latency=1: must be true or false",
        "pagecache.nvm.remapping|random|pagecache.nvm.remapping=random: must be one of start-gap, none",
    })
    void badFlagValueIsRefusedWithAMessageNamingTheFlag(String flag, String value, String expected) {
        String message = refusal(flag, value);
        assertTrue(message.startsWith(expected), message);
    }

    @Test
    void aCapacityBelowOnePageIsRefusedNamingBothFlags() {
        assertEquals("pagecache.nvm.capacity=4k holds 0 pages of pagecache.page_size=8192; at least 1 is needed",
            refusal(NvmDeviceConfig.CAPACITY, "4k"));
        assertEquals("pagecache.nvm.capacity=64k holds 0 pages of pagecache.page_size=131072; at least 1 is needed",
            refusal(NvmDeviceConfig.CAPACITY, "64k", "pagecache.page_size", "128k", "pagecache.memory", "1m"));
        assertEquals(1, parse(NvmDeviceConfig.CAPACITY, "8k").slots());
    }

    @Test
    void moreDevicesThanSlotsIsRefusedNamingTheSlotCount() {
        assertEquals("pagecache.nvm.devices=5: must be at most the NVM slots, 4 (pagecache.nvm.capacity=32k / pagecache.page_size=8192)",
            refusal(NvmDeviceConfig.CAPACITY, "32k", NvmDeviceConfig.DEVICES, "5"));
        assertEquals(4, parse(NvmDeviceConfig.CAPACITY, "32k", NvmDeviceConfig.DEVICES, "4").devices());
    }

    @Test
    void moreSlotsThanAnIntHoldsIsRefused() {
        assertEquals("pagecache.nvm.capacity=1t holds 2147483648 pages of pagecache.page_size=512; at most 2147483638 are supported",
            refusal(NvmDeviceConfig.CAPACITY, "1t", "pagecache.page_size", "512"));
    }

    @Test
    void theBuilderChecksTheSameRulesForCodeThatBuildsAConfigWithoutFlags() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> NvmDeviceConfig.builder(PAGE).slots(4).devices(5).build());
        assertEquals("pagecache.nvm.devices must not exceed the number of NVM slots (capacity / page size = 4):"
            + " pagecache.nvm.devices=5", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> NvmDeviceConfig.builder(0).build());
        assertTrue(e.getMessage().startsWith("pagecache.page_size must be a power-of-two size"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> NvmDeviceConfig.builder(PAGE).capacityBytes(4096).build());
        assertTrue(e.getMessage().startsWith("pagecache.nvm.capacity must be at least one page"), e.getMessage());
    }

    /**
     * The builder refuses a page size the page cache's flag refuses (a power of two from 512 bytes to 1 MiB), naming
     * it: it took any positive size, and the tier built on it then took 64 such pages of scratch memory.
     */
    @Test
    void theBuilderRefusesAPageSizeThePageCacheRefuses() {
        for (int pageSize : new int[] {256, 3000, PAGE + 512, 2 << 20, 1 << 30, Integer.MAX_VALUE, -PAGE}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NvmDeviceConfig.builder(pageSize).slots(4).build(), "page size " + pageSize);
            assertEquals("pagecache.page_size must be a power-of-two size in [512, 1m]: pagecache.page_size=" + pageSize,
                e.getMessage());
        }
        for (int pageSize = 512; pageSize <= 1 << 20; pageSize <<= 1) {
            assertEquals(pageSize, NvmDeviceConfig.builder(pageSize).slots(4).build().pageSize());
        }
    }

    /** A null choice is refused naming the flag and its values, as the builder's other refusals: it was a NullPointerException. */
    @Test
    void theBuilderRefusesANullChoiceNamingTheFlagAndItsValues() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> NvmDeviceConfig.builder(PAGE).profile(null).build());
        assertEquals("pagecache.nvm.profile must be one of " + String.join(", ", NvmFlags.PROFILES)
            + ": pagecache.nvm.profile=null", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> NvmDeviceConfig.builder(PAGE).remapping(null).build());
        assertEquals("pagecache.nvm.remapping must be one of " + String.join(", ", NvmFlags.REMAPPINGS)
            + ": pagecache.nvm.remapping=null", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> NvmDeviceConfig.builder(PAGE).writePolicy(null).build());
        assertEquals("pagecache.nvm.write_policy must be one of " + String.join(", ", NvmFlags.WRITE_POLICIES)
            + ": pagecache.nvm.write_policy=null", e.getMessage());
    }

    @Test
    void theBuilderRefusesALatencyAboveTheFlagsTenSecondsAsTheFlagDoes() throws IOException {
        long tenSeconds = 10_000_000_000L;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> NvmDeviceConfig.builder(PAGE).readLatencyNanos(tenSeconds + 1).build());
        assertEquals("pagecache.nvm.read_latency must be at most 10s (10000000000 ns): pagecache.nvm.read_latency=10000000001",
            e.getMessage());
        // Long.MAX_VALUE: an injected wait's deadline overflowed, and two operations' modeled time went negative
        e = assertThrows(IllegalArgumentException.class,
            () -> NvmDeviceConfig.builder(PAGE).writeLatencyNanos(Long.MAX_VALUE).build());
        assertTrue(e.getMessage().startsWith("pagecache.nvm.write_latency must be at most 10s"), e.getMessage());
        NvmDeviceConfig most = NvmDeviceConfig.builder(PAGE).slots(2).readLatencyNanos(tenSeconds)
            .writeLatencyNanos(tenSeconds).injectLatency(false).build();
        assertEquals(tenSeconds, most.readLatencyNanos());
        try (NvmDevice device = new NvmDevice(most)) {
            long page = org.agrona.UnsafeAccess.UNSAFE.allocateMemory(PAGE);
            try {
                device.write(0, page, PAGE);
                device.read(0, page, PAGE);
            } finally {
                org.agrona.UnsafeAccess.UNSAFE.freeMemory(page);
            }
            assertEquals(2 * tenSeconds, device.stats().modeledDeviceNanos());
        }
    }

    @Test
    void toBuilderReproducesTheConfig() {
        NvmDeviceConfig c = parse(NvmDeviceConfig.PROFILE, "dram", NvmDeviceConfig.CAPACITY, "1m",
            NvmDeviceConfig.DEVICES, "3", NvmDeviceConfig.WRITE_LATENCY, "7");
        assertEquals(c.toString(), c.toBuilder().build().toString());
    }
}
