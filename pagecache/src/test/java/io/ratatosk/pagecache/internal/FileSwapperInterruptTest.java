package io.ratatosk.pagecache.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import io.ratatosk.pagecache.Waits;
import org.agrona.UnsafeAccess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import sun.misc.Unsafe;

/**
 * An interrupt never costs the page cache its file: every FileSwapper operation completes whether the
 * calling thread or another one was interrupted, the caller keeps its interrupt status, and where the
 * channel is interruptible (the fallback) the file is reopened, always the same file, even after a
 * rename; without a spare descriptor to reopen through, a replaced file is refused, never written.
 */
class FileSwapperInterruptTest {
    private static final Unsafe UNSAFE = UnsafeAccess.UNSAFE;
    private static final int PAGE = 4096;

    @TempDir
    Path dir;
    /** Four page frames. */
    private long frames;

    /** How the swapper's channel meets interrupts. */
    enum Channel {
        /** The default: the channel ignores interrupts. */
        UNINTERRUPTIBLE,
        /** The fallback: an interrupt closes the channel and the swapper reopens the file. */
        REOPENING;

        RecordingOpener opener() {
            return new RecordingOpener(this == UNINTERRUPTIBLE ? FileChannelOpener.uninterruptible() : FileChannelOpener.interruptible());
        }
    }

    /** The operations of the PageSwapper SPI; each checks its own result. */
    enum Op {
        READ {
            @Override
            void run(FileSwapper swapper, long frame) throws IOException {
                assertEquals(PAGE, swapper.read(1, frame));
                assertArrayEquals(pattern(1), get(frame));
            }
        },
        WRITE {
            @Override
            void run(FileSwapper swapper, long frame) throws IOException {
                put(frame, pattern(2));
                swapper.write(2, frame);
                assertPage(swapper, 2, pattern(2), frame);
            }
        },
        VECTORED_WRITE {
            @Override
            void run(FileSwapper swapper, long frame) throws IOException {
                put(frame, pattern(2));
                put(frame + PAGE, pattern(3));
                swapper.write(2, new long[] {frame, frame + PAGE}, 2);
                assertPage(swapper, 3, pattern(3), frame);
                assertPage(swapper, 2, pattern(2), frame);
            }
        },
        FORCE {
            @Override
            void run(FileSwapper swapper, long frame) throws IOException {
                swapper.force();
            }
        },
        PAGE_COUNT {
            @Override
            void run(FileSwapper swapper, long frame) throws IOException {
                assertEquals(2, swapper.pageCount());
            }
        },
        TRUNCATE {
            @Override
            void run(FileSwapper swapper, long frame) throws IOException {
                swapper.truncate(1);
                assertEquals(1, swapper.pageCount());
            }
        };

        abstract void run(FileSwapper swapper, long frame) throws IOException;
    }

    static List<Arguments> channelsAndOps() {
        List<Arguments> args = new ArrayList<>();
        for (Channel channel : Channel.values()) {
            for (Op op : Op.values()) {
                args.add(Arguments.of(channel, op));
            }
        }
        return args;
    }

    @BeforeEach
    void allocate() {
        frames = UNSAFE.allocateMemory(4L * PAGE);
    }

    @AfterEach
    void free() {
        Thread.interrupted();
        UNSAFE.freeMemory(frames);
    }

    @Test
    void theDefaultChannelIgnoresInterruptsOnThisJdk() throws IOException {
        try (FileSwapper swapper = new FileSwapper(dir.resolve("f.db"), PAGE, true)) {
            // Every JDK the project supports (17 and newer) has the field; if a new one does not, the
            // reopening fallback keeps the cache correct, and this says so.
            assertTrue(swapper.isUninterruptible(), "the channel is interruptible: " + UninterruptibleFileChannels.unavailableReason());
            assertNull(UninterruptibleFileChannels.unavailableReason());
            assertFalse(swapper.reopensThroughSpareDescriptor(), "an uninterruptible channel needs no spare descriptor");
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("channelsAndOps")
    void everyOperationCompletesForAnInterruptedCallerWhoKeepsItsInterruptStatus(Channel mode, Op op) throws Exception {
        RecordingOpener opener = mode.opener();
        try (FileSwapper swapper = twoPageFile(opener)) {
            Thread.currentThread().interrupt();
            op.run(swapper, frames);
            assertTrue(Thread.interrupted(), "the caller's interrupt status was lost");
            assertPage(swapper, 0, pattern(0), frames);
        }
        assertEquals(1, opener.opened(), "an interrupted caller's own IO closed the channel");
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("channelsAndOps")
    void everyOperationCompletesAfterAnotherThreadsInterruptHitTheSharedChannel(Channel mode, Op op) throws Exception {
        RecordingOpener opener = mode.opener();
        try (FileSwapper swapper = twoPageFile(opener)) {
            boolean closed = opener.interruptAnotherThreadInIo();
            assertEquals(mode == Channel.REOPENING, closed, "an interrupt closes only an interruptible channel");
            op.run(swapper, frames);
            assertFalse(Thread.currentThread().isInterrupted(), "another thread's interrupt leaked to the caller");
            assertPage(swapper, 0, pattern(0), frames);
        }
        assertEquals(mode == Channel.UNINTERRUPTIBLE ? 1 : 2, opener.opened());
    }

    @ParameterizedTest
    @EnumSource(Channel.class)
    void manyThreadsKeepReadingAndWritingWhileAnotherThreadKeepsInterruptingThem(Channel mode) throws Exception {
        int threads = 4;
        int rounds = 400;
        RecordingOpener opener = mode.opener();
        long memory = UNSAFE.allocateMemory((long) threads * PAGE);
        AtomicLong interrupts = new AtomicLong();
        CountDownLatch finished = new CountDownLatch(threads);
        try (FileSwapper swapper = new FileSwapper(dir.resolve("busy.db"), PAGE, true, true, opener)) {
            AtomicReference<Throwable> failure = new AtomicReference<>();
            AtomicBoolean done = new AtomicBoolean();
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                long frame = memory + (long) t * PAGE;
                workers.add(new Thread(() -> {
                    try {
                        for (int round = 0; round < rounds && failure.get() == null; round++) {
                            byte[] content = pattern(thread * 1000 + round);
                            put(frame, content);
                            swapper.write(thread, frame);
                            UNSAFE.setMemory(frame, PAGE, (byte) 0);
                            assertEquals(PAGE, swapper.read(thread, frame));
                            assertArrayEquals(content, get(frame), "page " + thread + " round " + round);
                            if (round % 50 == 0) {
                                forceUnlessReopenedOverWrites(swapper, mode);
                                assertTrue(swapper.pageCount() > thread);
                            }
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    } finally {
                        Thread.interrupted();
                        finished.countDown();
                    }
                }, "io-" + t));
            }
            Thread interrupter = new Thread(() -> {
                SplittableRandom random = new SplittableRandom(42);
                while (!done.get()) {
                    workers.get(random.nextInt(threads)).interrupt();
                    interrupts.incrementAndGet();
                    Thread.yield();
                }
            }, "interrupter");
            workers.forEach(Thread::start);
            interrupter.start();
            try {
                Waits.await(finished, "the " + threads + " threads' rounds under interrupts (" + mode + ")");
            } finally {
                done.set(true);
            }
            Waits.join(interrupter, "the interrupter's end");
            if (failure.get() != null) {
                throw new AssertionError("an operation failed under interrupts (" + mode + ")", failure.get());
            }
            for (int t = 0; t < threads; t++) {
                assertPage(swapper, t, pattern(t * 1000 + rounds - 1), memory);
            }
            forceUnlessReopenedOverWrites(swapper, mode); // what close would force: it fails the same way
        } finally {
            if (finished.getCount() == 0) { // else a hung thread may still write there: leaked, never freed under it
                UNSAFE.freeMemory(memory);
            }
        }
        assertTrue(interrupts.get() > 0);
        if (mode == Channel.UNINTERRUPTIBLE) {
            assertEquals(1, opener.opened(), "interrupts closed an uninterruptible channel");
        }
    }

    @Test
    void aReopenReachesTheSameFileAfterItWasRenamed() throws Exception {
        assumeProcFd();
        RecordingOpener opener = Channel.REOPENING.opener();
        Path path = dir.resolve("before.db");
        Path moved = dir.resolve("after.db");
        try (FileSwapper swapper = new FileSwapper(path, PAGE, true, true, opener)) {
            assertTrue(swapper.reopensThroughSpareDescriptor());
            put(frames, pattern(0));
            swapper.write(0, frames);
            swapper.force(); // a reopen over unforced writes fails every later force (see below)
            Files.move(path, moved);
            assertTrue(opener.interruptAnotherThreadInIo());

            put(frames, pattern(1));
            swapper.write(1, frames);
            assertPage(swapper, 0, pattern(0), frames);
        }
        assertEquals(2, opener.opened());
        assertFalse(Files.exists(path), "the reopen created a new file at the old path");
        assertFileHolds(moved, pattern(0), pattern(1));
    }

    @Test
    void aReopenReachesTheOriginalFileAfterAnotherFileTookItsPath() throws Exception {
        assumeProcFd();
        RecordingOpener opener = Channel.REOPENING.opener();
        Path path = dir.resolve("db");
        Path moved = dir.resolve("db.old");
        try (FileSwapper swapper = new FileSwapper(path, PAGE, true, true, opener)) {
            put(frames, pattern(0));
            swapper.write(0, frames);
            swapper.force(); // a reopen over unforced writes fails every later force (see below)
            Files.move(path, moved);
            Files.write(path, pattern(9));
            assertTrue(opener.interruptAnotherThreadInIo());

            put(frames, pattern(1));
            swapper.write(1, frames);
            assertEquals(2, swapper.pageCount());
        }
        assertFileHolds(moved, pattern(0), pattern(1));
        assertFileHolds(path, pattern(9));
    }

    @Test
    void withoutASpareDescriptorAReopenRefusesAFileThatTookThePathAndTouchesNothing() throws Exception {
        RecordingOpener opener = Channel.REOPENING.opener();
        Path path = dir.resolve("db");
        Path moved = dir.resolve("db.old");
        try (FileSwapper swapper = new FileSwapper(path, PAGE, true, true, opener, false)) {
            assertFalse(swapper.reopensThroughSpareDescriptor());
            put(frames, pattern(0));
            swapper.write(0, frames);
            Files.move(path, moved);
            Files.write(path, pattern(9));
            assertTrue(opener.interruptAnotherThreadInIo());

            put(frames, pattern(1));
            IOException e = assertThrows(IOException.class, () -> swapper.write(1, frames));
            assertTrue(e.getMessage().contains(path.toString()) && e.getMessage().contains("another file"), e.getMessage());
            // Nor can close force what was written before: it says so, and closes.
            IOException onClose = assertThrows(IOException.class, swapper::close);
            assertTrue(onClose.getMessage().contains("another file"), onClose.getMessage());
        }
        assertFileHolds(moved, pattern(0));
        assertFileHolds(path, pattern(9));
    }

    @Test
    void withoutASpareDescriptorAReopenOfTheSameFileWorks() throws Exception {
        RecordingOpener opener = Channel.REOPENING.opener();
        Path path = dir.resolve("db");
        try (FileSwapper swapper = new FileSwapper(path, PAGE, true, true, opener, false)) {
            put(frames, pattern(0));
            swapper.write(0, frames);
            swapper.force();
            assertTrue(opener.interruptAnotherThreadInIo());
            put(frames, pattern(1));
            swapper.write(1, frames);
        }
        assertEquals(List.of(path, path), opener.paths);
        assertFileHolds(path, pattern(0), pattern(1));
    }

    /**
     * A reopen while a write is not yet forced: Linux keeps a write error per open file and does not report one from
     * before the reopen to the new channel, so a force through it may succeed over a page the kernel failed to write.
     * Every force from then on fails, saying so, until the swapper is closed (the close that must force fails too). The
     * force through the new channel once succeeded, and the store took its writes for durable.
     */
    @Test
    void aReopenOverUnforcedWritesFailsEveryLaterForceSayingSo() throws Exception {
        RecordingOpener opener = Channel.REOPENING.opener();
        Path path = dir.resolve("lost.db");
        FileSwapper swapper = new FileSwapper(path, PAGE, true, true, opener);
        try {
            put(frames, pattern(0));
            swapper.write(0, frames); // not forced
            assertTrue(opener.interruptAnotherThreadInIo());
            assertEquals(1, swapper.pageCount()); // reopens
            assertEquals(2, opener.opened());
            for (int attempt = 0; attempt < 2; attempt++) {
                IOException e = assertThrows(IOException.class, swapper::force, "force " + attempt);
                assertTrue(e.getMessage().contains(path.toString()) && e.getMessage().contains("reopened")
                    && e.getMessage().contains("not yet forced"), e.getMessage());
            }
            put(frames, pattern(1));
            swapper.write(1, frames);
            assertThrows(IOException.class, swapper::close, "the close forces what was written since, and must say so too");
        } finally {
            swapper.close();
        }
        assertFileHolds(path, pattern(0), pattern(1));
    }

    /** A force under way when the reopen comes began on the old channel: it fails, and so does every later one. */
    @Test
    void aReopenDuringAForceFailsThatForceAndEveryLaterOne() throws Exception {
        FaultyFileChannel.Faults faults = new FaultyFileChannel.Faults(1);
        faults.interruptCaller = 1.0;
        AtomicBoolean once = new AtomicBoolean();
        faults.interruptible = t -> once.compareAndSet(false, true); // the force's first call only
        RecordingOpener opener = new RecordingOpener(FaultyFileChannel.opener(FileChannelOpener.interruptible(), faults));
        Path path = dir.resolve("forcing.db");
        try (FileSwapper swapper = new FileSwapper(path, PAGE, true, true, opener)) {
            put(frames, pattern(0));
            swapper.write(0, frames);
            faults.enabled = true;
            IOException e = assertThrows(IOException.class, swapper::force);
            Thread.interrupted(); // the caller's own interrupt, kept for it
            assertTrue(e.getMessage().contains("reopened"), e.getMessage());
            assertEquals(2, opener.opened(), "the interrupt closed the channel in the force");
            assertThrows(IOException.class, swapper::force);
        }
        assertFileHolds(path, pattern(0));
    }

    /**
     * The interrupt came after the write's bytes went through the channel (the JDK throws ClosedByInterruptException
     * whether or not the call moved its bytes): the reopen found nothing marked unforced, since the write marks only once
     * it returns, and its retry had nothing left to write, so the force through the new channel succeeded over a page
     * that went only through the closed one. The write that met the reopen counts now, and the force fails.
     */
    @Test
    void aWriteWhoseBytesWentThroughTheChannelTheInterruptClosedFailsTheNextForce() throws Exception {
        AtomicBoolean interruptAfterWrite = new AtomicBoolean();
        RecordingOpener opener = new RecordingOpener((file, create) ->
            new InterruptedAfterWrite(FileChannelOpener.interruptible().open(file, create), interruptAfterWrite));
        Path path = dir.resolve("written.db");
        try (FileSwapper swapper = new FileSwapper(path, PAGE, true, true, opener)) {
            put(frames, pattern(0));
            swapper.write(0, frames);
            swapper.force(); // nothing unforced from here
            interruptAfterWrite.set(true);
            put(frames, pattern(1));
            swapper.write(1, frames);
            assertTrue(Thread.interrupted(), "the caller's interrupt, kept for it");
            assertEquals(2, opener.opened(), "the interrupt closed the channel the write went through");
            IOException e = assertThrows(IOException.class, swapper::force);
            assertTrue(e.getMessage().contains("reopened") && e.getMessage().contains("not yet forced"), e.getMessage());
        }
        assertFileHolds(path, pattern(0), pattern(1));
    }

    /**
     * A write interrupted before its bytes moved (the interrupt closed the channel as the call began) put nothing through
     * the closed channel: with nothing else unforced, the reopen loses nothing and later forces succeed.
     */
    @Test
    void aWriteInterruptedBeforeItsBytesMovedLeavesLaterForcesAlone() throws Exception {
        FaultyFileChannel.Faults faults = new FaultyFileChannel.Faults(1);
        faults.interruptCaller = 1.0;
        AtomicBoolean once = new AtomicBoolean();
        faults.interruptible = t -> once.compareAndSet(false, true); // the write's first call only
        RecordingOpener opener = new RecordingOpener(FaultyFileChannel.opener(FileChannelOpener.interruptible(), faults));
        Path path = dir.resolve("unmoved.db");
        try (FileSwapper swapper = new FileSwapper(path, PAGE, true, true, opener)) {
            put(frames, pattern(0));
            swapper.write(0, frames);
            swapper.force(); // nothing unforced from here
            faults.enabled = true;
            put(frames, pattern(1));
            swapper.write(1, frames);
            assertTrue(Thread.interrupted(), "the caller's interrupt, kept for it");
            faults.enabled = false;
            assertEquals(2, opener.opened(), "the interrupt closed the channel in the write");
            swapper.force();
        }
        assertFileHolds(path, pattern(0), pattern(1));
    }

    /** Passes every call to an interruptible channel; once asked, a write that moved its bytes is then interrupted. */
    private static final class InterruptedAfterWrite extends java.nio.channels.FileChannel {
        private final java.nio.channels.FileChannel real;
        private final AtomicBoolean armed;

        InterruptedAfterWrite(java.nio.channels.FileChannel real, AtomicBoolean armed) {
            this.real = real;
            this.armed = armed;
        }

        @Override
        public int write(java.nio.ByteBuffer src, long position) throws IOException {
            int written = real.write(src, position);
            if (written > 0 && armed.compareAndSet(true, false)) {
                Thread.currentThread().interrupt();
                real.size(); // closes the channel and throws ClosedByInterruptException, the bytes written
            }
            return written;
        }

        @Override
        public int read(java.nio.ByteBuffer dst, long position) throws IOException {
            return real.read(dst, position);
        }

        @Override
        public int read(java.nio.ByteBuffer dst) throws IOException {
            return real.read(dst);
        }

        @Override
        public long read(java.nio.ByteBuffer[] dsts, int offset, int length) throws IOException {
            return real.read(dsts, offset, length);
        }

        @Override
        public int write(java.nio.ByteBuffer src) throws IOException {
            return real.write(src);
        }

        @Override
        public long write(java.nio.ByteBuffer[] srcs, int offset, int length) throws IOException {
            return real.write(srcs, offset, length);
        }

        @Override
        public long position() throws IOException {
            return real.position();
        }

        @Override
        public java.nio.channels.FileChannel position(long newPosition) throws IOException {
            real.position(newPosition);
            return this;
        }

        @Override
        public long size() throws IOException {
            return real.size();
        }

        @Override
        public java.nio.channels.FileChannel truncate(long size) throws IOException {
            real.truncate(size);
            return this;
        }

        @Override
        public void force(boolean metaData) throws IOException {
            real.force(metaData);
        }

        @Override
        public long transferTo(long position, long count, java.nio.channels.WritableByteChannel target) throws IOException {
            return real.transferTo(position, count, target);
        }

        @Override
        public long transferFrom(java.nio.channels.ReadableByteChannel src, long position, long count) throws IOException {
            return real.transferFrom(src, position, count);
        }

        @Override
        public java.nio.MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
            return real.map(mode, position, size);
        }

        @Override
        public java.nio.channels.FileLock lock(long position, long size, boolean shared) throws IOException {
            return real.lock(position, size, shared);
        }

        @Override
        public java.nio.channels.FileLock tryLock(long position, long size, boolean shared) throws IOException {
            return real.tryLock(position, size, shared);
        }

        @Override
        protected void implCloseChannel() throws IOException {
            real.close();
        }
    }

    /** A reopen with nothing unforced loses nothing: later forces succeed. */
    @Test
    void aReopenAfterEverythingWasForcedLeavesLaterForcesAlone() throws Exception {
        RecordingOpener opener = Channel.REOPENING.opener();
        Path path = dir.resolve("forced.db");
        try (FileSwapper swapper = new FileSwapper(path, PAGE, true, true, opener)) {
            put(frames, pattern(0));
            swapper.write(0, frames);
            swapper.force();
            assertTrue(opener.interruptAnotherThreadInIo());
            put(frames, pattern(1));
            swapper.write(1, frames); // reopens
            swapper.force();
            assertEquals(2, opener.opened());
        }
        assertFileHolds(path, pattern(0), pattern(1));
    }

    /**
     * Forces; where interrupts close the channel, the force may fail because a reopen came over writes not yet forced
     * (see {@link #aReopenOverUnforcedWritesFailsEveryLaterForceSayingSo}): the one failure allowed.
     */
    private static void forceUnlessReopenedOverWrites(FileSwapper swapper, Channel mode) throws IOException {
        try {
            swapper.force();
        } catch (IOException e) {
            if (mode == Channel.UNINTERRUPTIBLE || !e.getMessage().contains("not yet forced went through a channel")) {
                throw e;
            }
        }
    }

    private static void assumeProcFd() {
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "no /proc/self/fd to reopen through");
    }

    /** A swapper over a new file holding pages 0 and 1. */
    private FileSwapper twoPageFile(FileChannelOpener opener) throws IOException {
        Path path = dir.resolve("two.db");
        byte[] bytes = Arrays.copyOf(pattern(0), 2 * PAGE);
        System.arraycopy(pattern(1), 0, bytes, PAGE, PAGE);
        Files.write(path, bytes);
        return new FileSwapper(path, PAGE, false, true, opener);
    }

    private static void assertPage(FileSwapper swapper, long pageId, byte[] expected, long frame) throws IOException {
        boolean interrupted = Thread.interrupted(); // the check itself runs uninterrupted
        try {
            UNSAFE.setMemory(frame, PAGE, (byte) 0);
            assertEquals(PAGE, swapper.read(pageId, frame));
            assertArrayEquals(expected, get(frame), "page " + pageId);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void assertFileHolds(Path path, byte[]... pages) throws IOException {
        byte[] onDisk = Files.readAllBytes(path);
        assertEquals(pages.length * PAGE, onDisk.length, path + " size");
        for (int p = 0; p < pages.length; p++) {
            assertArrayEquals(pages[p], Arrays.copyOfRange(onDisk, p * PAGE, (p + 1) * PAGE), path + " page " + p);
        }
    }

    static byte[] pattern(int seed) {
        byte[] b = new byte[PAGE];
        for (int i = 0; i < PAGE; i++) {
            b[i] = (byte) (i * 31 + seed * 7 + 1);
        }
        return b;
    }

    static void put(long address, byte[] bytes) {
        UNSAFE.copyMemory(bytes, Unsafe.ARRAY_BYTE_BASE_OFFSET, null, address, bytes.length);
    }

    static byte[] get(long address) {
        byte[] b = new byte[PAGE];
        UNSAFE.copyMemory(null, address, b, Unsafe.ARRAY_BYTE_BASE_OFFSET, PAGE);
        return b;
    }
}
