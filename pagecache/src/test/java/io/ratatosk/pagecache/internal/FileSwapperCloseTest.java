package io.ratatosk.pagecache.internal;

import static io.ratatosk.pagecache.internal.FileSwapperInterruptTest.get;
import static io.ratatosk.pagecache.internal.FileSwapperInterruptTest.pattern;
import static io.ratatosk.pagecache.internal.FileSwapperInterruptTest.put;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.agrona.UnsafeAccess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import sun.misc.Unsafe;

/**
 * Closing a FileSwapper forces what it wrote since the last force (and only then), closing twice is
 * harmless, and every operation after close fails with an exception that names the file.
 */
class FileSwapperCloseTest {
    private static final Unsafe UNSAFE = UnsafeAccess.UNSAFE;
    private static final int PAGE = 4096;

    @TempDir
    Path dir;
    private long frame;
    /** Counts the forces that reach the real channel; injects nothing unless a test enables it. */
    private final FaultyFileChannel.Faults counting = new FaultyFileChannel.Faults(1);

    @BeforeEach
    void allocate() {
        frame = UNSAFE.allocateMemory(PAGE);
        put(frame, pattern(0));
    }

    @AfterEach
    void free() {
        UNSAFE.freeMemory(frame);
    }

    private FileSwapper swapper(FileChannelOpener real) throws IOException {
        return new FileSwapper(dir.resolve("f.db"), PAGE, true, true, FaultyFileChannel.opener(real, counting));
    }

    @Test
    void closeForcesWhatWasWritten() throws IOException {
        FileSwapper swapper = swapper(FileChannelOpener.uninterruptible());
        swapper.write(0, frame);
        assertEquals(0, counting.forces.get());
        swapper.close();
        assertEquals(1, counting.forces.get());
    }

    @Test
    void closeDoesNotForceWhenNothingWasWrittenSinceTheLastForce() throws IOException {
        FileSwapper swapper = swapper(FileChannelOpener.uninterruptible());
        swapper.close();
        assertEquals(0, counting.forces.get(), "nothing written: nothing to force");

        swapper = swapper(FileChannelOpener.uninterruptible());
        swapper.write(0, frame);
        swapper.force();
        assertEquals(1, counting.forces.get());
        swapper.read(0, frame);
        swapper.close();
        assertEquals(1, counting.forces.get(), "reads after the force left nothing to force");
    }

    @Test
    void closeForcesAfterAForceThatFailed() throws IOException {
        FileSwapper swapper = swapper(FileChannelOpener.uninterruptible());
        swapper.write(0, frame);
        counting.ioException = 1;
        counting.enabled = true;
        assertThrows(IOException.class, swapper::force);
        counting.enabled = false;
        swapper.close();
        assertEquals(1, counting.forces.get(), "the failed force left the write unforced, so close forces it");
    }

    /**
     * A close whose force fails closes the file and reports the failure once: a later close forces nothing (the file is
     * closed) and returns, as PagedFile.close and PageCache.close do after reporting a file's failed force.
     */
    @Test
    void aCloseWhoseForceFailsClosesTheFileAndReportsItOnce() throws IOException {
        FileSwapper swapper = swapper(FileChannelOpener.uninterruptible());
        swapper.write(0, frame);
        counting.ioException = 1;
        counting.enabled = true;
        assertThrows(IOException.class, swapper::close);
        counting.enabled = false;
        assertThrows(ClosedChannelException.class, () -> swapper.read(0, frame), "closed all the same");
        long forces = counting.forces.get();
        swapper.close();
        assertEquals(forces, counting.forces.get(), "a later close forces nothing");
    }

    /**
     * Close forces through a reopened channel after an interrupt closed the old one, and closes; but the write went through
     * the old channel, whose write errors the new one does not report, so the close says it may be lost (it once
     * returned normally).
     */
    @Test
    void closeForcesThroughAReopenedChannelAfterAnInterruptClosedItAndSaysTheWriteBeforeMayBeLost() throws Exception {
        RecordingOpener opener = new RecordingOpener(FileChannelOpener.interruptible());
        FileSwapper swapper = swapper(opener);
        swapper.write(0, frame);
        assertTrue(opener.interruptAnotherThreadInIo());
        IOException e = assertThrows(IOException.class, swapper::close);
        assertTrue(e.getMessage().contains("reopened"), e.getMessage());
        assertEquals(1, counting.forces.get());
        assertEquals(2, opener.opened());
        assertThrows(ClosedChannelException.class, () -> swapper.read(0, frame), "closed all the same");
    }

    @Test
    void closingTwiceIsHarmless() throws IOException {
        FileSwapper swapper = swapper(FileChannelOpener.uninterruptible());
        swapper.write(0, frame);
        swapper.close();
        swapper.close();
        assertEquals(1, counting.forces.get());
        try (FileSwapper reopened = swapper(FileChannelOpener.uninterruptible())) {
            UNSAFE.setMemory(frame, PAGE, (byte) 0);
            reopened.read(0, frame);
            assertArrayEquals(pattern(0), get(frame));
        }
    }

    @Test
    void everyOperationAfterCloseThrowsAClosedChannelExceptionNamingTheFile() throws IOException {
        FileSwapper swapper = swapper(FileChannelOpener.uninterruptible());
        swapper.write(0, frame);
        swapper.close();
        List<Executable> operations = new ArrayList<>();
        operations.add(() -> swapper.read(0, frame));
        operations.add(() -> swapper.write(0, frame));
        operations.add(() -> swapper.write(0, new long[] {frame}, 1));
        operations.add(() -> swapper.evict(0, frame, true));
        operations.add(swapper::force);
        operations.add(swapper::pageCount);
        operations.add(() -> swapper.truncate(0));
        for (Executable operation : operations) {
            ClosedChannelException e = assertThrows(ClosedChannelException.class, operation);
            assertTrue(e.getMessage().contains(dir.resolve("f.db").toString()) && e.getMessage().contains("closed"),
                e.getMessage());
        }
    }
}
