package io.ratatosk.core.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FlagTest {
    private static final Flag GHOSTS = Flag.decimal("pagecache.test.ghosts", "2.0", 0.5, 4, "test");
    private static final Flag SHARE = Flag.frameShare("pagecache.test.pull_threshold", "0.1", "test");

    @ParameterizedTest(name = "{0} is {1} ns, shown as {2}")
    @CsvSource({"150, 150, 150ns", "150ns, 150, 150ns", "50us, 50000, 50us", "50 US, 50000, 50us", "1.5ms, 1500000, 1500us",
        "2ms, 2000000, 2ms", "1s, 1000000000, 1s", "0, 0, 0ns", "0.5us, 500, 500ns", "1000, 1000, 1us"})
    void aDurationIsNanosecondsOrANumberWithAUnit(String text, long nanos, String formatted) {
        Flag latency = Flag.duration("pagecache.test.latency", null, 0, 2_000_000_000L, "test");
        assertEquals(FlagKind.DURATION, latency.kind());
        assertEquals(nanos, latency.parse(text));
        assertEquals(formatted, latency.format(latency.parse(text)));
        assertEquals("a duration in [0ns, 2s]", latency.accepted());
    }

    @ParameterizedTest(name = "pagecache.test.latency={0}")
    @ValueSource(strings = {"-1", "-5us", "fast", "5 sec", "1.5ns", "3s", "1e3", "us", ""})
    void aDurationThatIsNotOneOrOutOfRangeIsRefused(String text) {
        Flag latency = Flag.duration("pagecache.test.latency", null, 0, 2_000_000_000L, "test");
        FlagValueException e = assertThrows(FlagValueException.class, () -> latency.parse(text));
        assertTrue(e.getMessage().startsWith("pagecache.test.latency=" + text + ": must be a duration in [0ns, 2s]"), e.getMessage());
    }

    /** A line break between number and unit ("1\r\ng", two lines of a file read as one value) was taken as a space. */
    @Test
    void aNumberAndItsUnitMayStandApartOnOneLineOnly() {
        Flag memory = Flag.size("pagecache.test.memory", null, 1, 1L << 40, "test");
        assertEquals(1L << 30, memory.parse("1 g"));
        assertEquals(1L << 30, memory.parse("1\tGiB"));
        Flag latency = Flag.duration("pagecache.test.latency", null, 0, 2_000_000_000L, "test");
        assertEquals(5000L, latency.parse("5 us"));
        for (String bad : List.of("1\r\ng", "1\ng", "1\u000bg", "1\fg")) {
            assertThrows(FlagValueException.class, () -> memory.parse(bad), bad);
        }
        assertThrows(FlagValueException.class, () -> latency.parse("5\nus"));
    }

    @Test
    void aDecimalFlagParsesPlainDecimalsWithinItsRange() {
        assertEquals(0.5, GHOSTS.parse("0.5"));
        assertEquals(4.0, GHOSTS.parse("4"));
        assertEquals("2.0", GHOSTS.format(GHOSTS.parse("2.00")));
        assertEquals("0.75", GHOSTS.format(GHOSTS.parse("0.750")));
        assertEquals("a number in [0.5, 4.0]", GHOSTS.accepted());
        assertEquals(FlagKind.DOUBLE, GHOSTS.kind());
        for (String bad : List.of("0.49", "4.01", "NaN", "Infinity", "1e0", "two", "")) {
            FlagValueException e = assertThrows(FlagValueException.class, () -> GHOSTS.parse(bad));
            assertTrue(e.getMessage().startsWith("pagecache.test.ghosts=" + bad + ": must be a number in [0.5, 4.0]"), e.getMessage());
        }
    }

    @ParameterizedTest(name = "{0} of 1000 frames is {1} frames")
    @CsvSource({"0.1, 100", "1.0, 1000", "0.0001, 1", "1, 1", "250, 250", "5000, 1000", ".5, 500"})
    void aFrameShareIsAFractionWithADecimalPointOrElseACount(String text, int frames) {
        FrameShare share = (FrameShare) SHARE.parse(text);
        assertEquals(frames, share.of(1000));
        assertEquals(text.contains("."), share.isFraction());
    }

    @ParameterizedTest(name = "pull_threshold={0}")
    @ValueSource(strings = {"0", "0.0", "1.5", "-3", "-0.1", "10%", "x", "1.2.3"})
    void aFrameShareRefusesZeroNegativesAndFractionsAboveOne(String text) {
        FlagValueException e = assertThrows(FlagValueException.class, () -> SHARE.parse(text));
        assertTrue(e.getMessage().startsWith("pagecache.test.pull_threshold=" + text
                + ": must be a fraction of the frames in (0, 1] like 0.1, or a frame count >= 1"), e.getMessage());
    }

    @ParameterizedTest(name = "a fraction with {0} zeros after the point")
    @ValueSource(ints = {21, 330, 400, 2000})
    void aFractionTooSmallForADoubleIsTheLeastShareOneFrameNotAnEscapingException(int zeros) {
        // Issue 11: below Double.MIN_VALUE the fraction rounded to 0.0, and FrameShare's own check threw
        // a bare IllegalArgumentException out of the parser.
        String tiny = "0." + "0".repeat(zeros) + "1";
        FrameShare share = (FrameShare) SHARE.parse(tiny);
        assertTrue(share.isFraction());
        assertTrue(share.fraction() > 0, "a positive fraction stays positive: " + share.fraction());
        assertEquals(1, share.of(1000));
        assertEquals(1, share.of(Integer.MAX_VALUE - 8));
        assertEquals(share, SHARE.parse(SHARE.format(share)), "its normalised text parses back to it");
    }

    @Test
    void aFrameShareReadsBackWithItsDecimalPoint() {
        assertEquals("1.0", SHARE.format(SHARE.parse("1.0")));
        assertEquals("0.25", SHARE.format(SHARE.parse("0.250")));
        assertEquals("1", SHARE.format(SHARE.parse("1")));
    }

    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aValueOfMillionsOfDigitsIsJudgedAtOnce() {
        // BigDecimal's stripTrailingZeros and BigInteger's parse are quadratic in the digits: a size of 300000 digits
        // took a minute and a half to refuse, 2000000 digits longer than anyone waits, all for a value past every bound.
        String zeros = "0".repeat(2_000_000);
        Flag size = Flag.size("pagecache.test.size", "1m", 1, 1L << 40, "test");
        Flag latency = Flag.duration("pagecache.test.latency", null, 0, 10_000_000_000L, "test");
        Flag count = Flag.integer("pagecache.test.count", "1", 1, Integer.MAX_VALUE, "test");
        for (Flag flag : List.of(size, latency, count, GHOSTS, SHARE)) {
            assertThrows(FlagValueException.class, () -> flag.parse("1" + zeros), flag.name());
            assertThrows(FlagValueException.class, () -> flag.parse("-1" + zeros), flag.name());
        }
        // Zeros that do not change the value still read as it; digits that do still count, however far out.
        assertEquals(1536L, size.parse("0001.5" + zeros + "k"));
        assertEquals(1500L, latency.parse("1.5" + zeros + "us"));
        assertEquals("not a whole number of bytes", reason(() -> size.parse("1.5" + zeros + "1k")));
        assertEquals(7, count.parse(zeros + "7"));
        assertEquals(4.0, GHOSTS.parse("4.0" + zeros));
        assertEquals(0.5, GHOSTS.parse(zeros + ".5"));
        assertThrows(FlagValueException.class, () -> GHOSTS.parse("4.0" + zeros + "1"), "just above 4.0 is above 4.0");
        assertThrows(FlagValueException.class, () -> GHOSTS.parse("0.4" + "9".repeat(2_000_000)), "just below 0.5");
        assertEquals(1, ((FrameShare) SHARE.parse("0." + zeros + "1")).of(1_000_000), "the least share");
        assertThrows(FlagValueException.class, () -> SHARE.parse("1.0" + zeros + "1"), "just above 1.0");
        assertEquals("at most 2147483647", reason(() -> count.parse("1" + zeros)));
    }

    private static String reason(org.junit.jupiter.api.function.Executable parse) {
        String message = assertThrows(FlagValueException.class, parse).getMessage();
        return message.substring(message.lastIndexOf(" (") + 2, message.length() - 1);
    }

    @Test
    void aWholeFrameCountWrittenWithADecimalPointSaysHowToWriteIt() {
        // 100.0 (a Double in a map reads so) is neither a fraction in (0, 1] nor, having a point, a count: say which it is.
        assertEquals("pagecache.test.pull_threshold=100.0: must be a fraction of the frames in (0, 1] like 0.1, or a frame"
                + " count >= 1 (a number with a decimal point is a fraction; write a frame count without one, like 100)",
            assertThrows(FlagValueException.class, () -> SHARE.parse("100.0")).getMessage());
        assertEquals("pagecache.test.pull_threshold=1.5: must be a fraction of the frames in (0, 1] like 0.1, or a frame"
                + " count >= 1", assertThrows(FlagValueException.class, () -> SHARE.parse("1.5")).getMessage());
        assertEquals(FrameShare.ofCount(100), SHARE.parse("100"));
    }

    @Test
    void aCountPastAnIntSaysTheLargestAccepted() {
        // "an integer >= 1" alone does not say why 3000000000 is refused: the flag's phrase has no upper bound in it.
        Flag endurance = Flag.integer("pagecache.test.endurance", "100000", 1, Integer.MAX_VALUE, "test");
        assertEquals("pagecache.test.endurance=3000000000: must be an integer >= 1 (at most 2147483647)",
            assertThrows(FlagValueException.class, () -> endurance.parse("3000000000")).getMessage());
        Flag limit = Flag.integerOrUnlimited("pagecache.test.limit", "unlimited", Integer.MAX_VALUE, "test");
        assertEquals("pagecache.test.limit=2147483648: must be an integer >= 0, or unlimited (0 also means unlimited)"
            + " (at most 2147483647)", assertThrows(FlagValueException.class, () -> limit.parse("2147483648")).getMessage());
        assertEquals("pagecache.test.pull_threshold=99999999999: must be a fraction of the frames in (0, 1] like 0.1,"
            + " or a frame count >= 1 (at most 2147483647)",
            assertThrows(FlagValueException.class, () -> SHARE.parse("99999999999")).getMessage());
        assertEquals("pagecache.test.endurance=0: must be an integer >= 1",
            assertThrows(FlagValueException.class, () -> endurance.parse("0")).getMessage(), "below the bound it states");
        assertEquals(Integer.MAX_VALUE, endurance.parse("2147483647"));
        Flag bounded = Flag.integer("pagecache.test.usage", "4", 1, 7, "test");
        assertEquals("pagecache.test.usage=99999999999: must be an integer in [1, 7]",
            assertThrows(FlagValueException.class, () -> bounded.parse("99999999999")).getMessage(), "its phrase has the bound");
    }

    @Test
    void aPowerOfTwoIntegerRefusesOtherNumbers() {
        Flag bits = Flag.powerOfTwoInteger("pagecache.test.bits", null, 64, 1 << 30, "test");
        assertEquals(1024, bits.parse("1024"));
        FlagValueException e = assertThrows(FlagValueException.class, () -> bits.parse("1000"));
        assertEquals("pagecache.test.bits=1000: must be a power of two in [64, 1073741824]", e.getMessage());
    }

    @ParameterizedTest(name = "pagecache.test.policy={0}")
    @CsvSource({"munin, muninn", "clockpro, clock-pro", "s3fifo, s3-fifo", "CLOCK_PRO, clock-pro", "global_clock, global-clock"})
    void aChoiceMisspeltNamesTheChoiceItWasLikelyMeantAs(String text, String meant) {
        Flag policy = Flag.choice("pagecache.test.policy", "muninn", List.of("muninn", "clock-pro", "s3-fifo", "global-clock"), "t");
        assertEquals("clock-pro", policy.parse("Clock-Pro"));
        FlagValueException e = assertThrows(FlagValueException.class, () -> policy.parse(text));
        assertEquals("pagecache.test.policy=" + text + ": must be one of muninn, clock-pro, s3-fifo, global-clock (did you mean '"
            + meant + "'?)", e.getMessage());
    }

    @ParameterizedTest(name = "pagecache.test.policy={0}")
    @ValueSource(strings = {"default", "lru", "nope", "x"})
    void aChoiceFarFromEveryOneNamesNone(String text) {
        Flag policy = Flag.choice("pagecache.test.policy", "muninn", List.of("muninn", "clock-pro", "s3-fifo", "global-clock"), "t");
        FlagValueException e = assertThrows(FlagValueException.class, () -> policy.parse(text));
        assertEquals("pagecache.test.policy=" + text + ": must be one of muninn, clock-pro, s3-fifo, global-clock", e.getMessage());
    }

    @Test
    void flagDefinitionsAreCheckedWhenTheyAreMade() {
        assertThrows(IllegalArgumentException.class, () -> Flag.bool("Pagecache.Bad", "true", "x"));
        assertThrows(IllegalArgumentException.class, () -> Flag.bool("nodots", "true", "x"));
        assertThrows(IllegalArgumentException.class, () -> Flag.choice("pagecache.c", "a", List.of("A"), "x"));
        assertThrows(IllegalArgumentException.class, () -> Flag.choice("pagecache.c", "a", List.of(), "x"));
        assertThrows(FlagValueException.class, () -> Flag.integer("pagecache.i", "9", 1, 7, "a default out of range"));
    }

    @ParameterizedTest(name = "{0} bytes print as {1}")
    @CsvSource({"0, 0", "512, 512", "1024, 1k", "1536, 1536", "8192, 8k", "1048576, 1m", "1073741824, 1g", "1099511627776, 1t",
            "1610612736, 1536m"})
    void sizesPrintWithTheLargestExactUnit(long bytes, String text) {
        assertEquals(text, Flag.formatSize(bytes));
    }

    @ParameterizedTest(name = "distance({0}, {1}) = {2}")
    @CsvSource({"memory, memory, 0", "memroy, memory, 2", "'', abc, 3", "kitten, sitting, 3", "keepfree, keep_free, 1"})
    void editDistanceCountsInsertionsDeletionsAndSubstitutions(String a, String b, int distance) {
        assertEquals(distance, Spelling.editDistance(a, b));
        assertEquals(distance, Spelling.editDistance(b, a));
    }

    /** Close means at most a third of the candidate's letters apart, so a name much longer or shorter never is. */
    @Test
    void aNameFarLongerThanEveryCandidateSuggestsNone() {
        assertEquals(Optional.of("muninn"), Spelling.closest("munin", List.of("clock", "muninn")));
        assertEquals(Optional.empty(), Spelling.closest("muninn".repeat(2_000_000), List.of("clock", "muninn")));
        assertEquals(Optional.of("clock-pro"), Spelling.closest("clockpr", List.of("clock-pro")),
            "two letters short of nine is still close");
        assertEquals(Optional.empty(), Spelling.closest("clock-pro-plus-plus", List.of("clock-pro")));
    }

    @Test
    void aCatalogFindsExactNamesAndSuggestsCloseOnesOnly() {
        FlagCatalog catalog = new FlagCatalog(List.of(GHOSTS, SHARE));
        assertEquals(GHOSTS, catalog.byName("pagecache.test.ghosts").orElseThrow());
        assertTrue(catalog.byName("pagecache.TEST.ghosts").isEmpty());
        assertEquals(GHOSTS, catalog.closest("pagecache.test.ghost").orElseThrow());
        assertEquals(SHARE, catalog.closest("pagecache.pull_threshold").orElseThrow(), "by its last segment");
        assertTrue(catalog.closest("pagecache.xyz").isEmpty());
        assertTrue(catalog.closest("").isEmpty());
        assertTrue(catalog.closest("something.else.entirely").isEmpty());
    }

    @Test
    void aCatalogKeepsOneFlagOnceAndRefusesTwoFlagsOfOneName() {
        assertEquals(List.of(GHOSTS, SHARE), new FlagCatalog(List.of(GHOSTS), List.of(GHOSTS, SHARE)).all());
        Flag twin = Flag.decimal("pagecache.test.ghosts", "1.0", 0.5, 4, "another");
        assertThrows(IllegalStateException.class, () -> new FlagCatalog(List.of(GHOSTS, twin)));
    }

    @Test
    void theMarkdownTableHasAHeaderAndOneRowPerFlag() {
        String[] lines = new FlagCatalog(List.of(GHOSTS, SHARE)).markdownTable().split("\n");
        assertEquals(4, lines.length);
        assertEquals("| `pagecache.test.ghosts` | `2.0` | a number in [0.5, 4.0] | test |", lines[2]);
    }

    @Test
    void aFrameShareIsEitherAFractionOrACountNeverBoth() {
        assertThrows(IllegalArgumentException.class, () -> new FrameShare(0.5, 3));
        assertThrows(IllegalArgumentException.class, () -> new FrameShare(0, 0));
        assertThrows(IllegalArgumentException.class, () -> FrameShare.ofFraction(1.5));
        assertThrows(IllegalArgumentException.class, () -> FrameShare.ofCount(-1));
        assertEquals(1, FrameShare.ofCount(5).of(1), "never more than the frames there are");
    }
}
