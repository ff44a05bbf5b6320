package io.ratatosk.pagecache;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FlagValueValidationTest {

    private static InvalidConfigurationException refused(String flag, Object value) {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put(flag, value);
        return assertThrows(InvalidConfigurationException.class, () -> PageCacheConfig.parse(values));
    }

    private static InvalidConfigurationException refused(Map<String, ?> values) {
        return assertThrows(InvalidConfigurationException.class, () -> PageCacheConfig.parse(values));
    }

    @Test
    void aValueWithALineBreakStaysOnItsProblemsLine() {
        // The message is one line per problem; a refused value's own line break made one problem read as two, the
        // second naming no flag ("b: must be 1 to 64 letters, ...").
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("pagecache.name", "a\nb");
        values.put("pagecache.memory", "1\r\nx");
        values.put("pagecache.memroy\u2028", "2g");
        InvalidConfigurationException e = refused(values);
        assertEquals(java.util.List.of(
                "pagecache.name=a\\nb: must be 1 to 64 letters, digits, '.', '_' or '-'",
                "pagecache.memory=1\\r\\nx: must be a size in [2 pages of pagecache.page_size, 1t] (not a size: use a byte count"
                    + " or a number with unit k, m, g or t, like 8192, 8k, 512MB or 1GiB)",
                "pagecache.memroy\\u2028=2g: unknown flag; did you mean 'pagecache.memory'?"),
            java.util.List.of(e.getMessage().split("\n")));
        assertEquals("a\nb", e.value(), "the value as given");
        assertEquals("pagecache.name", e.flag());
    }

    @Test
    void aMaxUsageAboveSevenNamesFlagValueAndRange() {
        InvalidConfigurationException e = refused("pagecache.clock.max_usage", "9");
        assertEquals("pagecache.clock.max_usage=9: must be an integer in [1, 7]", e.getMessage());
        assertEquals("pagecache.clock.max_usage", e.flag());
        assertEquals("9", e.value());
    }

    @ParameterizedTest(name = "pagecache.clock.max_usage={0}")
    @ValueSource(strings = {"0", "8", "-1", "2147483648", "99999999999999999999"})
    void refusesMaxUsageOutOfRange(String text) {
        assertEquals("pagecache.clock.max_usage=" + text + ": must be an integer in [1, 7]",
                refused("pagecache.clock.max_usage", text).getMessage());
    }

    @ParameterizedTest(name = "pagecache.clock.max_usage={0}")
    @ValueSource(strings = {"four", "4.0", "4.5", "0x4", "4k", ""})
    void refusesMaxUsageThatIsNotAnInteger(String text) {
        String message = refused("pagecache.clock.max_usage", text).getMessage();
        assertTrue(message.startsWith("pagecache.clock.max_usage=" + text + ": must be an integer in [1, 7] ("), message);
    }

    @ParameterizedTest(name = "pagecache.clock.{0}=8")
    @ValueSource(strings = {"fault_usage", "evict_threshold"})
    void refusesFaultUsageAndThresholdAboveSeven(String flag) {
        assertEquals("pagecache.clock." + flag + "=8: must be an integer in [0, pagecache.clock.max_usage]",
                refused("pagecache.clock." + flag, "8").getMessage());
        assertTrue(refused("pagecache.clock." + flag, "-1").getMessage().contains("must be an integer in [0,"));
    }

    @ParameterizedTest(name = "pagecache.clock.{0} above a max_usage that is set")
    @ValueSource(strings = {"fault_usage", "evict_threshold"})
    void refusesFaultUsageAndThresholdAboveTheMaxUsageSet(String flag) {
        InvalidConfigurationException e = refused(Map.of("pagecache.clock.max_usage", "4", "pagecache.clock." + flag, "5"));
        assertEquals("pagecache.clock." + flag + "=5: must be an integer in [0, pagecache.clock.max_usage=4]", e.getMessage());
        assertEquals("pagecache.clock." + flag, e.flag());
    }

    @Test
    void acceptsFaultUsageUpToMaxUsageAndUpToSevenWhenMaxUsageIsUnset() {
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.clock.max_usage", "4",
                "pagecache.clock.fault_usage", "4", "pagecache.clock.evict_threshold", "0"));
        assertEquals(4, config.getInt("pagecache.clock.fault_usage"));
        assertEquals(0, config.getInt("pagecache.clock.evict_threshold"));

        PageCacheConfig unsetMax = PageCacheConfig.parse(Map.of("pagecache.clock.fault_usage", "7", "pagecache.clock.evict_threshold", "7"));
        assertEquals(7, unsetMax.getInt("pagecache.clock.fault_usage"));
    }

    @ParameterizedTest(name = "pagecache.evictor.enabled={0}")
    @ValueSource(strings = {"yes", "no", "1", "0", "on", "off", "t", "truee", "", "null"})
    void refusesBooleansOtherThanTrueAndFalse(String text) {
        String message = refused("pagecache.evictor.enabled", text).getMessage();
        assertTrue(message.startsWith("pagecache.evictor.enabled=" + text + ": must be true or false"), message);
    }

    @Test
    void acceptsTrueAndFalseInAnyCase() {
        assertTrue(PageCacheConfig.parse(Map.of("pagecache.evictor.enabled", "TRUE")).evictorEnabled());
        assertFalse(PageCacheConfig.parse(Map.of("pagecache.evictor.enabled", "False")).evictorEnabled());
        assertFalse(PageCacheConfig.parse(Map.of("pagecache.evictor.enabled", Boolean.FALSE)).evictorEnabled());
    }

    @Test
    void aBadPolicyNameListsTheValidOnes() {
        assertEquals("pagecache.policy=lru: must be one of muninn, global-clock, clock, random, clock-pro, clock-pro-plus, bitset-history, bitset-history-exact, deferred-lru, s3-fifo, w-tinylfu, w-tinylfu-adaptive, best-of",
                refused("pagecache.policy", "lru").getMessage());
    }

    @Test
    void policyNamesMatchCaseInsensitivelyAndReadBackLowerCase() {
        assertEquals("global-clock", PageCacheConfig.parse(Map.of("pagecache.policy", "Global-Clock")).policy());
    }

    @Test
    void aBadSwapNameListsTheValidOnesAndWhereTheNvmTierComesFrom() {
        // No storage-nvm on this module's class path: the only tier is the files, and the message says where nvm is.
        assertEquals("pagecache.swap=nvm: must be one of file (nvm comes with io.ratatosk:storage-nvm on the class path)",
            refused("pagecache.swap", "nvm").getMessage());
        InvalidConfigurationException unknown = refused("pagecache.nvm.capacity", "1m");
        assertTrue(unknown.getMessage().startsWith("pagecache.nvm.capacity=1m: unknown flag"), unknown.getMessage());
    }

    /**
     * An NVM flag without storage-nvm on the class path is unknown, and the message says where it comes from: it once
     * suggested the nearest name, an unrelated flag ("did you mean 'pagecache.history.capacity'?" for
     * pagecache.nvm.capacity), or listed every flag there is without a word about the tier.
     */
    @Test
    void anNvmFlagWithoutTheNvmTierSaysWhereTheTierComesFrom() {
        String where = "the pagecache.nvm.* flags come with the NVM tier (pagecache.swap=nvm), io.ratatosk:storage-nvm, which is"
            + " not on the class path";
        assertEquals("pagecache.nvm.capacity=1m: unknown flag; " + where, refused("pagecache.nvm.capacity", "1m").getMessage());
        assertEquals("pagecache.nvm.devices=2: unknown flag; " + where, refused("pagecache.nvm.devices", "2").getMessage());
        IllegalArgumentException read = assertThrows(IllegalArgumentException.class,
            () -> PageCacheConfig.defaults().getSize("pagecache.nvm.capacity"));
        assertEquals("unknown flag 'pagecache.nvm.capacity'; " + where, read.getMessage());
    }

    @Test
    void memoryBelowTwoPagesIsRefusedNamingBothFlags() {
        assertEquals("pagecache.memory=8k holds 1 page of pagecache.page_size=8192; at least 2 are needed",
                refused("pagecache.memory", "8k").getMessage());
        assertEquals("pagecache.memory=4k holds 0 pages of pagecache.page_size=8192; at least 2 are needed",
                refused("pagecache.memory", "4k").getMessage());
        assertEquals("pagecache.memory=1m holds 1 page of pagecache.page_size=1048576; at least 2 are needed",
                refused(Map.of("pagecache.memory", "1m", "pagecache.page_size", "1m")).getMessage());
        assertEquals(2, PageCacheConfig.parse(Map.of("pagecache.memory", "2m", "pagecache.page_size", "1m")).frames());
    }

    @Test
    void moreFramesThanAnIntArrayHoldsAreRefused() {
        InvalidConfigurationException e = refused(Map.of("pagecache.memory", "1t", "pagecache.page_size", "512"));
        assertEquals("pagecache.memory=1t holds 2147483648 pages of pagecache.page_size=512; at most 2147483639 are supported",
                e.getMessage());
    }

    @Test
    void keepFreeMustBeLessThanTheFrameCount() {
        InvalidConfigurationException e = refused(Map.of("pagecache.memory", "512k", "pagecache.evictor.keep_free", "64"));
        assertEquals("pagecache.evictor.keep_free=64: must be less than the frame count, 64 "
                + "(pagecache.memory=512k / pagecache.page_size=8192)", e.getMessage());
        assertEquals(63, PageCacheConfig.parse(Map.of("pagecache.memory", "512k", "pagecache.evictor.keep_free", "63")).keepFree());
    }

    @Test
    void keepFreeMustBeAtLeastOne() {
        assertEquals("pagecache.evictor.keep_free=0: must be an integer >= 1, less than the frame count",
                refused("pagecache.evictor.keep_free", "0").getMessage());
    }

    @Test
    void reportsEveryProblemInOneMessageOnePerLine() {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("pagecache.memory", "lots");
        values.put("pagecache.clock.max_usage", "9");
        values.put("pagecache.evictor.enabled", "yes");
        values.put("pagecache.polcy", "clock");
        values.put("pagecache.clock.fault_usage", "3");

        InvalidConfigurationException e = refused(values);

        String[] lines = e.getMessage().split("\n");
        assertEquals(4, lines.length, e.getMessage());
        assertTrue(lines[0].startsWith("pagecache.memory=lots: must be a size"), lines[0]);
        assertEquals("pagecache.clock.max_usage=9: must be an integer in [1, 7]", lines[1]);
        assertEquals("pagecache.evictor.enabled=yes: must be true or false", lines[2]);
        assertEquals("pagecache.polcy=clock: unknown flag; did you mean 'pagecache.policy'?", lines[3]);
        assertEquals(4, e.problems().size());
        assertEquals("pagecache.memory", e.flag());
        assertEquals("pagecache.polcy", e.problems().get(3).flag());
    }

    @Test
    void aRefusedValueDoesNotAlsoTriggerTheRulesThatDependOnIt() {
        InvalidConfigurationException e = refused(Map.of("pagecache.page_size", "3000", "pagecache.memory", "4k"));
        assertEquals(1, e.problems().size(), e.getMessage());
        assertEquals("pagecache.page_size", e.flag());
    }
}
