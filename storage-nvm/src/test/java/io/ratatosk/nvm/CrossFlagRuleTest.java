package io.ratatosk.nvm;

import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.InvalidConfigurationException;
import io.ratatosk.core.config.Flag;
import io.ratatosk.pagecache.PageCacheFlags;
import io.ratatosk.policies.PolicySizes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rules between flags that a policy or the NVM tier would otherwise find only when the cache
 * opens: each is refused at parse time, naming every flag involved, the values, and the rule.
 */
class CrossFlagRuleTest {

    private static InvalidConfigurationException refused(String... flagsAndValues) {
        return assertThrows(InvalidConfigurationException.class, () -> PageCacheConfig.parse(map(flagsAndValues)));
    }

    private static PageCacheConfig parse(String... flagsAndValues) {
        return PageCacheConfig.parse(map(flagsAndValues));
    }

    private static Map<String, String> map(String... flagsAndValues) {
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < flagsAndValues.length; i += 2) {
            values.put(flagsAndValues[i], flagsAndValues[i + 1]);
        }
        return values;
    }

    // ---------------------------------------------------------------- clock-pro cold bounds

    @Test
    void aColdMinAboveTheColdMaxIsRefusedAtParseNamingBothFlagsTheirFramesAndTheFrameCount() {
        // Issue 11: this was accepted, and PageCache.open then threw from the policy's constructor.
        InvalidConfigurationException e = refused("pagecache.policy", "clock-pro",
                "pagecache.clockpro.cold_min", "0.5", "pagecache.clockpro.cold_max", "0.1");
        assertEquals("pagecache.clockpro.cold_min=0.5 (32768 frames) must be at most pagecache.clockpro.cold_max=0.1 (6554 frames); "
                + "the frame count is 65536 (pagecache.memory=512m / pagecache.page_size=8192)", e.getMessage());
        assertEquals("pagecache.clockpro.cold_min", e.flag());
        assertEquals("0.5", e.value());
    }

    @Test
    void aColdMaxBelowTheDefaultColdMinSaysTheDefaultAndHowItIsDerived() {
        InvalidConfigurationException e = refused("pagecache.memory", "800k", "pagecache.clockpro.cold_max", "1");
        assertEquals("pagecache.clockpro.cold_max=1 (1 frame) must be at least pagecache.clockpro.cold_min, unset, which defaults to "
                + "2 frames (1% of frames, at least 2); the frame count is 100 (pagecache.memory=800k / pagecache.page_size=8192)",
                e.getMessage());
        assertEquals("pagecache.clockpro.cold_max", e.flag());
    }

    @ParameterizedTest(name = "pagecache.policy={0}")
    @ValueSource(strings = {"clock-pro", "clock-pro-plus", "muninn"})
    void theColdBoundsAreCheckedWhateverThePolicySoThatChangingOnlyThePolicyKeepsAConfigValid(String policy) {
        refused("pagecache.policy", policy, "pagecache.clockpro.cold_min", "20", "pagecache.clockpro.cold_max", "10");
    }

    @Test
    void equalColdBoundsAndAColdMaxAboveItsCapAreAccepted() {
        parse("pagecache.policy", "clock-pro", "pagecache.clockpro.cold_min", "0.5", "pagecache.clockpro.cold_max", "0.5");
        parse("pagecache.policy", "clock-pro", "pagecache.memory", "16k", "pagecache.clockpro.cold_min", "2",
                "pagecache.clockpro.cold_max", "2");
        // Above frames - cold_min the policy caps cold_max; the cap is never below cold_min.
        parse("pagecache.policy", "clock-pro", "pagecache.clockpro.cold_min", "0.9", "pagecache.clockpro.cold_max", "1.0");
    }

    @Test
    void fractionsAreCountedOnTheFramesTheyComeTo() {
        // 0.021 and 0.019 of 100 frames are both 2 frames (rounded), so they do not contradict each other.
        parse("pagecache.memory", "800k", "pagecache.clockpro.cold_min", "0.021", "pagecache.clockpro.cold_max", "0.019");
        refused("pagecache.memory", "800k", "pagecache.clockpro.cold_min", "0.03", "pagecache.clockpro.cold_max", "0.02");
    }

    // ---------------------------------------------------------------- clock-pro ghosts

    @Test
    void ghostsAtAPolicysDefaultThatDoNotFitAreRefusedSayingItIsTheDefault() {
        InvalidConfigurationException e = refused("pagecache.memory", "1t", "pagecache.page_size", "1k", "pagecache.policy", "clock-pro");
        assertEquals("pagecache.clockpro.ghosts, unset, which defaults to 2.0 for pagecache.policy=clock-pro, keeps 2147483648 ghosts "
                + "for the frame count, 1073741824 (pagecache.memory=1t / pagecache.page_size=1024); at most 536870912 fit "
                + "(536870912 in the ghost index, and frames + ghosts + 1 <= 2147483639 nodes in the clock's arrays)", e.getMessage());
        assertEquals("pagecache.clockpro.ghosts", e.flag());
        parse("pagecache.memory", "1t", "pagecache.page_size", "1k", "pagecache.policy", "clock-pro", "pagecache.clockpro.ghosts", "0.5");
        parse("pagecache.memory", "1t", "pagecache.page_size", "1k", "pagecache.policy", "muninn");
    }

    @Test
    void ghostsThatAreSetAreCheckedWhateverThePolicy() {
        InvalidConfigurationException e = refused("pagecache.memory", "1t", "pagecache.page_size", "2k", "pagecache.clockpro.ghosts", "4.0");
        assertTrue(e.getMessage().startsWith("pagecache.clockpro.ghosts=4.0 keeps 2147483648 ghosts for the frame count, 536870912 "),
                e.getMessage());
    }

    @Test
    void soManyFramesThatNoGhostFitsSaysSo() {
        InvalidConfigurationException e = refused("pagecache.memory", "1023g", "pagecache.page_size", "512",
                "pagecache.policy", "clock-pro-plus", "pagecache.clockpro.ghosts", "0.5");
        assertTrue(e.getMessage().contains("at most 2097142 fit"), e.getMessage());
        e = refused("pagecache.memory", String.valueOf((PageCacheConfig.MAX_FRAMES - 1L) * 512), "pagecache.page_size", "512",
                "pagecache.policy", "clock-pro");
        assertTrue(e.getMessage().contains("no ghost fits beside so many frames"), e.getMessage());
    }

    // ---------------------------------------------------------------- history sizes

    @Test
    void aHistoryCapacityAboveFourTimesTheFramesIsRefusedNamingTheFrameCount() {
        InvalidConfigurationException e = refused("pagecache.memory", "1m", "pagecache.history.capacity", "513");
        assertEquals("pagecache.history.capacity=513: must be at most 512, 4 x the frame count; the frame count is 128 "
                + "(pagecache.memory=1m / pagecache.page_size=8192)", e.getMessage());
        assertEquals(512, parse("pagecache.memory", "1m", "pagecache.history.capacity", "512").getInt("pagecache.history.capacity"));
        assertEquals("pagecache.history.capacity=268435457: must be an integer in [1, 268435456], at most 4 x the frame count",
                refused("pagecache.history.capacity", "268435457").getMessage());
    }

    @Test
    void historyBitsAboveSixtyFourPerFrameAreRefusedNamingTheFrameCount() {
        InvalidConfigurationException e = refused("pagecache.memory", "1m", "pagecache.history.bits", "16384");
        assertEquals("pagecache.history.bits=16384: must be at most 8192, 64 x the frame count rounded up to a power of two; "
                + "the frame count is 128 (pagecache.memory=1m / pagecache.page_size=8192)", e.getMessage());
        parse("pagecache.memory", "1m", "pagecache.history.bits", "8192");
        parse("pagecache.memory", "24k", "pagecache.history.bits", "256");
    }

    @Test
    void theDerivedHistoryDefaultsAreAlwaysWithinTheRules() {
        for (int frames : new int[] {2, 3, 100, 1 << 20, 1 << 27, (1 << 28) + 1, PageCacheConfig.MAX_FRAMES}) {
            assertTrue(PolicySizes.defaultHistoryCapacity(frames) <= PolicySizes.maxHistoryCapacity(frames), "frames " + frames);
            assertTrue(PolicySizes.defaultHistoryBits(frames) <= PolicySizes.maxHistoryBits(frames), "frames " + frames);
        }
    }

    // ---------------------------------------------------------------- NVM slots

    @Test
    void theNvmTierHoldsAtMostTheSlotsWhoseStartGapSpareStillFitsAnArray() {
        InvalidConfigurationException e = refused("pagecache.nvm.capacity", String.valueOf((NvmFlags.MAX_SLOTS + 1L) * 512),
                "pagecache.page_size", "512");
        assertEquals("pagecache.nvm.capacity=1099511623168 holds 2147483639 pages of pagecache.page_size=512; at most 2147483638 are supported",
                e.getMessage());
        parse("pagecache.nvm.capacity", String.valueOf(NvmFlags.MAX_SLOTS * 512L), "pagecache.page_size", "512");
    }

    // ---------------------------------------------------------------- every spelling

    /** Values a parser might get wrong, tried on every flag. */
    private static final List<String> SPELLINGS = List.of("", " ", "1e3", "0x10", " 5 ", "-0", "+0", "-0.0", "NaN", "Infinity",
            "-Infinity", "1_000", "1,000", "\u0661", "\uff11", ".5", "5.", "1.0000000001", "0.9999999999999999999999",
            "0." + "0".repeat(400) + "1", "9".repeat(1000), "-" + "9".repeat(1000), "1" + "0".repeat(19) + "k",
            "2147483648", "-2147483649", "9223372036854775808", "1.5", "4.0", "0.5", "7", "8", "64", "1t", "1025g", "10s",
            "10.000000001s", "1.5ns", "true", "TRUE", "nvm", "NVME", "clock-pro");

    @Test
    void everyFlagRefusesOddSpellingsWithAnInvalidConfigurationExceptionOrParsesToAValueThatReadsBack() {
        List<String> escaped = new ArrayList<>();
        int accepted = 0;
        for (Flag flag : PageCacheFlags.ALL.all()) {
            for (String text : SPELLINGS) {
                PageCacheConfig config;
                try {
                    config = PageCacheConfig.parse(Map.of(flag.name(), text));
                } catch (InvalidConfigurationException e) {
                    if (!e.getMessage().startsWith(flag.name() + "=")) {
                        escaped.add(flag.name() + "=" + text + ": the message does not start with the flag: " + e.getMessage());
                    }
                    continue;
                } catch (RuntimeException e) {
                    escaped.add(flag.name() + "=" + text.substring(0, Math.min(text.length(), 30)) + ": " + e);
                    continue;
                }
                accepted++;
                // The normalised text of an accepted value parses back to the same config.
                assertEquals(config, PageCacheConfig.parse(config.explicitValues()), flag.name() + "=" + text);
            }
        }
        assertEquals(List.of(), escaped);
        assertTrue(accepted > 0);
    }
}
