package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The pending error and a failure recorded while another thread takes it: the failure is thrown with it (added before
 * it was taken) or later (the next pending error), never added to an error already thrown, where no one looks again.
 */
class PendingErrorRaceTest {
    @Test
    void aFailureRecordedAsThePendingErrorIsTakenIsThrownWithItOrAfterIt() throws Exception {
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "1m")))) {
            EvictionEngine engine = cache.engine();
            IOException first = new IOException("first eviction failure");
            IOException second = new IOException("second eviction failure");
            engine.recordPendingError(first);
            AtomicReference<IOException> taken = new AtomicReference<>();
            CountDownLatch takerDone = new CountDownLatch(1);
            Thread recorder = new Thread(() -> engine.recordPendingError(second));
            Thread taker = new Thread(() -> {
                try {
                    engine.throwPendingError();
                } catch (IOException e) {
                    taken.set(e);
                } finally {
                    takerDone.countDown();
                }
            });
            Throwable[] suppressedWhenThrown = null;
            // Throwable's addSuppressed and getSuppressed lock the exception: holding it stops the recorder just after
            // it found the pending error, before it added its own failure to it.
            synchronized (first) {
                recorder.start();
                Waits.until(() -> recorder.getState() == Thread.State.BLOCKED, "the recorder reached the pending error",
                    recorder);
                taker.start();
                if (takerDone.await(1, TimeUnit.SECONDS)) {
                    suppressedWhenThrown = first.getSuppressed(); // what its catcher saw: the recorder has added nothing yet
                }
            }
            Waits.join(recorder, "the recorder");
            Waits.join(taker, "the taker");
            assertSame(first, taken.get());
            if (suppressedWhenThrown == null) {
                suppressedWhenThrown = first.getSuppressed(); // the take waited for the recorder
            }
            List<Throwable> reported = new ArrayList<>(Arrays.asList(suppressedWhenThrown));
            try {
                engine.throwPendingError();
            } catch (IOException e) {
                reported.add(e);
            }
            assertTrue(reported.contains(second), "the second failure was thrown with the first or after it: " + reported);
        }
    }
}
