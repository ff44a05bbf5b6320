package io.ratatosk.nvm;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import sun.misc.Unsafe;

/** A minimal positional-IO file swapper for tests (the real one lives in the pagecache module). */
final class FileChannelFiles implements PageSwapperFactory {
    private static final Unsafe UNSAFE = OffHeapPages.UNSAFE;

    @Override
    public PageSwapper create(Path file, int fileId, int filePageSize, boolean create) throws IOException {
        FileChannel channel = create
            ? FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE, StandardOpenOption.CREATE)
            : FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        return new PageSwapper() {
            @Override
            public int filePageSize() {
                return filePageSize;
            }

            @Override
            public int read(long pageId, long address) throws IOException {
                byte[] bytes = new byte[filePageSize];
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                long position = pageId * filePageSize;
                while (buffer.hasRemaining()) {
                    if (channel.read(buffer, position + buffer.position()) < 0) {
                        break;
                    }
                }
                UNSAFE.copyMemory(bytes, Unsafe.ARRAY_BYTE_BASE_OFFSET, null, address, filePageSize);
                return buffer.position();
            }

            @Override
            public void write(long pageId, long address) throws IOException {
                byte[] bytes = new byte[filePageSize];
                UNSAFE.copyMemory(null, address, bytes, Unsafe.ARRAY_BYTE_BASE_OFFSET, filePageSize);
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                long position = pageId * filePageSize;
                while (buffer.hasRemaining()) {
                    channel.write(buffer, position + buffer.position());
                }
            }

            @Override
            public void force() throws IOException {
                channel.force(false);
            }

            @Override
            public long pageCount() throws IOException {
                return (channel.size() + filePageSize - 1) / filePageSize;
            }

            @Override
            public void truncate(long pageCount) throws IOException {
                channel.truncate(pageCount * filePageSize);
            }

            @Override
            public void close() throws IOException {
                channel.close();
            }
        };
    }
}
