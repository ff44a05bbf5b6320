package io.ratatosk.bench.ldbc.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PagedFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * An example graph store in the manner of Neo4j's record stores, every byte of it on
 * {@link PagedFile}s so that every access goes through the page cache: fixed-size node,
 * relationship and property records, a dynamic store for long strings, and an index from LDBC ids
 * to node ids. Layouts: {@link NodeRecord}, {@link RelationshipRecord}, {@link PropertyRecord},
 * {@link StringBlock}, {@link IdIndexLayout}. Written by {@link StoreWriter}; a {@link StoreUpdater}
 * may insert into it while it is read, and closing a store that was updated flushes it and writes its
 * new store.meta.
 *
 * <p>Thread-safe: each reading thread takes its own {@link #newReader()}.
 */
public final class GraphStore implements AutoCloseable {
    /** "No record": the end of a chain, or a missing node. */
    public static final int NONE = -1;
    public static final String META_FILE = "store.meta";
    public static final int FORMAT_VERSION = 2;

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Path dir;
    private volatile StoreMeta meta;
    private final Map<StoreFile, PagedFile> files;
    private final PinRecorder recorder;
    private volatile boolean updated;

    private GraphStore(Path dir, StoreMeta meta, Map<StoreFile, PagedFile> files, PinRecorder recorder) {
        this.dir = dir;
        this.meta = meta;
        this.files = files;
        this.recorder = recorder;
    }

    /** Opens the complete store in {@code dir} on {@code cache}. */
    public static GraphStore open(Path dir, PageCache cache) throws IOException {
        return open(dir, cache, null);
    }

    /**
     * Opens the complete store in {@code dir}; every pin its readers make is told to {@code recorder}
     * (null: none).
     *
     * @throws IncompleteStoreException if {@code dir} holds no store, or one whose load never finished
     */
    public static GraphStore open(Path dir, PageCache cache, PinRecorder recorder) throws IOException {
        StoreMeta meta = readMeta(dir).orElseThrow(() -> new IncompleteStoreException(dir));
        if (meta.formatVersion() != FORMAT_VERSION) {
            throw new IOException("graph store " + dir + " has format version " + meta.formatVersion()
                + "; this build reads " + FORMAT_VERSION + ": load it again");
        }
        Map<StoreFile, PagedFile> files = new EnumMap<>(StoreFile.class);
        try {
            for (StoreFile f : StoreFile.values()) {
                PagedFile pf = cache.map(dir.resolve(f.fileName()), StoreFile.PAGE_SIZE, false);
                files.put(f, pf);
                long needed = needed(f, meta);
                if (pf.fileSize() < needed) {
                    throw new IOException("graph store " + dir + " is damaged: " + f.fileName() + " has "
                        + pf.fileSize() + " bytes but store.meta needs " + needed);
                }
            }
        } catch (IOException | RuntimeException e) {
            for (PagedFile pf : files.values()) {
                try {
                    pf.close();
                } catch (IOException | RuntimeException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
        return new GraphStore(dir, meta, files, recorder);
    }

    /**
     * What is wrong with the files of the store in {@code dir} that {@code meta} describes, without opening them: a file
     * missing, or shorter than the records {@code meta} counts need; empty if none is.
     */
    public static Optional<String> damage(Path dir, StoreMeta meta) throws IOException {
        for (StoreFile f : StoreFile.values()) {
            Path p = dir.resolve(f.fileName());
            if (!Files.isRegularFile(p)) {
                return Optional.of(f.fileName() + " is missing");
            }
            long needed = needed(f, meta);
            if (Files.size(p) < needed) {
                return Optional.of(f.fileName() + " has " + Files.size(p) + " bytes but store.meta needs " + needed);
            }
        }
        return Optional.empty();
    }

    private static long needed(StoreFile f, StoreMeta meta) {
        long records = switch (f) {
            case NODES -> meta.nodes();
            case RELATIONSHIPS -> meta.relationships();
            case PROPERTIES -> meta.properties();
            case STRINGS -> meta.stringBlocks();
            case ID_INDEX -> -1;
        };
        if (f == StoreFile.ID_INDEX) {
            return (IdIndexLayout.pageOfSlot(meta.indexCapacity() - 1) + 1) * StoreFile.PAGE_SIZE;
        }
        return records == 0 ? 0 : (f.pageOf(records - 1) + 1) * StoreFile.PAGE_SIZE;
    }

    /** A reader for the calling thread; close it when done (it publishes its hit and fault counts). */
    public StoreReader newReader() throws IOException {
        return new StoreReader(this, recorder);
    }

    /** A reader whose pins are told to {@code pinRecorder} instead (which may pass them on to {@link #recorder()}). */
    public StoreReader newReader(PinRecorder pinRecorder) throws IOException {
        return new StoreReader(this, pinRecorder);
    }

    /** The recorder every pin of this store's readers is told to; null if none. */
    public PinRecorder recorder() {
        return recorder;
    }

    /** The meta data as of the last published update. */
    public StoreMeta meta() {
        return meta;
    }

    /**
     * The store's one updater (the caller keeps to one); its inserts go through this store's page
     * cache, told to the store's pin recorder like every read.
     */
    public StoreUpdater newUpdater() throws IOException {
        return new StoreUpdater(this, recorder);
    }

    /**
     * Writes every page modified so far and forces the files, as a database's checkpoint does: runs
     * concurrently with reads and with later updates (a page being written meanwhile stays dirty).
     */
    public void flush() throws IOException {
        for (PagedFile f : files.values()) {
            f.flush();
        }
    }

    /** Called by the updater: the counts readers see after their next refresh, and store.meta on close. */
    void publish(StoreMeta current) {
        meta = current;
        updated = true;
    }

    public Path dir() {
        return dir;
    }

    PagedFile file(StoreFile f) {
        return files.get(f);
    }

    /** Bytes of the store's paged files: what a cache would need to hold all of it. */
    public long sizeBytes() {
        long total = 0;
        for (PagedFile f : files.values()) {
            total += f.fileSize();
        }
        return total;
    }

    /** The store's meta data if {@code dir} holds a complete store. */
    public static Optional<StoreMeta> readMeta(Path dir) throws IOException {
        Path file = dir.resolve(META_FILE);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        return Optional.of(JSON.readValue(file.toFile(), StoreMeta.class));
    }

    /** Bytes of the store files in {@code dir} as they lie on disk. */
    public static long sizeOnDisk(Path dir) throws IOException {
        long total = 0;
        for (StoreFile f : StoreFile.values()) {
            Path p = dir.resolve(f.fileName());
            if (Files.exists(p)) {
                total += Files.size(p);
            }
        }
        return total;
    }

    /** Writes store.meta through a temporary file and an atomic rename: it appears whole or not at all. */
    static void writeMeta(Path dir, StoreMeta meta) throws IOException {
        Path tmp = dir.resolve(META_FILE + ".tmp");
        JSON.writeValue(tmp.toFile(), meta);
        Files.move(tmp, dir.resolve(META_FILE), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** Deletes the completion marker first, then every store file: what a failed or new load leaves. */
    public static void delete(Path dir) throws IOException {
        Files.deleteIfExists(dir.resolve(META_FILE));
        Files.deleteIfExists(dir.resolve(META_FILE + ".tmp"));
        for (StoreFile f : StoreFile.values()) {
            Files.deleteIfExists(dir.resolve(f.fileName()));
        }
    }

    /**
     * Unmaps every file; after updates, flushes them first and then writes store.meta with the new
     * counts (through a temporary file and an atomic rename), so that the store opens again with
     * every published update.
     */
    @Override
    public void close() throws IOException {
        if (updated && !files.isEmpty()) {
            for (PagedFile f : files.values()) {
                f.flush();
            }
            closeAll(files);
            writeMeta(dir, meta);
            return;
        }
        closeAll(files);
    }

    /**
     * Unmaps every file of {@code files} and empties it, even if some fail to close; the first failure is
     * thrown, with the others suppressed in it.
     */
    static void closeAll(Map<StoreFile, PagedFile> files) throws IOException {
        IOException failure = null;
        for (PagedFile f : files.values()) {
            try {
                f.close();
            } catch (IOException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        files.clear();
        if (failure != null) {
            throw failure;
        }
    }

    /** Thrown when a folder holds no complete store: the marker written last is missing. */
    public static final class IncompleteStoreException extends NoSuchFileException {
        private static final long serialVersionUID = 1L;

        IncompleteStoreException(Path dir) {
            super(dir.resolve(META_FILE).toString(), null,
                "no complete graph store in " + dir + " (store.meta, written last by a finished load, is missing)");
        }

        @Override
        public String getMessage() {
            return getReason();
        }
    }
}
