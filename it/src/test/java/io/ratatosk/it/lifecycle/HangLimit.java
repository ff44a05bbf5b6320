package io.ratatosk.it.lifecycle;

import io.ratatosk.pagecache.Waits;
import java.lang.reflect.Method;
import java.time.Duration;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;

/**
 * A whole test's limit: twice the shared bound of one wait
 * ({@link Waits#BOUND_SECONDS}, {@code ratatosk.test.wait_s}), so that it follows that property and a wait of the test's
 * own that runs out names what it waited for first. The test runs on a thread of its own, given up at the limit (the
 * failure carries its stack), so that a test stuck in a spin of the cache's, which an interrupt does not end, ends too.
 * A fixed {@code @Timeout} can do neither: its value is a constant, and in its default thread mode it only interrupts.
 */
final class HangLimit implements InvocationInterceptor {
    static final Duration LIMIT = Duration.ofSeconds(2 * Waits.BOUND_SECONDS);

    @Override
    public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
                                    ExtensionContext context) {
        limit(invocation, context);
    }

    @Override
    public void interceptTestTemplateMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
                                            ExtensionContext context) {
        limit(invocation, context);
    }

    private static void limit(Invocation<Void> invocation, ExtensionContext context) {
        Assertions.assertTimeoutPreemptively(LIMIT, () -> {
            invocation.proceed();
        }, () -> context.getDisplayName()
            + ": not within " + LIMIT.toSeconds() + " s, twice ratatosk.test.wait_s (a hang)");
    }
}
