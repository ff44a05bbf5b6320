package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ratatosk.core.config.Flag;
import io.ratatosk.policies.PolicyRegistry;
import io.ratatosk.pagecache.tier.SwapTierProvider;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Swap tier providers on the class path that are broken ({@link BrokenTierProviders}): each is left out with a reason
 * naming it, and the page cache works as without them. They once failed {@code PageCacheFlags}' static initializer,
 * which made the class, and so every configuration and every page cache, unusable for the life of the JVM
 * ({@code NoClassDefFoundError} after the first {@code ExceptionInInitializerError}). The page cache's classes are loaded
 * again in a class loader of the test's own, whose {@code META-INF/services} lists the providers, so that this JVM's
 * {@code PageCacheFlags} is untouched.
 */
class TierProviderLoadingTest {
    @TempDir
    Path dir;

    private static final List<String> BROKEN = List.of("ThrowingConstructor", "UpperCaseName", "FileName", "NullName",
        "ThrowingName", "NullDescription", "ThrowingFlags", "ClashingFlag", "TwiceTheSameFlag", "GoodsFlag", "DuplicateName",
        "NullRules");

    private URLClassLoader loaderWith(List<String> providerLines) throws Exception {
        Path services = dir.resolve("services/META-INF/services");
        Files.createDirectories(services);
        Files.write(services.resolve(SwapTierProvider.class.getName()), providerLines);
        List<URL> urls = new ArrayList<>();
        urls.add(dir.resolve("services").toUri().toURL());
        for (Class<?> c : List.of(PageCacheFlags.class, BrokenTierProviders.class, Flag.class, PolicyRegistry.class,
                org.agrona.UnsafeAccess.class)) {
            urls.add(c.getProtectionDomain().getCodeSource().getLocation());
        }
        return new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
    }

    private static Object call(Class<?> type, String method, Object target, Class<?>[] types, Object... args) throws Throwable {
        Method m = type.getMethod(method, types);
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    @Test
    void brokenProvidersAreLeftOutNamedAndThePageCacheStillWorks() throws Throwable {
        List<String> lines = new ArrayList<>();
        lines.add(BrokenTierProviders.Good.class.getName());
        BROKEN.forEach(name -> lines.add(BrokenTierProviders.class.getName() + "$" + name));
        lines.add("com.example.NoSuchTierProvider");
        try (URLClassLoader loader = loaderWith(lines)) {
            Class<?> flags;
            try {
                flags = Class.forName(PageCacheFlags.class.getName(), true, loader);
            } catch (Throwable t) {
                throw new AssertionError("PageCacheFlags must load whatever the tier providers do", t);
            }
            assertTrue(flags.getClassLoader() == loader, "the test's own copy of the class");
            List<?> tiers = (List<?>) flags.getField("TIERS").get(null);
            assertEquals(1, tiers.size(), "only the good tier: " + tiers);
            @SuppressWarnings("unchecked")
            List<String> refused = (List<String>) flags.getField("REFUSED_TIERS").get(null);
            assertEquals(BROKEN.size() + 1, refused.size(), String.join("\n", refused));
            for (String name : BROKEN) {
                assertTrue(refused.stream().anyMatch(r -> r.contains("$" + name + ":")), name + " is named in " + refused);
            }
            assertTrue(refused.stream().anyMatch(r -> r.contains("com.example.NoSuchTierProvider")), refused.toString());
            assertTrue(String.join("\n", refused).contains("injected: the provider's constructor failed"), refused.toString());

            Class<?> config = Class.forName(PageCacheConfig.class.getName(), true, loader);
            Class<?>[] mapArg = {Map.class};
            Object good = call(config, "parse", null, mapArg, Map.of("pagecache.swap", "good", "pagecache.good.enabled", "false"));
            assertEquals("good", call(config, "swap", good, new Class<?>[0]));
            try {
                call(config, "parse", null, mapArg, Map.of("pagecache.swap", "upper"));
                fail("a tier that was left out cannot be chosen");
            } catch (IllegalArgumentException e) {
                assertTrue(e.getMessage().contains("left out") && e.getMessage().contains("UpperCaseName"), e.getMessage());
            }

            // The page cache opens, maps, writes and closes with pagecache.swap=file.
            Object plain = call(config, "parse", null, mapArg, Map.of("pagecache.memory", "64k", "pagecache.page_size", "4k",
                "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled", "false"));
            Class<?> pageCache = Class.forName(PageCache.class.getName(), true, loader);
            AutoCloseable cache = (AutoCloseable) call(pageCache, "open", null, new Class<?>[] {config}, plain);
            try {
                Object file = call(pageCache, "map", cache, new Class<?>[] {Path.class, int.class}, dir.resolve("plain.db"), 4096);
                ((AutoCloseable) file).close();
            } finally {
                cache.close();
            }
        }
    }

    @Test
    void withOnlyGoodProvidersNothingIsLeftOut() throws Throwable {
        try (URLClassLoader loader = loaderWith(List.of(BrokenTierProviders.Good.class.getName()))) {
            Class<?> flags = Class.forName(PageCacheFlags.class.getName(), true, loader);
            assertEquals(1, ((List<?>) flags.getField("TIERS").get(null)).size());
            assertEquals(List.of(), flags.getField("REFUSED_TIERS").get(null));
        }
    }

    /**
     * A provider list with more broken entries than the loader reads through: it stops there (an iterator that failed
     * for ever would otherwise never end), and once did so without a word, so a good tier listed after them was simply
     * missing, and choosing it was refused as an unknown tier.
     */
    @Test
    void aListWithMoreBrokenEntriesThanTheLoaderReadsSaysItGaveUp() throws Throwable {
        List<String> lines = new ArrayList<>();
        int broken = 70;
        for (int i = 0; i < broken; i++) {
            lines.add("com.example.NoSuchTierProvider" + i);
        }
        lines.add(BrokenTierProviders.Good.class.getName());
        try (URLClassLoader loader = loaderWith(lines)) {
            Class<?> flags = Class.forName(PageCacheFlags.class.getName(), true, loader);
            @SuppressWarnings("unchecked")
            List<String> refused = (List<String>) flags.getField("REFUSED_TIERS").get(null);
            String last = refused.get(refused.size() - 1);
            assertTrue(last.contains("gave up") && last.contains("not looked at"), "the loader says it stopped: " + last);
            assertTrue(refused.stream().filter(r -> r.contains("com.example.NoSuchTierProvider")).count() < broken,
                "it gave up before the end of the list: " + refused);
        }
    }

    /**
     * A provider failing with an exception whose message cannot be made (its getMessage throws): the reason written for
     * it called the exception's toString, whose failure escaped the loader and failed PageCacheFlags' initialization,
     * so no configuration and no page cache could be made in that class loader for good.
     */
    @Test
    void aProviderFailingWithAnExceptionThatCannotBePrintedIsLeftOutStill() throws Throwable {
        List<String> lines = List.of(BrokenTierProviders.UnprintableFailure.class.getName(),
            BrokenTierProviders.UnprintableName.class.getName(), BrokenTierProviders.Good.class.getName());
        try (URLClassLoader loader = loaderWith(lines)) {
            Class<?> flags;
            try {
                flags = Class.forName(PageCacheFlags.class.getName(), true, loader);
            } catch (Throwable t) {
                throw new AssertionError("PageCacheFlags must load whatever the tier providers throw", t);
            }
            assertEquals(1, ((List<?>) flags.getField("TIERS").get(null)).size(), "the good tier");
            @SuppressWarnings("unchecked")
            List<String> refused = (List<String>) flags.getField("REFUSED_TIERS").get(null);
            assertEquals(2, refused.size(), String.join("\n", refused));
            for (String name : List.of("UnprintableFailure", "UnprintableName")) {
                assertTrue(refused.stream().anyMatch(r -> r.contains("$" + name + ":") && r.contains("Unprintable")),
                    name + " is named, with its exception's class: " + refused);
            }
        }
    }

    /**
     * The warning about a broken provider goes to the host's logging, whose handler may throw: that failure escaped the
     * loader, in PageCacheFlags' initialization, and no configuration or page cache of the class loader could be made.
     */
    @Test
    void aLogHandlerThatThrowsOnTheWarningLeavesTheFlagsLoadable() throws Throwable {
        java.util.logging.Logger log = java.util.logging.Logger.getLogger("io.ratatosk.pagecache");
        java.util.logging.Handler throwing = new ThrowingLogHandler();
        log.addHandler(throwing);
        try (URLClassLoader loader = loaderWith(List.of(BrokenTierProviders.UpperCaseName.class.getName(),
                BrokenTierProviders.Good.class.getName()))) {
            Class<?> flags;
            try {
                flags = Class.forName(PageCacheFlags.class.getName(), true, loader);
            } catch (Throwable t) {
                throw new AssertionError("PageCacheFlags must load whatever the host's logging does", t);
            }
            assertEquals(1, ((List<?>) flags.getField("TIERS").get(null)).size(), "the good tier");
            assertEquals(1, ((List<?>) flags.getField("REFUSED_TIERS").get(null)).size(), "the broken one, named");
        } finally {
            log.removeHandler(throwing);
        }
    }

    /** A tier whose open returned null: the cache once opened with no swapper factory at all, and every map failed with a NullPointerException. */
    @Test
    void aTierWhoseOpenReturnsNullIsRefusedNamingItsProvider() throws Throwable {
        try (URLClassLoader loader = loaderWith(List.of(BrokenTierProviders.NullOpen.class.getName()))) {
            Class<?> config = Class.forName(PageCacheConfig.class.getName(), true, loader);
            Object nullOpen = call(config, "parse", null, new Class<?>[] {Map.class}, Map.of("pagecache.memory", "64k",
                "pagecache.page_size", "4k", "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled", "false",
                "pagecache.swap", "nullopen"));
            Class<?> pageCache = Class.forName(PageCache.class.getName(), true, loader);
            try {
                ((AutoCloseable) call(pageCache, "open", null, new Class<?>[] {config}, nullOpen)).close();
                fail("a tier provider whose open returns null must be refused");
            } catch (IllegalStateException e) {
                assertTrue(e.getMessage().contains("NullOpen") && e.getMessage().contains("returned null"), e.getMessage());
            }
        }
    }

    /** A provider's open failing with a bug of its own came out as a bare NullPointerException, naming neither. */
    @Test
    void aTierWhoseOpenFailsWithABugIsNamedWithItsProvider() throws Throwable {
        try (URLClassLoader loader = loaderWith(List.of(BrokenTierProviders.BuggyOpen.class.getName()))) {
            Class<?> config = Class.forName(PageCacheConfig.class.getName(), true, loader);
            Object buggy = call(config, "parse", null, new Class<?>[] {Map.class}, Map.of("pagecache.memory", "64k",
                "pagecache.page_size", "4k", "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled", "false",
                "pagecache.swap", "buggyopen"));
            Class<?> pageCache = Class.forName(PageCache.class.getName(), true, loader);
            try {
                ((AutoCloseable) call(pageCache, "open", null, new Class<?>[] {config}, buggy)).close();
                fail("a tier provider whose open fails must fail the open");
            } catch (IllegalStateException e) {
                assertTrue(e.getMessage().startsWith("pagecache.swap=buggyopen: the tier provider "
                    + BrokenTierProviders.BuggyOpen.class.getName() + " failed to open the tier: java.lang.NullPointerException"),
                    e.getMessage());
                assertTrue(e.getCause() instanceof NullPointerException);
            }
        }
    }

    /**
     * A tier whose flag rule throws: every tier's rules run on every parse, so every configuration failed with the
     * rule's exception, pagecache.swap=file too, and no page cache could open. Now a configuration that does not
     * choose the tier parses, and one that does is refused naming the provider.
     */
    @Test
    void aTierRuleThatThrowsFailsOnlyTheConfigurationsThatChooseTheTier() throws Throwable {
        try (URLClassLoader loader = loaderWith(List.of(BrokenTierProviders.ThrowingRule.class.getName()))) {
            Class<?> config = Class.forName(PageCacheConfig.class.getName(), true, loader);
            Class<?>[] mapArg = {Map.class};
            Object plain = call(config, "parse", null, mapArg, Map.of("pagecache.memory", "64k"));
            assertEquals("file", call(config, "swap", plain, new Class<?>[0]));
            try {
                call(config, "parse", null, mapArg, Map.of("pagecache.swap", "throwingrule"));
                fail("a configuration that chooses the tier whose rule throws must be refused");
            } catch (IllegalArgumentException e) {
                assertTrue(e.getMessage().contains("ThrowingRule") && e.getMessage().contains("injected: the rule failed"),
                    e.getMessage());
            }
        }
    }

    /**
     * A tier rule that throws what the guard did not catch (a checked exception thrown without being declared, which
     * escaped every parse, pagecache.swap=file too) or an exception whose message cannot be made (which escaped the
     * refusal being written): refused, naming the provider, only for the configurations that choose the tier.
     */
    @Test
    void aTierRuleThrowingAnUndeclaredOrUnprintableExceptionFailsOnlyTheConfigurationsThatChooseTheTier() throws Throwable {
        try (URLClassLoader loader = loaderWith(List.of(BrokenTierProviders.SneakyRule.class.getName(),
                BrokenTierProviders.UnprintableRule.class.getName()))) {
            Class<?> config = Class.forName(PageCacheConfig.class.getName(), true, loader);
            Class<?>[] mapArg = {Map.class};
            Object plain = call(config, "parse", null, mapArg, Map.of("pagecache.memory", "64k"));
            assertEquals("file", call(config, "swap", plain, new Class<?>[0]));
            for (String tier : List.of("sneakyrule", "unprintablerule")) {
                try {
                    call(config, "parse", null, mapArg, Map.of("pagecache.swap", tier));
                    fail("a configuration that chooses " + tier + ", whose rule throws, must be refused");
                } catch (IllegalArgumentException e) {
                    assertTrue(e.getMessage().toLowerCase(java.util.Locale.ROOT).contains(tier)
                        && e.getMessage().contains("cannot check this configuration"), e.getMessage());
                }
            }
        }
    }

    /**
     * A provider whose open hands out one tier for every cache: the second cache's open, refused because the tier
     * serves the first, closed the tier on its way out, and with it every file of the first cache under it: the first
     * could then neither write its dirty pages nor close. Now the refused open leaves the tier alone.
     */
    @Test
    void aProviderThatHandsOutOneTierTwiceIsRefusedWithoutClosingItUnderTheFirstCache() throws Throwable {
        try (URLClassLoader loader = loaderWith(List.of(BrokenTierProviders.Singleton.class.getName()))) {
            Class<?> providers = Class.forName(BrokenTierProviders.class.getName(), true, loader);
            Object problem = call(providers, "singletonScenario", null, new Class<?>[] {Path.class}, dir);
            assertEquals(null, problem);
        }
    }
}
