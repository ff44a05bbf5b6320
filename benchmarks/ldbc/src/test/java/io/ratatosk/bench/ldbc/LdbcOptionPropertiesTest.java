package io.ratatosk.bench.ldbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.bench.ldbc.run.Budget;
import io.ratatosk.bench.ldbc.run.CacheSpec;
import io.ratatosk.pagecache.PageCacheFlags;
import java.util.Locale;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * ldbc's --cache, --warmup and --duration values, random and near misses: each is read as the page cache's own parser
 * reads it (a size as pagecache.memory, a share as a plain decimal percentage), or refused with an
 * IllegalArgumentException that quotes it; never another exception, never a value read as something else.
 */
class LdbcOptionPropertiesTest {
    @Property(tries = 400)
    void aCacheSizeIsAShareOrWhatPagecacheMemoryTakesElseRefusedQuotingIt(@ForAll("sizes") String text) {
        CacheSpec spec;
        try {
            spec = CacheSpec.parse(text);
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage().startsWith("cache size '" + text + "'"), e.getMessage());
            return;
        } catch (RuntimeException e) {
            throw new AssertionError("'" + text + "': " + e, e);
        }
        String s = text.strip().toLowerCase(Locale.ROOT);
        if (spec.isAbsolute()) {
            assertEquals((long) PageCacheFlags.MEMORY.parse(s), spec.bytes(), text);
        } else {
            String number = s.substring(0, s.length() - 1).strip();
            assertTrue(s.endsWith("%") && number.matches("[0-9]+(\\.[0-9]*)?|\\.[0-9]+"),
                "a share that is no plain percentage: '" + text + "'");
            assertEquals(Double.parseDouble(number), spec.percent(), text);
        }
    }

    @Property(tries = 400)
    void aBudgetIsAnOperationCountOrATimeElseRefusedQuotingIt(@ForAll("budgets") String text) {
        Budget budget;
        try {
            budget = Budget.parse(text);
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage().startsWith("'" + text + "'"), e.getMessage());
            return;
        } catch (RuntimeException e) {
            throw new AssertionError("'" + text + "': " + e, e);
        }
        String s = text.strip().toLowerCase(Locale.ROOT);
        if (s.matches("[0-9][0-9_]*")) {
            assertEquals(Long.parseLong(s.replace("_", "")), budget.operations(), text);
        } else {
            assertEquals(0, budget.operations(), text);
            assertTrue(s.matches("[0-9.]+[ \t]*(ns|us|ms|s|m)"), "a time with no unit: '" + text + "'");
            assertTrue(budget.nanos() >= 0 && budget.nanos() <= 365L * 24 * 3600 * 1_000_000_000L, text);
        }
    }

    @Provide
    Arbitrary<String> sizes() {
        Arbitrary<String> number = Arbitraries.oneOf(Arbitraries.longs().map(String::valueOf),
            Arbitraries.doubles().map(String::valueOf), Arbitraries.integers().between(0, 2000).map(String::valueOf),
            Arbitraries.of("", ".5", "5.", "1e3", "0x10", "0x1p3", "Infinity", "NaN", "-0", "+5", "99999999999999999999"));
        Arbitrary<String> unit = Arbitraries.of("", "%", "k", "m", "g", "t", "p", "kb", "MiB", "GB", " k", "f", "d", "f%",
            "d%", "%%", " %");
        return Arbitraries.oneOf(Combinators.combine(number, unit).as((n, u) -> n + u),
            Arbitraries.strings().ofMaxLength(8), Arbitraries.strings().withChars("0123456789.%kmgtbi -+e").ofMaxLength(8));
    }

    @Provide
    Arbitrary<String> budgets() {
        Arbitrary<String> number = Arbitraries.oneOf(Arbitraries.longs().map(String::valueOf),
            Arbitraries.doubles().map(String::valueOf), Arbitraries.integers().between(0, 2000).map(String::valueOf),
            Arbitraries.of("", ".5", "5.", "1_000", "_1", "1e3", "Infinity", "NaN", "-0", "+5", "99999999999999999999"));
        Arbitrary<String> unit = Arbitraries.of("", "s", "ms", "us", "ns", "m", "h", "d", " s", "S", "mm", "sm", "min");
        return Arbitraries.oneOf(Combinators.combine(number, unit).as((n, u) -> n + u),
            Arbitraries.strings().ofMaxLength(8), Arbitraries.strings().withChars("0123456789._smun -+").ofMaxLength(8));
    }
}
