package io.ratatosk.pagecache;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PageCacheConfigTest {

    @Test
    void defaultsAreTheDocumentedValues() {
        PageCacheConfig config = PageCacheConfig.defaults();
        assertEquals(512L << 20, config.memoryBytes());
        assertEquals(8192, config.pageSize());
        assertEquals(65536, config.frames());
        assertEquals("best-of", config.policy());
        assertTrue(config.evictorEnabled());
        assertEquals(3276, config.keepFree(), "5% of 65536 frames");
        assertEquals("file", config.swap());
        assertEquals(1, config.getInt("pagecache.clock.fault_usage"));
        assertEquals(1, config.getInt("pagecache.clock.evict_threshold"));
        assertTrue(config.explicitValues().isEmpty());
        assertFalse(config.isSet("pagecache.memory"));
        NullPointerException e = assertThrows(NullPointerException.class, () -> config.isSet((String) null));
        assertEquals("flag name", e.getMessage(), "named, not an NPE from deep in the catalog");
    }

    /** A null source is refused naming the parameter; fromArgs(null) said "Cannot read the array length because "<local3>" is null". */
    @Test
    void aNullSourceIsRefusedNamingIt() {
        assertEquals("values", assertThrows(NullPointerException.class, () -> PageCacheConfig.parse((Map<String, ?>) null)).getMessage());
        assertEquals("properties", assertThrows(NullPointerException.class, () -> PageCacheConfig.parse((Properties) null)).getMessage());
        assertEquals("args", assertThrows(NullPointerException.class, () -> PageCacheConfig.fromArgs((String[]) null)).getMessage());
        assertEquals("values", assertThrows(NullPointerException.class, () -> PageCacheConfig.defaults().withAll(null)).getMessage());
    }

    @Test
    void anEmptyMapGivesTheDefaults() {
        assertEquals(PageCacheConfig.defaults(), PageCacheConfig.parse(Map.of()));
    }

    @Test
    void parsesAMapOfStringsNumbersAndBooleans() {
        PageCacheConfig config = PageCacheConfig.parse(Map.of(
                "pagecache.memory", "1g",
                "pagecache.clock.max_usage", 5,
                "pagecache.page_size", 4096L,
                "pagecache.evictor.enabled", false,
                "pagecache.policy", "global-clock"));
        assertEquals(1L << 30, config.memoryBytes());
        assertEquals(4096, config.pageSize());
        assertEquals(1 << 18, config.frames());
        assertEquals(5, config.getInt("pagecache.clock.max_usage"));
        assertFalse(config.evictorEnabled());
        assertEquals("global-clock", config.policy());
        assertTrue(config.isSet("pagecache.memory"));
        assertFalse(config.isSet("pagecache.swap"));
    }

    @Test
    void readsDecimalNumbersAsTheirPlainValueNotTheirScientificToString() {
        // Double.toString writes 1.0E-4 and 1.0E10, BigDecimal.toString 1E+9: values in range that no flag's text
        // accepts, so a store that passed doubles had a valid value refused in words it never wrote.
        PageCacheConfig config = PageCacheConfig.parse(Map.of(
                "pagecache.tinylfu.protected", 0.0001,
                "pagecache.clockpro.cold_min", 1e-5f,
                "pagecache.memory", 1e10,
                "pagecache.page_size", 4096.0));
        assertEquals(0.0001, config.getDouble("pagecache.tinylfu.protected"), 0.0);
        assertEquals(24, config.getFrameCount("pagecache.clockpro.cold_min"), "0.00001 of 2441406 frames");
        assertEquals(10_000_000_000L, config.memoryBytes());
        assertEquals(4096, config.pageSize());
        assertEquals(1_000_000_000L, PageCacheConfig.parse(Map.of("pagecache.memory", new java.math.BigDecimal("1E+9"))).memoryBytes());
        InvalidConfigurationException nan = assertThrows(InvalidConfigurationException.class,
                () -> PageCacheConfig.parse(Map.of("pagecache.tinylfu.protected", Double.NaN)));
        assertEquals("pagecache.tinylfu.protected=NaN: must be a number in [0.0, 1.0] (not a decimal number)", nan.getMessage());
    }

    @Test
    void parsesPropertiesIncludingTheirDefaults() {
        Properties defaults = new Properties();
        defaults.setProperty("pagecache.memory", "64m");
        defaults.setProperty("pagecache.evictor.enabled", "false");
        Properties properties = new Properties(defaults);
        properties.setProperty("pagecache.memory", "128m");
        properties.setProperty("pagecache.policy", "clock");

        PageCacheConfig config = PageCacheConfig.parse(properties);

        assertEquals(128L << 20, config.memoryBytes(), "a property overrides its default");
        assertEquals(false, config.evictorEnabled(), "a default property counts");
        assertEquals("clock", config.policy());
    }

    @Test
    void aNonStringPropertyOverridesItsDefaultAsAStringOneDoes() {
        Properties defaults = new Properties();
        defaults.setProperty("pagecache.memory", "64m");
        defaults.setProperty("pagecache.clock.max_usage", "3");
        Properties properties = new Properties(defaults);
        properties.put("pagecache.memory", 128L << 20);
        properties.put("pagecache.clock.max_usage", 6);

        PageCacheConfig config = PageCacheConfig.parse(properties);

        assertEquals(128L << 20, config.memoryBytes(), "the property given, not its default");
        assertEquals(6, config.getInt("pagecache.clock.max_usage"));
    }

    @Test
    void parsesPropertiesHoldingNonStringValues() {
        Properties properties = new Properties();
        properties.put("pagecache.clock.max_usage", 6);
        assertEquals(6, PageCacheConfig.parse(properties).getInt("pagecache.clock.max_usage"));
    }

    @Test
    void parsesCommandLineArguments() {
        PageCacheConfig config = PageCacheConfig.fromArgs("--pagecache.memory=256m", "--pagecache.evictor.keep_free=100",
                "--pagecache.policy=random");
        assertEquals(256L << 20, config.memoryBytes());
        assertEquals(100, config.keepFree());
        assertEquals("random", config.policy());
        assertEquals(PageCacheConfig.defaults(), PageCacheConfig.fromArgs());
    }

    @Test
    void anArgumentValueMayContainEqualsSigns() {
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> PageCacheConfig.fromArgs("--pagecache.policy=a=b"));
        assertEquals("pagecache.policy", e.flag());
        assertEquals("a=b", e.value());
    }

    @Test
    void refusesArgumentsThatAreNotFlagsNamingEachOne() {
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> PageCacheConfig.fromArgs("pagecache.memory=1g", "--pagecache.memory", "-Xmx2g", "--=5", "512m"));
        String[] lines = e.getMessage().split("\n");
        assertEquals(5, lines.length, e.getMessage());
        assertTrue(lines[0].startsWith("argument 'pagecache.memory=1g' is not a flag: expected --pagecache.<name>=<value>"), lines[0]);
        assertTrue(lines[1].startsWith("argument '--pagecache.memory' is not a flag"), lines[1]);
        assertTrue(lines[2].startsWith("argument '-Xmx2g' is not a flag"), lines[2]);
        assertTrue(lines[3].startsWith("argument '--=5' is not a flag"), lines[3]);
        assertTrue(lines[4].startsWith("argument '512m' is not a flag"), lines[4]);
        assertEquals("pagecache.memory=1g", e.flag());
    }

    @Test
    void refusesAFlagGivenTwiceOnTheCommandLine() {
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> PageCacheConfig.fromArgs("--pagecache.memory=1g", "--pagecache.memory=2g"));
        assertEquals("argument '--pagecache.memory=2g' sets pagecache.memory again, after '--pagecache.memory=1g'; give each flag once",
                e.getMessage());
    }

    @Test
    void readsOnlySystemPropertiesThatStartWithPagecache() {
        Properties saved = (Properties) System.getProperties().clone();
        try {
            System.setProperty("pagecache.memory", "32m");
            System.setProperty("pagecache.policy", "global-clock");
            System.setProperty("pagecacheish.memory", "not a size");
            System.setProperty("ratatosk.unrelated", "whatever");

            PageCacheConfig config = PageCacheConfig.fromSystemProperties();

            assertEquals(32L << 20, config.memoryBytes());
            assertEquals("global-clock", config.policy());
            assertEquals(Map.of("pagecache.memory", "32m", "pagecache.policy", "global-clock"), config.explicitValues());
        } finally {
            System.setProperties(saved);
        }
    }

    /**
     * A system property put with a value that is no String (System.getProperties().put("pagecache.memory", 33554432), as
     * parse(Properties) reads one) was skipped, so the cache opened at the default 512m without a word; a bad one was not
     * refused either.
     */
    @Test
    void readsSystemPropertiesWhoseValueIsNoString() {
        Properties saved = (Properties) System.getProperties().clone();
        try {
            System.getProperties().put("pagecache.memory", 32L << 20);
            System.getProperties().put("pagecache.evictor.enabled", Boolean.FALSE);
            PageCacheConfig config = PageCacheConfig.fromSystemProperties();
            assertEquals(32L << 20, config.memoryBytes());
            assertFalse(config.evictorEnabled());
            System.getProperties().put("pagecache.evictor.keep_free", -1);
            InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class, PageCacheConfig::fromSystemProperties);
            assertEquals("pagecache.evictor.keep_free", e.flag());
            assertEquals("-1", e.value());
        } finally {
            System.setProperties(saved);
        }
    }

    @Test
    void refusesAMisspeltSystemProperty() {
        Properties saved = (Properties) System.getProperties().clone();
        try {
            System.setProperty("pagecache.memroy", "32m");
            InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class, PageCacheConfig::fromSystemProperties);
            assertEquals("pagecache.memroy=32m: unknown flag; did you mean 'pagecache.memory'?", e.getMessage());
        } finally {
            System.setProperties(saved);
        }
    }

    @Test
    void refusesASystemPropertyWhosePrefixIsMisspelt() {
        // -Dpagecahe.memory=2g was skipped as another library's property: the cache opened at the default 512m, silently.
        Properties saved = (Properties) System.getProperties().clone();
        try {
            System.setProperty("pagecahe.memory", "2g");
            System.setProperty("PageCache.policy", "clock");
            System.setProperty("page_cache.evictor.enabled", "false");
            System.setProperty("imagecache.memory", "not ours: two edits from pagecache");
            InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class, PageCacheConfig::fromSystemProperties);
            assertEquals(List.of(
                    "PageCache.policy=clock: not read, as only system properties starting with 'pagecache.' are; did you mean 'pagecache.policy'?",
                    "page_cache.evictor.enabled=false: not read, as only system properties starting with 'pagecache.' are; did you mean 'pagecache.evictor.enabled'?",
                    "pagecahe.memory=2g: not read, as only system properties starting with 'pagecache.' are; did you mean 'pagecache.memory'?"),
                    List.of(e.getMessage().split("\n")));
            assertEquals("PageCache.policy", e.flag());
        } finally {
            System.setProperties(saved);
        }
    }

    @Test
    void withReturnsAValidatedCopyAndLeavesTheOriginalAlone() {
        PageCacheConfig original = PageCacheConfig.parse(Map.of("pagecache.memory", "64m"));
        PageCacheConfig copy = original.with("pagecache.policy", "global-clock");

        assertEquals("global-clock", copy.policy());
        assertEquals(64L << 20, copy.memoryBytes(), "flags set before are kept");
        assertEquals("best-of", original.policy());
        assertNotEquals(original, copy);
    }

    @Test
    void withOverridesAFlagSetBefore() {
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "64m")).with("pagecache.memory", "128m");
        assertEquals(128L << 20, config.memoryBytes());
    }

    @Test
    void withRefusesABadValueAnUnknownNameAndANullValue() {
        PageCacheConfig config = PageCacheConfig.defaults();
        InvalidConfigurationException bad = assertThrows(InvalidConfigurationException.class,
                () -> config.with("pagecache.clock.max_usage", "8"));
        assertEquals("pagecache.clock.max_usage=8: must be an integer in [1, 7]", bad.getMessage());

        InvalidConfigurationException unknown = assertThrows(InvalidConfigurationException.class,
                () -> config.with("pagecache.polcy", "clock"));
        assertEquals("pagecache.polcy=clock: unknown flag; did you mean 'pagecache.policy'?", unknown.getMessage());

        InvalidConfigurationException missing = assertThrows(InvalidConfigurationException.class,
                () -> config.with("pagecache.policy", null));
        assertEquals("pagecache.policy=: must be one of muninn, global-clock, clock, random, clock-pro, clock-pro-plus, bitset-history, bitset-history-exact, deferred-lru, s3-fifo, w-tinylfu, w-tinylfu-adaptive, best-of (no value)", missing.getMessage());
    }

    @Test
    void withChecksTheRulesAcrossFlags() {
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "1m", "pagecache.clock.fault_usage", "3"));
        InvalidConfigurationException pages = assertThrows(InvalidConfigurationException.class,
                () -> config.with("pagecache.page_size", "1m"));
        assertEquals("pagecache.memory=1m holds 1 page of pagecache.page_size=1048576; at least 2 are needed", pages.getMessage());

        InvalidConfigurationException usage = assertThrows(InvalidConfigurationException.class,
                () -> config.with("pagecache.clock.max_usage", "2"));
        assertEquals("pagecache.clock.fault_usage=3: must be an integer in [0, pagecache.clock.max_usage=2]", usage.getMessage());
    }

    @Test
    void withAllSetsSeveralFlagsAtOnce() {
        Map<String, Object> changes = new LinkedHashMap<>();
        changes.put("pagecache.policy", "global-clock");
        changes.put("pagecache.clock.max_usage", 7);
        PageCacheConfig config = PageCacheConfig.defaults().withAll(changes);
        assertEquals("global-clock", config.policy());
        assertEquals(7, config.getInt("pagecache.clock.max_usage"));
    }

    @Test
    void explicitValuesAreSortedAndNormalised() {
        PageCacheConfig config = PageCacheConfig.parse(Map.of(
                "pagecache.swap", "FILE",
                "pagecache.memory", "512MB",
                "pagecache.evictor.enabled", " TRUE ",
                "pagecache.page_size", "4096",
                "pagecache.clock.max_usage", "+5"));
        assertEquals("{pagecache.clock.max_usage=5, pagecache.evictor.enabled=true, pagecache.memory=512m, "
                + "pagecache.page_size=4k, pagecache.swap=file}", config.explicitValues().toString());
        assertThrows(UnsupportedOperationException.class, () -> config.explicitValues().put("pagecache.memory", "1g"));
    }

    @Test
    void toStringShowsEveryFlagWithItsEffectiveValueOnOneLine() {
        String text = PageCacheConfig.parse(Map.of("pagecache.memory", "1g")).toString();
        assertEquals("PageCacheConfig{pagecache.memory=1g, pagecache.page_size=8k, pagecache.policy=best-of, "
                + "pagecache.clock.max_usage=(4 for muninn, 7 for global-clock and bitset-history), pagecache.clock.fault_usage=1, "
                + "pagecache.clock.evict_threshold=1, pagecache.clockpro.adaptive=true, pagecache.clockpro.authors_correlation=false, "
                + "pagecache.clockpro.cold_min=(1% of frames, at least 2), "
                + "pagecache.clockpro.cold_max=(99% of frames for clock-pro, 50% for clock-pro-plus), "
                + "pagecache.clockpro.ghosts=(2.0 for clock-pro, 1.0 for clock-pro-plus), "
                + "pagecache.history.bits=(8 x frames rounded up to a power of two, at most 2^30), "
                + "pagecache.history.capacity=(the frame count, at most 268435456), "
                + "pagecache.history.boost_usage=(7, or pagecache.clock.max_usage when that is lower), "
                + "pagecache.deferred_lru.pull_threshold=0.9, pagecache.deferred_lru.purge_count=0.01, "
                + "pagecache.s3fifo.small=0.1, pagecache.s3fifo.ghosts=0.9, pagecache.s3fifo.move_threshold=2, "
                + "pagecache.s3fifo.adaptive_ghosts=false, "
                + "pagecache.tinylfu.window=(1% of frames, at least 1), pagecache.tinylfu.protected=0.8, "
                + "pagecache.tinylfu.sketch_period=10.0, pagecache.tinylfu.shadow_entries=2048, pagecache.tinylfu.adapt_period=1.0, "
                + "pagecache.bestof.shadow_entries=2048, pagecache.bestof.adapt_period=1.0, pagecache.bestof.margin=0.1, pagecache.bestof.min_gain=0.01, pagecache.bestof.significance=8.0, "
                + "pagecache.evictor.enabled=true, pagecache.evictor.keep_free=6553, "
                + "pagecache.swap=file, pagecache.huge_pages=auto, pagecache.io=buffered, pagecache.flush.iops_limit=unlimited, pagecache.name=default, "
                + "pagecache.jmx.enabled=true, pagecache.warmup.enabled=true, pagecache.warmup.profile_interval=60s}", text, "this module has no swap tier on its class path: storage-nvm's tests see the nvm flags");
    }

    @Test
    void aPolicyDependentDefaultIsReadWithTheDefaultTheCallerGives() {
        PageCacheConfig unset = PageCacheConfig.defaults();
        assertEquals(7, unset.getInt("pagecache.clock.max_usage", 7));
        assertEquals(4, unset.getInt("pagecache.clock.max_usage", 4));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> unset.getInt("pagecache.clock.max_usage"));
        assertTrue(e.getMessage().startsWith("pagecache.clock.max_usage is not set and has no fixed default"), e.getMessage());

        PageCacheConfig set = unset.with("pagecache.clock.max_usage", "3");
        assertEquals(3, set.getInt("pagecache.clock.max_usage", 7));
        assertEquals(3, set.getInt("pagecache.clock.max_usage"));
    }

    @Test
    void genericAccessorsReadEveryKind() {
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "2g", "pagecache.evictor.enabled", "false"));
        assertEquals(2L << 30, config.getSize("pagecache.memory"));
        assertEquals(8192, config.getSize("pagecache.page_size"));
        assertFalse(config.getBoolean("pagecache.evictor.enabled"));
        assertEquals("2g", config.getString("pagecache.memory"));
        assertEquals("8k", config.getString("pagecache.page_size"));
        assertEquals("best-of", config.getString("pagecache.policy"));
        assertEquals("false", config.getString("pagecache.evictor.enabled"));
        assertEquals("13107", config.getString("pagecache.evictor.keep_free"), "the computed default");
        assertEquals(13107, config.getInt("pagecache.evictor.keep_free"));
        assertEquals(99, config.getInt("pagecache.evictor.keep_free", 99), "unset, so the caller's default");
    }

    @Test
    void genericAccessorsRefuseAnUnknownNameWithASuggestion() {
        PageCacheConfig config = PageCacheConfig.defaults();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> config.getInt("pagecache.clock.max_usgae"));
        assertEquals("unknown flag 'pagecache.clock.max_usgae'; did you mean 'pagecache.clock.max_usage'?", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> config.isSet("pagecache.nope"));
        assertThrows(IllegalArgumentException.class, () -> config.getString("memory.pagecache.zzz"));
    }

    @Test
    void genericAccessorsRefuseAFlagOfAnotherKind() {
        PageCacheConfig config = PageCacheConfig.defaults();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> config.getInt("pagecache.memory"));
        assertEquals("pagecache.memory is a size flag, not an int flag: read it with getSize", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> config.getBoolean("pagecache.policy"));
        assertThrows(IllegalArgumentException.class, () -> config.getDouble("pagecache.clock.max_usage"));
        assertThrows(IllegalArgumentException.class, () -> config.getDouble("pagecache.clock.max_usage", 1.0));
        assertThrows(IllegalArgumentException.class, () -> config.getSize("pagecache.evictor.enabled"));
        assertThrows(IllegalArgumentException.class, () -> config.getFrameCount("pagecache.memory"));
        assertThrows(IllegalArgumentException.class, () -> config.getInt("pagecache.swap", 1));
    }

    @Test
    void configsWithTheSameFlagsAreEqual() {
        PageCacheConfig a = PageCacheConfig.parse(Map.of("pagecache.memory", "512MB", "pagecache.policy", "clock"));
        PageCacheConfig b = PageCacheConfig.fromArgs("--pagecache.policy=CLOCK", "--pagecache.memory=536870912");
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
    }

    @Test
    void defaultsIsOneSharedInstance() {
        assertSame(PageCacheConfig.defaults(), PageCacheConfig.defaults());
    }
}
