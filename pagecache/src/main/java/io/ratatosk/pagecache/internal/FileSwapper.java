package io.ratatosk.pagecache.internal;

import io.ratatosk.core.PageSwapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Arrays;
import org.agrona.UnsafeAccess;
import sun.misc.Unsafe;

/**
 * Positional IO on one file through a {@link FileChannel}, straight into and out of page memory where
 * the JDK allows it (a per-thread {@link PageIoBuffer}).
 * <p>
 * Interrupts: every operation completes whatever thread is interrupted, and an interrupted caller keeps
 * its interrupt status. The default channel ignores interrupts ({@link UninterruptibleFileChannels}).
 * Where a channel does not (another JDK, or another {@link FileChannelOpener}), an interrupt closes it
 * for every thread; then whichever operation meets the closed channel reopens the file
 * ({@link FileReopener}: the same file even if it was renamed, or a clear IOException) and retries.
 * Either way a caller's interrupt status is cleared for the duration of the call and set again after it,
 * so an interrupted thread does not close an interruptible channel at every call it makes.
 * A reopen while something written is not yet known to be durable (written since the last force began, in
 * flight as the channel closed, or before a force that had not yet forced it through the old channel) makes
 * every later {@link #force()} fail, saying so: the operating system (Linux) does not report a write error
 * from before the reopen to the new channel, so a force through it may succeed over lost pages.
 * <p>
 * Channels may transfer fewer bytes than asked; reads and writes loop until the page is done.
 * {@link #close()} forces what was written since the last {@link #force()}; any operation after it
 * throws a {@link ClosedChannelException} naming the file.
 */
public final class FileSwapper implements PageSwapper {
    private static final Unsafe UNSAFE = UnsafeAccess.UNSAFE;
    /** A page's read and write: one transfer between {@code buf} and the file at {@code position} + buf's position. */
    private static final ChannelCall READ = (ch, buf, position) -> ch.read(buf, position + buf.position());
    private static final ChannelCall WRITE = (ch, buf, position) -> ch.write(buf, position + buf.position());

    private final Path path;
    private final int filePageSize;
    private final ThreadLocal<PageIoBuffer> buffers;
    /** The block size direct IO needs offsets and buffers aligned to; 0 for buffered IO. */
    private final int directAlignment;
    private final boolean zeroCopy;
    /** Each thread's buffers for a vectored write, one per page, grown on demand. */
    private final ThreadLocal<PageIoBuffer[]> vectors = ThreadLocal.withInitial(() -> new PageIoBuffer[0]);
    /**
     * A vectored write goes through the channel's position (FileChannel has no positional gathering
     * write): one at a time. Positional reads and writes do not use the position and are not held up.
     */
    private final Object gatherLock = new Object();
    private final FileChannelOpener opener;
    private final FileReopener reopener;
    private volatile FileChannel channel;
    /** Set after every write or truncate, cleared as a force begins: what close must still force. */
    private volatile boolean unforced;
    /**
     * Set, for good, when the channel was reopened while something written was not yet known to be durable (see
     * {@link #reopen}): every force from then on fails saying so.
     */
    private volatile IOException reopenedOverUnforcedWrites;
    /** What closed the channel the latest reopen replaced: the cause a force that began before it reports. */
    private volatile IOException latestReopenCause;
    /**
     * Reopens so far, counted before a reopen looks at {@link #unforced}: a write that marked itself unforced too late
     * for that look sees the count changed since it took its channel ({@link #wroteThrough}).
     */
    private volatile long reopens;
    private volatile boolean closed;

    public FileSwapper(Path path, int filePageSize, boolean create) throws IOException {
        this(path, filePageSize, create, true);
    }

    /** @param zeroCopy false to copy every page through a scratch buffer even where the JDK allows direct IO */
    public FileSwapper(Path path, int filePageSize, boolean create, boolean zeroCopy) throws IOException {
        this(path, filePageSize, create, zeroCopy, FileChannelOpener.uninterruptible());
    }

    /** @param opener opens (and reopens) the channel to the file */
    public FileSwapper(Path path, int filePageSize, boolean create, boolean zeroCopy, FileChannelOpener opener)
        throws IOException {
        this(path, filePageSize, create, zeroCopy, opener, true);
    }

    /**
     * @param spareDescriptor false to never keep a spare descriptor to reopen through, so that a reopen
     *                        relies on the file key check alone (as where the platform has no /proc)
     */
    FileSwapper(Path path, int filePageSize, boolean create, boolean zeroCopy, FileChannelOpener opener,
                boolean spareDescriptor) throws IOException {
        this(path, filePageSize, create, zeroCopy, opener, spareDescriptor, 0);
    }

    /**
     * A swapper for direct IO ({@code pagecache.io=direct}): {@code opener} opens with {@code O_DIRECT}
     * ({@link DirectIo#opener()}), and every transfer is aligned to {@code alignment}
     * ({@link DirectIo#alignment}), copying through an aligned buffer for a page whose address is not.
     */
    public static FileSwapper direct(Path path, int filePageSize, boolean create, FileChannelOpener opener, int alignment)
        throws IOException {
        if (alignment <= 0 || Integer.bitCount(alignment) != 1 || filePageSize % alignment != 0) {
            throw new IllegalArgumentException("direct IO needs a power-of-two alignment that divides the file page size:"
                + " alignment=" + alignment + ", filePageSize=" + filePageSize + " for " + path);
        }
        return new FileSwapper(path, filePageSize, create, true, opener, true, alignment);
    }

    private FileSwapper(Path path, int filePageSize, boolean create, boolean zeroCopy, FileChannelOpener opener,
                        boolean spareDescriptor, int directAlignment) throws IOException {
        if (filePageSize <= 0) {
            // Before the open, which may create the file: 0 once failed the first pageCount() with "/ by zero"
            throw new IllegalArgumentException("the file page size must be positive: filePageSize=" + filePageSize
                + " for " + path);
        }
        this.path = path;
        this.filePageSize = filePageSize;
        this.opener = opener;
        this.directAlignment = directAlignment;
        this.zeroCopy = zeroCopy;
        this.buffers = ThreadLocal.withInitial(() -> directAlignment > 0 ? PageIoBuffer.aligned(filePageSize, directAlignment)
            : zeroCopy ? PageIoBuffer.forPages(filePageSize) : PageIoBuffer.copying(filePageSize));
        FileChannel opened = opener.open(path, create);
        try {
            // A channel that interrupts cannot close needs no reopening, so no spare descriptor either.
            this.reopener = FileReopener.of(path, spareDescriptor && !UninterruptibleFileChannels.isUninterruptible(opened));
        } catch (IOException | RuntimeException | Error e) {
            try {
                opened.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        this.channel = opened;
    }

    @Override
    public int filePageSize() {
        return filePageSize;
    }

    /** Whether this swapper bypasses the operating system's page cache ({@code pagecache.io=direct}). */
    public boolean isDirect() {
        return directAlignment > 0;
    }

    /** Its eviction is the interface's: a dirty page written, nothing else. */
    @Override
    public boolean evictionIsPlainWrite() {
        return true;
    }

    @Override
    public int read(long pageId, long address) throws IOException {
        PageIoBuffer io = buffers.get();
        ByteBuffer buf = io.forRead(address, filePageSize);
        int total = transfer(READ, buf, pageId * filePageSize);
        io.afterRead(address, total);
        if (total < filePageSize) {
            UNSAFE.setMemory(address + total, filePageSize - total, (byte) 0);
        }
        return total;
    }

    @Override
    public void write(long pageId, long address) throws IOException {
        ByteBuffer buf = buffers.get().forWrite(address, filePageSize);
        try {
            transfer(WRITE, buf, pageId * filePageSize);
            if (buf.hasRemaining()) { // only direct IO stops short: a write that ended off a block boundary
                throw new IOException("writing page " + pageId + " of " + path + " with pagecache.io=direct stopped after "
                    + buf.position() + " of " + filePageSize + " bytes, off a block boundary (" + directAlignment + ")");
            }
        } finally {
            markUnforced(); // even a failed write may have reached the file
        }
    }

    /** Something was written: close and a reopen must know. */
    private void markUnforced() {
        if (!unforced) { // read first: writers do not all store to one shared line on every page
            unforced = true;
        }
    }

    /**
     * Writes {@code count} adjacent pages in one gathering write (writev), straight from page memory:
     * one system call for the run instead of one per page.
     */
    @Override
    public void write(long startPageId, long[] addresses, int count) throws IOException {
        if (count == 1) {
            write(startPageId, addresses[0]);
            return;
        }
        ByteBuffer[] bufs = new ByteBuffer[count];
        PageIoBuffer[] vector = vector(count);
        long total = 0;
        for (int i = 0; i < count; i++) {
            bufs[i] = vector[i].forWrite(addresses[i], filePageSize);
            total += filePageSize;
        }
        long position = startPageId * filePageSize;
        try {
            long done = 0;
            while (done < total) {
                // Where to go on from is read off the buffers inside the call, so that a retry after a
                // reopen (an interrupt closed the channel mid-write) resumes exactly where the bytes stopped.
                call((ch, unused, ignored) -> {
                    int from = 0;
                    long written = 0;
                    for (ByteBuffer buf : bufs) {
                        written += buf.position();
                        if (!buf.hasRemaining()) {
                            from++;
                        }
                    }
                    synchronized (gatherLock) {
                        ch.position(position + written);
                        return ch.write(bufs, from, count - from);
                    }
                }, null, 0, true);
                done = 0;
                for (ByteBuffer buf : bufs) {
                    done += buf.position();
                }
                if (directAlignment > 0 && (done & (directAlignment - 1)) != 0 && done < total) {
                    throw new IOException("writing pages " + startPageId + ".." + (startPageId + count - 1) + " of " + path
                        + " with pagecache.io=direct stopped after " + done + " of " + total + " bytes, off a block boundary");
                }
            }
        } finally {
            markUnforced();
        }
    }

    private PageIoBuffer[] vector(int count) {
        PageIoBuffer[] vector = vectors.get();
        if (vector.length < count) {
            PageIoBuffer[] grown = Arrays.copyOf(vector, Math.max(count, vector.length * 2));
            for (int i = vector.length; i < grown.length; i++) {
                grown[i] = directAlignment > 0 ? PageIoBuffer.aligned(filePageSize, directAlignment)
                    : zeroCopy ? PageIoBuffer.forPages(filePageSize) : PageIoBuffer.copying(filePageSize);
            }
            vectors.set(grown);
            vector = grown;
        }
        return vector;
    }

    /**
     * Moves {@code buf}'s remaining bytes to or from the file at {@code position} + the buffer's position,
     * over as many calls as the channel needs; returns the bytes moved (fewer only for a read at the end).
     */
    private int transfer(ChannelCall op, ByteBuffer buf, long position) throws IOException {
        while (buf.hasRemaining() && call(op, buf, position, op == WRITE) >= 0) {
            // a short transfer: go on from where it stopped, unless direct IO cannot (off a block
            // boundary, as a read that met the end of a file whose size is not a block multiple)
            if (directAlignment > 0 && (buf.position() & (directAlignment - 1)) != 0) {
                break;
            }
        }
        return buf.position();
    }

    /**
     * Forces the file. Fails, whatever the operating system says, once the channel was reopened over writes not yet known
     * to be durable ({@link #reopen}): until this swapper is closed.
     */
    @Override
    public void force() throws IOException {
        // The channel first: writes that went through it are this force's to make durable, and a reopen that comes after
        // this point and before the force reaches that channel leaves them to a force through the new one (below).
        FileChannel writtenThrough = channel;
        boolean written = unforced;
        unforced = false; // before forcing: a write that completes after this point is left for the next force
        FileChannel[] forcedThrough = new FileChannel[1];
        try {
            call((ch, unused, ignored) -> {
                ch.force(false);
                forcedThrough[0] = ch;
                return 0L;
            }, null, 0);
        } catch (IOException | RuntimeException | Error e) {
            unforced = true;
            throw e;
        }
        if (written && forcedThrough[0] != writtenThrough) {
            reopenedOver(latestReopenCause);
        }
        IOException reopened = reopenedOverUnforcedWrites;
        if (reopened != null) {
            // What this force could make durable, it did: a retry, or close, could learn nothing more
            throw new IOException(reopened.getMessage(), reopened);
        }
    }

    @Override
    public long pageCount() throws IOException {
        long size = call((ch, unused, ignored) -> ch.size(), null, 0);
        // Rounded up without adding a page first: a file of nearly Long.MAX_VALUE bytes (tmpfs allows one) wrapped round.
        return size / filePageSize + (size % filePageSize == 0 ? 0 : 1);
    }

    @Override
    public void truncate(long pageCount) throws IOException {
        try {
            call((ch, unused, bytes) -> {
                ch.truncate(bytes);
                return 0L;
            }, null, bytesOf(pageCount), true);
        } finally {
            unforced = true;
        }
    }

    /**
     * The byte size of {@code pageCount} pages; a count whose bytes would pass {@link Long#MAX_VALUE} is past
     * every byte a file can have, so it cuts nothing (it once wrapped round and cut the file short).
     */
    private long bytesOf(long pageCount) {
        return pageCount > Long.MAX_VALUE / filePageSize ? Long.MAX_VALUE : pageCount * filePageSize;
    }

    /**
     * One operation on the channel. Its arguments are passed, not captured, so that the read and write
     * of every fault and eviction use two constant lambdas and allocate nothing.
     */
    private interface ChannelCall {
        long call(FileChannel channel, ByteBuffer buf, long position) throws IOException;
    }

    /**
     * Runs {@code op} on the channel once it succeeds: if the channel was closed under it (this thread's
     * interrupt, or another's), reopens the file and runs it again.
     */
    private long call(ChannelCall op, ByteBuffer buf, long position) throws IOException {
        return call(op, buf, position, false);
    }

    /** @param writes whether {@code op} changes the file: a reopen must know what went through the channel it replaces */
    private long call(ChannelCall op, ByteBuffer buf, long position, boolean writes) throws IOException {
        boolean interrupted = Thread.interrupted(); // an interrupted caller would close an interruptible channel
        try {
            while (true) {
                FileChannel ch = openChannel();
                long reopensBefore = reopens; // after the channel: a reopen counted from here may replace it
                int positionBefore = buf == null ? -1 : buf.position();
                try {
                    long result = op.call(ch, buf, position);
                    if (writes) {
                        wroteThrough(reopensBefore);
                    }
                    return result;
                } catch (ClosedByInterruptException e) {
                    // The interrupt may have come after the bytes went: a page's buffer says whether any did (a false
                    // alarm fails every later force); a vectored write's or a truncate's counts as though they had
                    if (writes && (buf == null || buf.position() != positionBefore)) {
                        wroteThrough(reopensBefore);
                    }
                    reopen(ch, e);
                    interrupted |= Thread.interrupted(); // interrupted during the call: retry uninterrupted
                } catch (ClosedChannelException e) {
                    reopen(ch, e); // another thread's interrupt closed the shared channel
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private FileChannel openChannel() throws ClosedChannelException {
        if (closed) {
            throw new SwapperClosedException(path);
        }
        return channel;
    }

    /**
     * Replaces {@code failed}, which threw a ClosedChannelException, unless another thread already did,
     * or this swapper itself was closed.
     */
    private synchronized void reopen(FileChannel failed, IOException cause) throws IOException {
        if (closed) {
            SwapperClosedException e = new SwapperClosedException(path);
            e.addSuppressed(cause);
            throw e;
        }
        if (channel == failed) {
            latestReopenCause = cause;
            reopens++; // only here, under this lock; before the look at unforced (see wroteThrough)
            if (unforced) {
                reopenedOver(cause);
            }
            // Closed already, unless a wrapping channel only passed its delegate's exception on.
            closeQuietly(failed, cause);
            // Opening is not interruptible, so an interrupted caller can still reopen for the others.
            try {
                channel = reopener.reopen(opener);
            } catch (IOException | RuntimeException e) {
                e.addSuppressed(cause);
                throw e;
            }
        }
    }

    /**
     * A write (or truncate) may have gone through the channel it took when the reopen count was {@code reopensBefore}:
     * marked unforced, then the count read again. A reopen that looked at {@link #unforced} before the mark counted
     * itself before that look, so the count tells; without this a write whose call returned, or was interrupted after
     * its bytes went, just as an interrupt closed the channel was left out, and a force through the new channel
     * succeeded over it. A plain ClosedChannelException moved no bytes: the channel was closed before the call.
     */
    private void wroteThrough(long reopensBefore) {
        markUnforced();
        if (reopens != reopensBefore) {
            reopenedOver(latestReopenCause);
        }
    }

    /**
     * The channel was reopened over writes not yet forced through the channel they went to: a write error the kernel met
     * for that channel is not reported to a new one (Linux keeps it per open file), so a later force's success would say
     * nothing about them. Every force from now on fails.
     */
    private synchronized void reopenedOver(IOException cause) {
        if (reopenedOverUnforcedWrites == null) {
            reopenedOverUnforcedWrites = new IOException("writes to " + path + " not yet forced went through a channel"
                + " that an interrupt closed, and the file was reopened: the operating system does not report a write error"
                + " from before a reopen to the new channel, so they may not be on storage whatever a force says. Every"
                + " force of the file fails so until it is closed; recover its content (from a log) and open it again",
                cause);
        }
    }

    /** Whether a reopen would go through a spare descriptor, reaching the file even after a rename. */
    boolean reopensThroughSpareDescriptor() {
        return reopener.reopensThroughSpareDescriptor();
    }

    /** Whether the current channel ignores interrupts. */
    boolean isUninterruptible() {
        return UninterruptibleFileChannels.isUninterruptible(channel);
    }

    /**
     * Forces what was written since the last force, then closes the file. The file is closed even if the
     * force fails (the failure is thrown); closing again does nothing. That failed force is reported once, by the close
     * that met it, as {@code PagedFile.close} and {@code PageCache.close} report a file's failed force once and then
     * do nothing: a retried close has nothing left to force (the file is closed, every later call refused), so it can
     * neither make the lost writes durable nor learn more about them, and throwing for ever would keep the page cache
     * from ever forgetting the file.
     */
    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        Throwable failure = null;
        try {
            if (unforced) {
                force();
            }
        } catch (IOException | RuntimeException | Error e) {
            failure = e;
        }
        closed = true;
        try {
            channel.close();
        } catch (IOException | RuntimeException e) {
            failure = Failures.add(failure, e);
        }
        try {
            reopener.close();
        } catch (IOException | RuntimeException e) {
            failure = Failures.add(failure, e);
        }
        Failures.rethrow(failure);
    }

    private static void closeQuietly(FileChannel channel, IOException cause) {
        try {
            channel.close();
        } catch (IOException e) {
            cause.addSuppressed(e);
        }
    }

    @Override
    public String toString() {
        return "FileSwapper[" + path + ", pageSize=" + filePageSize + "]";
    }

    /** Use after {@link #close()}: a ClosedChannelException that says which file. */
    private static final class SwapperClosedException extends ClosedChannelException {
        private final Path path;

        SwapperClosedException(Path path) {
            this.path = path;
        }

        @Override
        public String getMessage() {
            return "the swapper of " + path + " is closed: no IO after close()";
        }
    }
}
