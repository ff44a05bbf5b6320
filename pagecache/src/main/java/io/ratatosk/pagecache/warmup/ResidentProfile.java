package io.ratatosk.pagecache.warmup;

import io.ratatosk.pagecache.internal.UninterruptibleFileChannels;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.zip.CRC32;

/**
 * Which pages of one file were resident in the cache: the warm-up after a restart faults them back in.
 * Stored next to the file as {@code <file>.cacheprof}, compactly: a header (magic, version, the file's
 * page size, its page count and file key when the profile was taken), the page ids in increasing order as
 * variable-length deltas (one or two bytes each for a dense set), and a CRC-32 of everything before it.
 *
 * <p>Written atomically: to a temporary file of its own ({@code <file>.cacheprof.<n>.tmp}, the first of 16 names
 * that is free, created new, so that no file already there is ever written: a store's own file, or another writer's
 * temporary file), forced, then renamed over the old profile, so a crash at any point leaves either the old profile or
 * the new one, never a torn one, and two writers of one profile (two caches mapping the file) each rename a whole one.
 * A crash leaves its temporary file behind: the next write of the profile (every interval, and at the unmap) or read
 * (at the next map; the first map of a folder in a JVM also removes what earlier versions left there under random
 * names) removes it once it is old.
 */
public final class ResidentProfile {
    /** The suffix of a profile's file name, after the data file's. */
    public static final String SUFFIX = ".cacheprof";
    static final String TEMP_SUFFIX = ".tmp";
    /**
     * The temporary names of one profile, as many writers as may write it at once (each cache that maps the file): few,
     * so that a read can look at each for a dead write's leftover without listing the folder.
     */
    private static final int TEMP_NAMES = 16;
    /**
     * How long a temporary file stays untouched before it is taken for a dead write's: a live write creates, writes,
     * forces and renames it in far less. Judged by this machine's clock against the file's modification time, which a
     * network file system's server sets (a server clock lagging by more makes a live write look dead). Should a write
     * stall longer, its removal fails that write, or, once another write has taken the name, that other one, after the
     * stalled write's rename moved its file (perhaps still being written) over the profile: a profile is lost, a torn
     * one refused by its CRC, never store data.
     */
    static final long DEAD_WRITE_MILLIS = 3_600_000;
    /**
     * The most bytes a profile read takes: more than any byte array holds, which {@link #encode} writes a profile into.
     * A larger file (a sparse one, say) is no profile this code wrote, and is not read through at the map.
     */
    static final long MAX_PROFILE_BYTES = Integer.MAX_VALUE - 8;
    /** Any profile's temporary names, earlier versions' random ones too: see {@link #removeDeadWritesOfEarlierVersions}. */
    private static final Pattern EARLIER_TEMP_NAME = Pattern.compile(".+" + Pattern.quote(SUFFIX) + "\\.[0-9a-f]{1,8}"
        + Pattern.quote(TEMP_SUFFIX));
    /** The folders swept for earlier versions' leftovers, so far; at most {@link #MAX_SWEPT_FOLDERS}. */
    private static final Set<Path> SWEPT_FOLDERS = ConcurrentHashMap.newKeySet();
    private static final int MAX_SWEPT_FOLDERS = 4096;
    private static final byte[] MAGIC = "RTSKPROF".getBytes(StandardCharsets.US_ASCII);
    private static final int VERSION = 1;
    /** Magic, version, page size, page count, key length. */
    private static final int HEADER_BYTES = MAGIC.length + 4 + 4 + 8 + 4;
    private static final int MAX_KEY_BYTES = 1024;
    private static final int READ_BUFFER_BYTES = 1 << 16;
    /** The most bytes a varint of a 64-bit value takes. */
    private static final int MAX_VARINT_BYTES = 10;

    private final int filePageSize;
    private final long filePages;
    private final String fileKey;
    private final long[] pages;

    /**
     * @param filePages the file's page count when the profile was taken
     * @param fileKey   what identifies the file (device and inode), to tell a replaced file
     * @param pages     resident page ids, increasing, none negative
     * @throws IllegalArgumentException for what the format cannot read back: a negative or repeated page id, page ids
     *                                  out of order, or a key of more than 1024 bytes in UTF-8
     */
    public ResidentProfile(int filePageSize, long filePages, String fileKey, long[] pages) {
        Objects.requireNonNull(fileKey, "fileKey");
        Objects.requireNonNull(pages, "pages");
        // Checked here, not only when read: a profile written with either was refused as corrupt at every map of its file.
        int keyBytes = fileKey.getBytes(StandardCharsets.UTF_8).length;
        if (keyBytes > MAX_KEY_BYTES) {
            throw new IllegalArgumentException("a profile's file key takes at most " + MAX_KEY_BYTES + " bytes in UTF-8: "
                + keyBytes + " bytes");
        }
        if (pages.length > 0 && pages[0] < 0) {
            throw new IllegalArgumentException("page ids must not be negative: " + pages[0]);
        }
        for (int i = 1; i < pages.length; i++) {
            if (pages[i] <= pages[i - 1]) {
                throw new IllegalArgumentException("page ids must increase: " + pages[i - 1] + " then " + pages[i]);
            }
        }
        this.filePageSize = filePageSize;
        this.filePages = filePages;
        this.fileKey = fileKey;
        this.pages = pages;
    }

    /** Where the profile of {@code file} lives: beside it, named after it. */
    public static Path pathFor(Path file) {
        return file.resolveSibling(file.getFileName() + SUFFIX);
    }

    /**
     * Temporary name {@code n} (of {@link #TEMP_NAMES}) for a new profile of {@code file}, beside it: at most 7 characters
     * longer than the profile's (a file system's name limit, 255 on most, must hold both).
     */
    static Path tempPathFor(Path file, int n) {
        return file.resolveSibling(file.getFileName() + SUFFIX + "." + n + TEMP_SUFFIX);
    }

    public int filePageSize() {
        return filePageSize;
    }

    public long filePages() {
        return filePages;
    }

    public String fileKey() {
        return fileKey;
    }

    /** The resident page ids, increasing. */
    public long[] pages() {
        return pages.clone();
    }

    public int size() {
        return pages.length;
    }

    long page(int i) {
        return pages[i];
    }

    // ---- the format ---------------------------------------------------------------------------------

    byte[] encode() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(HEADER_BYTES + 2 * pages.length + 64);
        byte[] key = fileKey.getBytes(StandardCharsets.UTF_8);
        ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES + 8);
        header.put(MAGIC).putInt(VERSION).putInt(filePageSize).putLong(filePages).putInt(key.length).putLong(pages.length);
        out.writeBytes(header.array());
        out.writeBytes(key);
        long previous = -1;
        for (long page : pages) {
            writeVarLong(out, page - previous - 1);
            previous = page;
        }
        CRC32 crc = new CRC32();
        byte[] body = out.toByteArray();
        crc.update(body);
        ByteBuffer trailer = ByteBuffer.allocate(8).putLong(crc.getValue());
        out.writeBytes(trailer.array());
        return out.toByteArray();
    }

    /**
     * Parses a profile.
     *
     * @throws ProfileException saying why the bytes are no profile: truncated, corrupt (checksum, magic,
     *                          page ids), or of another version
     */
    static ResidentProfile decode(byte[] bytes) throws ProfileException {
        try {
            return decode(new ByteArrayInputStream(bytes), bytes.length, Integer.MAX_VALUE);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array does not fail to read
        }
    }

    /**
     * Parses a profile of {@code size} bytes from {@code in}, keeping its first {@code maxPages} page ids: every byte is
     * read, through the checksum, but no more than those ids are kept, so a profile of many more pages than a cache has
     * frames (written by a larger cache, or hostile) takes no more heap than the frames. A failure the checksum explains
     * is reported as the checksum's, as when the checksum was checked first.
     */
    private static ResidentProfile decode(InputStream in, long size, int maxPages) throws IOException, ProfileException {
        Parsed parsed = parse(in, size, maxPages, 0);
        try {
            return new ResidentProfile(parsed.header().pageSize(), parsed.header().filePages(),
                new String(parsed.key(), StandardCharsets.UTF_8), parsed.pages());
        } catch (IllegalArgumentException e) {
            throw new ProfileException("corrupt: " + e.getMessage()); // a key of bytes that are no UTF-8 grows as it decodes
        }
    }

    /**
     * A profile as {@link #parse} read and checked it whole: its header, its key's bytes, its first page ids, and how many
     * of its ids are below the bound asked for ({@link #cutFor}) and the offset in the profile where their bytes end.
     */
    private record Parsed(Header header, byte[] key, long[] pages, long idsBelow, long idsBelowEnd) {
    }

    /**
     * Reads and checks a profile of {@code size} bytes from {@code in} ({@link #decode}), keeping its first
     * {@code maxPages} page ids and counting those below {@code pagesBelow}: the ids increase, so those are a prefix,
     * whose bytes end at {@link Parsed#idsBelowEnd}.
     */
    private static Parsed parse(InputStream in, long size, int maxPages, long pagesBelow)
        throws IOException, ProfileException {
        if (size < HEADER_BYTES + 8 + 8) {
            throw new ProfileException("truncated: " + size + " bytes, less than a header");
        }
        ChecksummedBytes body = new ChecksummedBytes(in, size - 8);
        Header header = header(ByteBuffer.wrap(body.read(HEADER_BYTES + 8)), size);
        ProfileException failure = null;
        byte[] key = null;
        long[] pages = null;
        long idsBelow = 0;
        long idsBelowEnd = HEADER_BYTES + 8 + header.keyLength();
        try {
            if (body.left() < header.keyLength()) {
                throw new ProfileException("truncated: " + size + " bytes end inside the header");
            }
            key = body.read(header.keyLength());
            pages = new long[(int) Math.min(header.pages(), maxPages)];
            long previous = -1;
            for (long i = 0; i < header.pages(); i++) {
                long delta = readVarLong(body);
                long page = previous + 1 + delta;
                if (delta < 0 || page <= previous) {
                    throw new ProfileException("corrupt: page ids do not increase at entry " + i);
                }
                if (i < pages.length) {
                    pages[(int) i] = page;
                }
                if (page < pagesBelow) {
                    idsBelow++;
                    idsBelowEnd = size - 8 - body.left();
                }
                previous = page;
            }
            if (body.left() > 0) {
                throw new ProfileException("corrupt: " + body.left() + " bytes after the last page id");
            }
        } catch (ProfileException e) {
            failure = e;
        }
        body.skipRest();
        long stored = new DataInputStream(in).readLong(); // the trailer: the stream's last 8 bytes
        if (stored != body.checksum()) {
            throw new ProfileException("truncated or corrupt: checksum mismatch");
        }
        if (failure != null) {
            throw failure;
        }
        return new Parsed(header, key, pages, idsBelow, idsBelowEnd);
    }

    /**
     * The bytes of a profile its checksum covers, read through it a buffer at a time: never past them, so that the
     * checksum itself is left in the stream.
     */
    private static final class ChecksummedBytes {
        private final DataInputStream in;
        private final CRC32 crc = new CRC32();
        private final byte[] buffer;
        private int position;
        private int limit;
        /** Bytes not yet taken from the buffer or the stream. */
        private long left;

        ChecksummedBytes(InputStream in, long length) {
            this.in = new DataInputStream(in);
            this.left = length;
            this.buffer = new byte[(int) Math.min(length, READ_BUFFER_BYTES)];
        }

        long left() {
            return left;
        }

        /** The next {@code count} bytes; the caller checked that there are as many left. */
        byte[] read(int count) throws IOException {
            byte[] bytes = new byte[count];
            for (int i = 0; i < count; i++) {
                bytes[i] = (byte) next();
            }
            return bytes;
        }

        /** The next byte, or -1 when none is left. */
        int next() throws IOException {
            if (position == limit) {
                if (!fill()) {
                    return -1;
                }
            }
            left--;
            return buffer[position++] & 0xFF;
        }

        /** Reads what is left into the checksum. */
        void skipRest() throws IOException {
            left -= limit - position;
            position = limit;
            while (fill()) {
                left -= limit;
                position = limit;
            }
        }

        long checksum() {
            return crc.getValue();
        }

        private boolean fill() throws IOException {
            long unread = left - (limit - position);
            if (unread == 0) {
                return false;
            }
            limit = (int) Math.min(unread, buffer.length);
            in.readFully(buffer, 0, limit); // an EOFException if the file shrank meanwhile: unreadable
            crc.update(buffer, 0, limit);
            position = 0;
            return true;
        }
    }

    /** A profile's fixed header: what it says before its key. */
    private record Header(int pageSize, long filePages, int keyLength, long pages) {
    }

    /**
     * Reads and checks the header at the start of {@code in}, for a profile of {@code size} bytes in all (at least a
     * header and a checksum: {@link #decode} checked): enough to refuse a file that is no profile, or longer or shorter
     * than its header allows, before the rest of it is read.
     */
    private static Header header(ByteBuffer in, long size) throws ProfileException {
        byte[] magic = new byte[MAGIC.length];
        in.get(magic);
        if (!Arrays.equals(magic, MAGIC)) {
            throw new ProfileException("corrupt: not a resident-page profile (bad magic)");
        }
        int version = in.getInt();
        if (version != VERSION) {
            throw new ProfileException("written by another version of the format (" + version + ", this reads " + VERSION + ")");
        }
        int pageSize = in.getInt();
        long filePages = in.getLong();
        int keyLength = in.getInt();
        long count = in.getLong();
        if (keyLength < 0 || keyLength > MAX_KEY_BYTES || count < 0) {
            throw new ProfileException("corrupt: header says key length " + keyLength + " and " + count + " pages");
        }
        if (count > size) {
            // Each page takes at least one byte: the bytes end before the pages the header announces.
            throw new ProfileException("truncated: the header announces " + count + " pages, the profile has " + size
                + " bytes");
        }
        long most = HEADER_BYTES + 8 + keyLength + count * MAX_VARINT_BYTES + 8;
        if (size > most) {
            throw new ProfileException("corrupt: " + size + " bytes, more than the " + most + " a profile of " + count
                + " pages takes at most");
        }
        return new Header(pageSize, filePages, keyLength, count);
    }

    private static void writeVarLong(ByteArrayOutputStream out, long value) {
        while ((value & ~0x7FL) != 0) {
            out.write((int) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        out.write((int) value);
    }

    private static long readVarLong(ChecksummedBytes in) throws IOException, ProfileException {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = in.next();
            if (b < 0) {
                throw new ProfileException("truncated: ends inside a page id");
            }
            value |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw new ProfileException("corrupt: a page id longer than 64 bits");
    }

    // ---- files ----------------------------------------------------------------------------------------

    /** How the temporary file replaces the profile: a rename, which a test may break to play a crash. */
    @FunctionalInterface
    interface Rename {
        void move(Path from, Path to) throws IOException;

        Rename ATOMIC = (from, to) -> {
            try {
                Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
            }
        };
    }

    /** Writes this as the profile of {@code file}, atomically: temporary file, force, rename. */
    public void writeFor(Path file) throws IOException {
        writeFor(file, Rename.ATOMIC);
    }

    void writeFor(Path file, Rename rename) throws IOException {
        refuseUnlessProfile(pathFor(file));
        byte[] bytes = encode();
        write(file, rename, out -> writeFully(out, ByteBuffer.wrap(bytes)));
    }

    /** What a write puts into its temporary file, before the force. */
    @FunctionalInterface
    private interface Contents {
        void writeTo(FileChannel out) throws IOException;
    }

    /** Writes {@code contents} as the profile of {@code file}, atomically: temporary file, force, rename. */
    private static void write(Path file, Rename rename, Contents contents) throws IOException {
        Path target = pathFor(file);
        Path temp = null;
        boolean renamed = false;
        try {
            // Uninterruptible: a store that closes from an interrupted thread still gets its profile written. Created
            // new: a file already there is never written (it once was, when every write reused one temporary name: a
            // store's own file of that name that began with zeros, as a sparse or fresh one does, was cut to the
            // profile and renamed away, and two caches profiling one file tore each other's profile).
            FileChannel channel = null;
            // At every write, not only at a map: the map after a crash comes before the dead write's file is an hour old,
            // and a file mapped for a long run kept it for the whole run.
            removeDeadWrites(file);
            for (int n = 0; channel == null; n++) {
                if (n == TEMP_NAMES) {
                    throw everyTempNameTaken(file);
                }
                Path candidate = tempPathFor(file, n);
                try {
                    channel = UninterruptibleFileChannels.open(candidate, true, StandardOpenOption.CREATE_NEW);
                    temp = candidate;
                } catch (FileAlreadyExistsException e) {
                    // taken: the next name
                }
            }
            try (FileChannel out = channel) {
                contents.writeTo(out);
                out.force(true);
            }
            rename.move(temp, target);
            renamed = true;
        } finally {
            if (temp != null && !renamed) {
                try {
                    Files.deleteIfExists(temp); // ours alone: created new above
                } catch (IOException ignored) {
                    // a leftover of a few bytes; the profile's failure is what the caller hears of
                }
            }
        }
    }

    /**
     * Rewrites the profile of {@code file} with only its page ids below {@code pagesBelow}, and {@code filePages} as the
     * file's page count, streamed from the profile there into the new one: never read into the heap, where a profile a
     * larger cache wrote may list millions of pages of which a map keeps no more than the frames (a cut that read the
     * whole profile back took 16 bytes an id, under the mapping lock at an unmap). The page ids kept are a prefix of the
     * profile's, and so are their bytes: they are copied as they are. The file opened is read twice, to check it whole
     * and find where the ids kept end, then to copy them: a profile is only ever renamed over, never written in place,
     * so the open file is the same both times.
     *
     * @return false, nothing written, where there is no profile, or one of another page size or file key
     * @throws ProfileException if the profile there is truncated, corrupt or unreadable; nothing written
     * @throws IOException if the new profile cannot be written
     */
    public static boolean cutFor(Path file, int filePageSize, String fileKey, long filePages, long pagesBelow)
        throws IOException, ProfileException {
        Path path = pathFor(file);
        RandomAccessFile opened;
        try {
            opened = open(path);
        } catch (NoSuchFileException | java.io.FileNotFoundException e) {
            return false;
        } catch (IOException e) {
            throw new ProfileException("unreadable: " + e);
        }
        try (RandomAccessFile in = opened) {
            Parsed parsed;
            try {
                parsed = parse(new RandomAccessFileStream(in), lengthOf(in), 0, pagesBelow);
            } catch (IOException e) {
                throw new ProfileException("unreadable: " + e);
            }
            byte[] key = parsed.key();
            if (parsed.header().pageSize() != filePageSize || !new String(key, StandardCharsets.UTF_8).equals(fileKey)) {
                return false;
            }
            refuseUnlessProfile(path);
            long keptPages = parsed.idsBelow();
            long copyFrom = HEADER_BYTES + 8 + key.length;
            long copyTo = parsed.idsBelowEnd();
            write(file, Rename.ATOMIC, out -> {
                CRC32 crc = new CRC32();
                ByteBuffer head = ByteBuffer.allocate(HEADER_BYTES + 8 + key.length);
                head.put(MAGIC).putInt(VERSION).putInt(filePageSize).putLong(filePages).putInt(key.length)
                    .putLong(keptPages).put(key).flip();
                crc.update(head.duplicate());
                writeFully(out, head);
                byte[] buffer = new byte[(int) Math.min(Math.max(copyTo - copyFrom, 1), READ_BUFFER_BYTES)];
                in.seek(copyFrom);
                for (long left = copyTo - copyFrom; left > 0; ) {
                    int n = (int) Math.min(left, buffer.length);
                    in.readFully(buffer, 0, n);
                    crc.update(buffer, 0, n);
                    writeFully(out, ByteBuffer.wrap(buffer, 0, n));
                    left -= n;
                }
                in.close(); // before the rename over it: a file held open refuses that on some systems
                writeFully(out, ByteBuffer.allocate(8).putLong(0, crc.getValue()));
            });
            return true;
        }
    }

    private static void writeFully(FileChannel out, ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            out.write(buffer);
        }
    }

    /**
     * Why no write of {@code file}'s profile could begin, naming every temporary name: the last name's bare
     * FileAlreadyExistsException sent the operator to one file of sixteen.
     */
    private static FileAlreadyExistsException everyTempNameTaken(Path file) {
        return new FileAlreadyExistsException(tempPathFor(file, 0).toString(), null, "all " + TEMP_NAMES
            + " temporary names of the profile, this one to " + tempPathFor(file, TEMP_NAMES - 1).getFileName() + ", are"
            + " taken: by writes under way, by writes that died less than an hour ago (removed once older, by a map or a"
            + " write), or by files that are no profile's (move those away)");
    }

    /**
     * Throws unless {@code path} is absent or a profile (a regular file that begins with the magic). A profile replaces
     * only a profile: a store may have a file of its own under that name, mapped or not, and a rename over it would
     * lose its data (it once did). Something that is no regular file (a folder, a named pipe, a device) is not even
     * opened: opening a named pipe to read it waits for a writer, for ever, and the unmap with it.
     */
    private static void refuseUnlessProfile(Path path) throws IOException {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(path, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
                return;
            }
            throw e; // a link to nothing: there, but not known to be a profile
        }
        if (!attributes.isRegularFile()) {
            throw new IOException(path + " exists and is not a regular file, so it is no resident-page profile and is left"
                + " as it is; move it away to let the profile be written there");
        }
        byte[] head = head(path);
        if (!Arrays.equals(head, MAGIC)) {
            throw new IOException(path + " exists and is not a resident-page profile (it does not begin with \""
                + new String(MAGIC, StandardCharsets.US_ASCII) + "\"), so it is left as it is; move it away to let the"
                + " profile be written there");
        }
    }

    /** The first bytes of {@code path}, as many as the magic has, or fewer if the file is shorter. */
    private static byte[] head(Path path) throws IOException {
        byte[] head = new byte[MAGIC.length];
        int length = 0;
        // A RandomAccessFile, as its reads are not interruptible as a channel's are.
        try (RandomAccessFile in = new RandomAccessFile(path.toFile(), "r")) {
            for (int n; length < head.length && (n = in.read(head, length, head.length - length)) > 0; ) {
                length += n;
            }
        }
        return Arrays.copyOf(head, length);
    }

    /**
     * Removes the temporary files of writes of {@code file}'s profile that died before their rename (a crash, a kill):
     * those untouched for {@link #DEAD_WRITE_MILLIS} that hold what such a write begins with (nothing, or the start of a
     * profile). A recent one may be a live write of another process, and one that begins otherwise is not ours (a store's
     * own file of that name): both are left. Best effort: a leftover that cannot be looked at or removed stays.
     */
    private static void removeDeadWrites(Path file) {
        long deadBefore = System.currentTimeMillis() - DEAD_WRITE_MILLIS;
        for (int n = 0; n < TEMP_NAMES; n++) {
            removeIfDeadWrite(tempPathFor(file, n), deadBefore);
        }
    }

    /**
     * Removes, once per folder in this JVM, what dead writes of earlier versions left: they named a write's temporary file
     * {@code <profile>.<random int in lower-case hex>.tmp}, which only a listing of the folder finds, and nothing removed
     * one. Once: no version writes those names any more, and a listing at every map made mapping each of a folder's n
     * files read all n names. Any profile's of the folder, by {@link #removeDeadWrites}'s rule (this version's names,
     * 0 to 15, are such names too). The first version's fixed {@code <profile>.tmp} is left: it was never more than one,
     * and it is a name a store may give a file of its own.
     */
    private static void removeDeadWritesOfEarlierVersions(Path file) {
        Path folder = pathFor(file).toAbsolutePath().normalize().getParent();
        if (folder == null || !SWEPT_FOLDERS.add(folder)) {
            return;
        }
        if (SWEPT_FOLDERS.size() > MAX_SWEPT_FOLDERS) {
            SWEPT_FOLDERS.clear(); // bounded: a folder swept again only lists it again
        }
        long deadBefore = System.currentTimeMillis() - DEAD_WRITE_MILLIS;
        try (DirectoryStream<Path> temps = Files.newDirectoryStream(folder,
                entry -> EARLIER_TEMP_NAME.matcher(entry.getFileName().toString()).matches())) {
            for (Path temp : temps) {
                removeIfDeadWrite(temp, deadBefore);
            }
        } catch (IOException | RuntimeException e) {
            // an unlistable folder: leftovers are not worth failing the map for
        }
    }

    /** Removes {@code temp} if it is a dead write's: see {@link #removeDeadWrites}. */
    private static void removeIfDeadWrite(Path temp, long deadBefore) {
        try {
            BasicFileAttributes attributes = Files.readAttributes(temp, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (attributes.isRegularFile() && attributes.lastModifiedTime().toMillis() < deadBefore) {
                byte[] head = head(temp);
                if (Arrays.equals(head, 0, head.length, MAGIC, 0, head.length)) {
                    Files.deleteIfExists(temp);
                }
            }
        } catch (IOException | RuntimeException e) {
            // absent, mostly; a leftover is not worth failing the map or the write for
        }
    }

    /**
     * The profile of {@code file}, or null if it has none.
     *
     * @throws ProfileException if there is one but it is truncated, corrupt or unreadable
     */
    public static ResidentProfile readFor(Path file) throws ProfileException {
        return readFor(file, Integer.MAX_VALUE);
    }

    /**
     * The profile of {@code file} with at most its first {@code maxPages} page ids (a cache reheats no more pages than it
     * has frames), or null if it has none. The whole profile is read and checked, but only those ids are kept: a profile
     * of a million pages once took 16 bytes a page of heap at the map of a cache of 64 frames. Removes what writes of the
     * profile that died left behind, under this version's names and earlier ones', first: the map this is read at is the
     * first chance after a crash.
     *
     * @throws ProfileException if there is one but it is truncated, corrupt or unreadable
     */
    public static ResidentProfile readFor(Path file, int maxPages) throws ProfileException {
        if (maxPages < 0) {
            throw new IllegalArgumentException("maxPages must not be negative: " + maxPages);
        }
        removeDeadWrites(file);
        removeDeadWritesOfEarlierVersions(file);
        Path path = pathFor(file);
        try {
            // Read as it goes: the header is checked before the rest is read (a file of zeros, or a sparse one, was once
            // read whole into the heap, to be refused).
            try (RandomAccessFile profile = open(path)) {
                return decode(new RandomAccessFileStream(profile), lengthOf(profile), maxPages);
            }
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new ProfileException("unreadable: " + e);
        }
    }

    /**
     * Opens the profile at {@code path} to read, a regular file only: a named pipe would keep the map waiting for a writer,
     * for ever; a device (a link to /dev/zero) never ends. A RandomAccessFile, whose reads an interrupt does not end.
     */
    private static RandomAccessFile open(Path path) throws IOException, ProfileException {
        BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
        if (!attributes.isRegularFile()) {
            throw new ProfileException("not a regular file (" + kind(attributes) + "), so not read");
        }
        return new RandomAccessFile(path.toFile(), "r");
    }

    /**
     * The length of the open profile, refused above what a profile can have. The open file's, not the path's: another
     * cache renames a whole profile over this one at its unmap, and a length read off the path before the open was the
     * replaced profile's, which had the new one refused as truncated or corrupt.
     */
    private static long lengthOf(RandomAccessFile profile) throws IOException, ProfileException {
        long size = profile.length();
        if (size > MAX_PROFILE_BYTES) {
            throw new ProfileException("too large: " + size + " bytes, more than a profile can have (" + MAX_PROFILE_BYTES
                + ")");
        }
        return size;
    }

    /** The bytes of an open {@link RandomAccessFile} from where it is, as a stream; closing it is the file's owner's. */
    private static final class RandomAccessFileStream extends InputStream {
        private final RandomAccessFile file;

        RandomAccessFileStream(RandomAccessFile file) {
            this.file = file;
        }

        @Override
        public int read() throws IOException {
            return file.read();
        }

        @Override
        public int read(byte[] bytes, int offset, int length) throws IOException {
            return file.read(bytes, offset, length);
        }
    }

    private static String kind(BasicFileAttributes attributes) {
        return attributes.isDirectory() ? "a folder" : attributes.isOther() ? "a named pipe, device or socket" : "not a file";
    }
}
