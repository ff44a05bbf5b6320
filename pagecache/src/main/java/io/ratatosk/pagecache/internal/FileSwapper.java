package io.ratatosk.pagecache.internal;

import io.ratatosk.core.PageSwapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.agrona.UnsafeAccess;
import sun.misc.Unsafe;

/**
 * Positional IO on one file through a {@link FileChannel}, straight into and out of page memory where
 * the JDK allows it (a per-thread {@link PageIoBuffer}). A channel closed because a thread was
 * interrupted mid-IO is reopened, so one interrupt does not make the file unusable for everybody else.
 */
public final class FileSwapper implements PageSwapper {
    private static final Unsafe UNSAFE = UnsafeAccess.UNSAFE;

    private final Path path;
    private final int filePageSize;
    private final ThreadLocal<PageIoBuffer> buffers;
    private volatile FileChannel channel;
    private volatile boolean closed;

    public FileSwapper(Path path, int filePageSize, boolean create) throws IOException {
        this(path, filePageSize, create, true);
    }

    /** @param zeroCopy false to copy every page through a scratch buffer even where the JDK allows direct IO */
    public FileSwapper(Path path, int filePageSize, boolean create, boolean zeroCopy) throws IOException {
        this.path = path;
        this.filePageSize = filePageSize;
        this.buffers = ThreadLocal.withInitial(
            () -> zeroCopy ? PageIoBuffer.forPages(filePageSize) : PageIoBuffer.copying(filePageSize));
        this.channel = create
            ? FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE, StandardOpenOption.CREATE)
            : FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }

    @Override
    public int filePageSize() {
        return filePageSize;
    }

    @Override
    public int read(long pageId, long address) throws IOException {
        PageIoBuffer io = buffers.get();
        ByteBuffer buf = io.forRead(address, filePageSize);
        long position = pageId * filePageSize;
        int total = 0;
        while (buf.hasRemaining()) {
            int n = readOnce(buf, position + total);
            if (n < 0) {
                break;
            }
            total += n;
        }
        io.afterRead(address, total);
        if (total < filePageSize) {
            UNSAFE.setMemory(address + total, filePageSize - total, (byte) 0);
        }
        return total;
    }

    @Override
    public void write(long pageId, long address) throws IOException {
        ByteBuffer buf = buffers.get().forWrite(address, filePageSize);
        long position = pageId * filePageSize;
        while (buf.hasRemaining()) {
            writeOnce(buf, position + buf.position());
        }
    }

    private int readOnce(ByteBuffer buf, long position) throws IOException {
        while (true) {
            FileChannel ch = channel;
            try {
                return ch.read(buf, position);
            } catch (ClosedByInterruptException e) {
                reopen(ch, e);
                throw e; // this thread was interrupted: its IO fails, everybody else's goes on
            } catch (ClosedChannelException e) {
                reopen(ch, e); // another thread's interrupt closed the shared channel: retry on the new one
            }
        }
    }

    private void writeOnce(ByteBuffer buf, long position) throws IOException {
        while (true) {
            FileChannel ch = channel;
            try {
                ch.write(buf, position);
                return;
            } catch (ClosedByInterruptException e) {
                reopen(ch, e);
                throw e;
            } catch (ClosedChannelException e) {
                reopen(ch, e);
            }
        }
    }

    /** Replaces a channel that an interrupt closed, unless this swapper itself was closed. */
    private synchronized void reopen(FileChannel failed, IOException cause) throws IOException {
        if (closed) {
            throw cause;
        }
        if (channel == failed && !failed.isOpen()) {
            // Opening is not interruptible, so an interrupted caller can still reopen for the others.
            try {
                channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
            } catch (IOException e) {
                e.addSuppressed(cause);
                throw e;
            }
        }
    }

    @Override
    public void force() throws IOException {
        channel.force(false);
    }

    @Override
    public long pageCount() throws IOException {
        long size = channel.size();
        return (size + filePageSize - 1) / filePageSize;
    }

    @Override
    public void truncate(long pageCount) throws IOException {
        channel.truncate(pageCount * filePageSize);
    }

    @Override
    public synchronized void close() throws IOException {
        closed = true;
        channel.close();
    }

    @Override
    public String toString() {
        return "FileSwapper[" + path + ", pageSize=" + filePageSize + "]";
    }
}
